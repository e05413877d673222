/// The CONNECT tunnel through an HTTP proxy as a value: the states of the exchange with the
/// proxy, the events of its connection in (its answer as NIOHTTP1's response decoder gives it),
/// and what to do out. ``ProxyTunnelHandler`` only executes the actions (after the model of
/// async-http-client's proxy handshake), so that every transition is tested without a socket
/// (`ProxyTunnelStateMachineTests`).
///
///     connecting --active--> awaitingHead --head 2xx--> awaitingEnd --end--> established
///                                 |  \--head other: refused                          |
///                                 +--not HTTP, too large, closed, error--> failed     +--> pass-through
struct ProxyTunnelStateMachine {
    enum State: Equatable {
        /// Connecting to the proxy: nothing sent.
        case connecting
        /// CONNECT sent; the proxy's answer has not begun (or its head is incomplete).
        case awaitingHead
        /// A 2xx head arrived; its end (the start of the tunnel) is next.
        case awaitingEnd
        /// The tunnel is open: every event passes through to the handlers after it.
        case established
        /// The tunnel failed; nothing more is reported.
        case failed
    }

    /// Why the tunnel was not opened.
    enum Failure: Equatable {
        /// The proxy's answer is not HTTP/1.x (its first line, as it came, is quoted).
        case notHTTP
        /// A status other than 2xx: `HTTP/1.x NNN reason`, rebuilt from the head.
        case refused(status: Int, statusLine: String)
        /// The answer's header passed ``ProxyTunnelHandler/maximumHeaderSize`` bytes.
        case headerTooLarge
        /// The proxy closed the connection before it answered, or in the middle of its answer.
        case closed(midAnswer: Bool)
        /// The connection to the proxy failed (its error, described).
        case connection(String)

        /// A 5xx: the proxy could not reach the origin, which is the domain's failure, not the proxy's.
        var isUpstream: Bool {
            if case .refused(let status, _) = self { return status >= 500 }
            return false
        }
    }

    enum Action: Equatable {
        /// Send the CONNECT request.
        case sendConnect
        /// Open the tunnel: remove the HTTP handlers, let the channel become active for the
        /// handlers after, and settle the tunnel's promise.
        case establish
        /// Fail the tunnel and close the connection.
        case fail(Failure)
        /// Pass the event on (the tunnel is open, or its failure was already reported).
        case forward
        /// Nothing to do.
        case none
    }

    private(set) var state = State.connecting

    /// The connection to the proxy is up.
    mutating func channelActive() -> Action {
        guard state == .connecting else { return .none }
        state = .awaitingHead
        return .sendConnect
    }

    /// The head of the proxy's answer.
    mutating func head(status: Int, statusLine: String) -> Action {
        guard state == .awaitingHead else { return .none }
        guard (200..<300).contains(status) else { return fail(.refused(status: status, statusLine: statusLine)) }
        state = .awaitingEnd
        return .none
    }

    /// The end of the proxy's answer: after a 2xx head, the tunnel begins.
    mutating func end() -> Action {
        guard state == .awaitingEnd else { return .none }
        state = .established
        return .establish
    }

    /// The answer's header fields passed ``ProxyTunnelHandler/maximumHeaderSize`` bytes.
    mutating func headerTooLarge() -> Action {
        guard state == .awaitingHead else { return state == .failed ? .none : .forward }
        return fail(.headerTooLarge)
    }

    /// The answer cannot be read as HTTP (the decoder's error).
    mutating func notHTTP() -> Action {
        switch state {
        case .connecting, .awaitingHead, .awaitingEnd: return fail(.notHTTP)
        case .established: return .forward
        case .failed: return .none
        }
    }

    /// The connection closed; `received` says whether any of the answer had arrived.
    mutating func closed(received: Bool) -> Action {
        switch state {
        case .connecting, .awaitingHead: return fail(.closed(midAnswer: received))
        case .awaitingEnd: return fail(.closed(midAnswer: true))
        case .established: return .forward
        case .failed: return .none
        }
    }

    /// An error of the connection (not of the answer's syntax).
    mutating func error(described: String) -> Action {
        switch state {
        case .connecting, .awaitingHead, .awaitingEnd: return fail(.connection(described))
        case .established, .failed: return .forward
        }
    }

    private mutating func fail(_ failure: Failure) -> Action {
        state = .failed
        return .fail(failure)
    }
}
