/// What one audit connection does with each event that comes on it, as a value: events in,
/// actions out (the shape of async-http-client's `HTTP1ConnectionStateMachine`). ``FetchHandler``
/// feeds it and executes what it returns; it holds no channel, so every transition is tested
/// without a socket (FetchConnectionStateMachineTests).
///
/// A connection carries the *current* request, whose answer comes next, and at most one request
/// sent right *behind* it (HTTP/1.1 pipelining, ``FollowingRequest``): the behind request's
/// answer follows the current one's only when that answer leaves the connection open.
struct FetchConnectionStateMachine: Equatable {
    enum State: Equatable {
        /// Connecting, then the TLS handshake: nothing sent yet.
        case securing
        /// The current request is sent; its answer has not begun (`behind`: a request was sent
        /// right behind it).
        case awaitingHead(behind: Bool)
        /// The current request's answer has begun: `received` bytes of its body kept so far;
        /// `reusable`: the head lets the connection carry the next request once it ends.
        case readingBody(received: Int, reusable: Bool, behind: Bool)
        /// The current request finished and left the connection open for the domain's next
        /// request (``FetchHandler/send(_:)``).
        case kept
        /// The current request finished; the connection closes (or has closed).
        case finished
    }

    /// Where the current request was when it failed, for the failure's wording.
    enum Phase: Equatable {
        /// Not sent: the kept connection had closed before the next request.
        case notSent
        /// Before TLS was up.
        case securing
        /// After the request was sent, before its answer began.
        case awaitingHead
        /// After `received` bytes of its answer's body.
        case readingBody(received: Int)
    }

    /// What the handler does, in order.
    enum Action: Equatable {
        /// Writes the current request.
        case sendCurrent
        /// Writes the request behind the current one.
        case sendBehind
        /// Flushes what was written.
        case flush
        /// Keeps the first `count` bytes of this body part (all of it, or what fits under the cap).
        case keepBody(count: Int)
        /// Finishes the current request with its answer: `truncated` at the size cap; the
        /// connection closes unless `leaveOpen` (its answer ended and the behind request's
        /// answer comes next).
        case finishAnswered(truncated: Bool, leaveOpen: Bool)
        /// Finishes the current request with its answer and keeps the connection for the next.
        case finishKeepingConnection
        /// Finishes the current request as failed in `phase` (the handler words the failure
        /// from the error, the phase and the TLS check).
        case fail(Phase)
        /// The request behind becomes the current one: its answer is next, and its timeout
        /// starts now.
        case promoteBehind
        /// The request behind gets no answer on this connection: it fails as closed before its
        /// answer, and goes again on a connection of its own.
        case releaseBehind
    }

    /// An error's meaning for the connection.
    enum ErrorKind: Equatable {
        /// TLS closed without close_notify after the answer began: the HTTP decoder ends a
        /// close-delimited body when the connection closes, which decides.
        case uncleanShutdown
        /// Anything else.
        case other
    }

    private(set) var state: State
    /// Bytes kept of one body at most (the size cap).
    let maximumBodySize: Int

    /// A new connection: connecting.
    init(maximumBodySize: Int) {
        self.maximumBodySize = maximumBodySize
        state = .securing
    }

    /// TLS is up: the current request goes, and the request behind it when one was offered.
    mutating func handshakeCompleted(sendingBehind: Bool) -> [Action] {
        guard case .securing = state else { return [] }
        state = .awaitingHead(behind: sendingBehind)
        return sendingBehind ? [.sendCurrent, .sendBehind, .flush] : [.sendCurrent, .flush]
    }

    /// The next request of the domain, on the connection the current one left open.
    /// `active`: whether the connection is still open. On a connection that was not kept, the
    /// request fails at once as not sent (never left waiting for its timeout).
    mutating func send(active: Bool) -> [Action] {
        guard case .kept = state else { return [.fail(.notSent)] }
        guard active else {
            state = .finished
            return [.fail(.notSent)]
        }
        state = .awaitingHead(behind: false)
        return [.sendCurrent, .flush]
    }

    /// The answer's head: `contentLength` as announced; `reusable`: the connection may carry
    /// another request after this answer (``FetchHandler/isReusable(_:)``, and the request
    /// asked to keep it open).
    mutating func head(contentLength: Int?, reusable: Bool) -> [Action] {
        guard case .awaitingHead(let behind) = state else { return [] }
        if let contentLength, contentLength > maximumBodySize {
            // Announced over the cap: nothing worth reading.
            state = .finished
            return [.finishAnswered(truncated: true, leaveOpen: false)] + (behind ? [.releaseBehind] : [])
        }
        state = .readingBody(received: 0, reusable: reusable, behind: behind)
        return []
    }

    /// A part of the body, `count` bytes.
    mutating func body(count: Int) -> [Action] {
        guard case .readingBody(let received, let reusable, let behind) = state else { return [] }
        let room = maximumBodySize - received
        guard count > room else {
            state = .readingBody(received: received + count, reusable: reusable, behind: behind)
            return [.keepBody(count: count)]
        }
        state = .finished
        return (room > 0 ? [.keepBody(count: room)] : []) + [.finishAnswered(truncated: true, leaveOpen: false)]
            + (behind ? [.releaseBehind] : [])
    }

    /// The answer ended. `behindWaiting`: the request behind still waits for its answer here
    /// (false when there is none, or it was given up on).
    mutating func end(behindWaiting: Bool) -> [Action] {
        guard case .readingBody(_, let reusable, let behind) = state else { return [] }
        switch (reusable, behind, behind && behindWaiting) {
        case (true, true, true):
            // The behind request's answer comes next, on this connection.
            state = .awaitingHead(behind: false)
            return [.finishAnswered(truncated: false, leaveOpen: true), .promoteBehind]
        case (true, false, _):
            state = .kept
            return [.finishKeepingConnection]
        default:
            // Closes the connection: a request sent behind gets no answer here.
            state = .finished
            return [.finishAnswered(truncated: false, leaveOpen: false)] + (behind ? [.releaseBehind] : [])
        }
    }

    /// An error on the connection.
    mutating func error(_ kind: ErrorKind) -> [Action] {
        if kind == .uncleanShutdown, case .readingBody = state { return [] }
        return failCurrent()
    }

    /// The connection closed.
    mutating func closed() -> [Action] { failCurrent() }

    /// The current request's timer ran out (``FetchState`` finished it and closes the
    /// connection): the request behind, if any, gets no answer here.
    mutating func currentTimedOut() -> [Action] {
        let behind = hasBehind
        switch state {
        case .securing, .awaitingHead, .readingBody: state = .finished
        case .kept, .finished: return []
        }
        return behind ? [.releaseBehind] : []
    }

    private var hasBehind: Bool {
        switch state {
        case .awaitingHead(let behind), .readingBody(_, _, let behind): behind
        case .securing, .kept, .finished: false
        }
    }

    /// Fails the current request where it is, and releases the request behind it.
    private mutating func failCurrent() -> [Action] {
        let phase: Phase
        switch state {
        case .securing: phase = .securing
        case .awaitingHead: phase = .awaitingHead
        case .readingBody(let received, _, _): phase = .readingBody(received: received)
        case .kept, .finished: return []
        }
        let behind = hasBehind
        state = .finished
        return [.fail(phase)] + (behind ? [.releaseBehind] : [])
    }
}
