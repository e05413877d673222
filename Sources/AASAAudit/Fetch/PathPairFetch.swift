import Foundation
import NIOCore

extension HTTPSFetcher {
    /// Fetches `first`, then `second` of the same host, on one connection where the server
    /// allows it, as Apple's fetcher reads one:
    /// - Once the first's TLS handshake is done, `second` is sent right behind `first` (HTTP/1.1
    ///   pipelining; under `--rate` it waits for the first's answer instead, as a request of
    ///   its own). Its answer follows the first's when that leaves the connection open
    ///   (HTTP/1.1, no `Connection: close`, framed by `Content-Length` or chunked, under the
    ///   size cap); otherwise, or when the connection closes before its answer began, `second`
    ///   goes on a connection of its own, exactly as ``fetch(_:following:on:)`` gives it.
    /// - When the first's answer has not begun within ``reuseWait`` after the handshake, `second`
    ///   stops waiting for it and takes a connection of its own, so that a server that stalls on
    ///   one path costs one timeout, not two. An answer that has begun is waited for (the
    ///   server is answering, and would answer a request sent behind next: asking again on
    ///   another connection would ask twice).
    /// - When no connection could be made (refused, timed out, a TLS failure: everything before
    ///   a request is sent), `second` would need the same connection to the same server:
    ///   it is not requested, and shares the first's failure (``FetchResult/init(notRequested:after:)``).
    ///
    /// Each result says what happened on its own path (``FetchResult/reusedConnection``).
    func fetch(_ first: FetchTarget, then second: FetchTarget, on eventLoop: any EventLoop) -> EventLoopFuture<
        [FetchResult]
    > {
        if !eventLoop.inEventLoop {
            return eventLoop.flatSubmit { self.fetch(first, then: second, on: eventLoop) }
        }
        let pair = PathPair(second: second, result: eventLoop.makePromise(of: FetchResult.self))
        let bound = NIOLoopBound(pair, eventLoop: eventLoop)
        let following = FollowingRequest(on: eventLoop) { connection, firstState in
            let pair = bound.value
            pair.first = firstState
            pair.connection = connection
            let actions = pair.machine.connectionOffered(paced: self.pacer != nil)
            self.execute(actions, for: pair, on: eventLoop)
            pair.connection = nil  // what the actions needed of it is done: the pair holds no channel
            // Only a request made for this connection goes behind on it (a connection offered
            // again, after the first's retry, gets none: the second is sent, or on its own).
            return actions.contains(.sendBehind) ? pair.behind : nil
        }
        let firstResult = fetch(first, following: following, on: eventLoop).map { result -> FetchResult in
            let pair = bound.value
            if result.failure == nil, let handshake = result.timings.tlsMs, let head = result.timings.firstByteMs {
                // From the handshake to the answer's first byte (the timings count from the start).
                self.reuseWait.record(max(0, head - handshake) / 1000)
            }
            var result = result
            pair.kept = result.kept
            result.kept = nil
            let failedBeforeConnection =
                result.failure != nil && result.timings.tlsMs == nil && !result.reusedConnection
            pair.firstResult = result
            self.execute(
                pair.machine.firstFinished(kept: pair.kept != nil, failedBeforeConnection: failedBeforeConnection),
                for: pair, on: eventLoop)
            // Held only for the actions: the first's body and connection are not kept by the pair.
            (pair.firstResult, pair.kept) = (nil, nil)
            return result
        }
        return firstResult.and(pair.result.futureResult).map { [$0, $1] }
    }

    /// Does what ``PathPairStateMachine`` decided, in order. Each event's value (the offered
    /// connection, the answer behind, the first's result and kept connection) is set on the pair
    /// just before its actions run; an action without its value is a broken invariant: caught
    /// in debug builds, and in a release build the second path goes on a connection of its own
    /// rather than waiting for nothing.
    private func execute(_ actions: [PathPairStateMachine.Action], for pair: PathPair, on eventLoop: any EventLoop) {
        let bound = NIOLoopBound(pair, eventLoop: eventLoop)
        func missing(_ action: PathPairStateMachine.Action) {
            assertionFailure("\(action) without the value of its event")
            pair.result.completeWith(fetch(pair.second, on: eventLoop))
        }
        for action in actions {
            switch action {
            case .startReuseWait:
                pair.fallback = eventLoop.scheduleTask(in: .seconds(clamping: reuseWait.current)) {
                    let pair = bound.value
                    // The first's answer has begun (and goes on): wait for it.
                    let answering = pair.first.map { $0.head != nil && !$0.isFinished } ?? false
                    self.execute(pair.machine.reuseWaitEnded(firstAnswering: answering), for: pair, on: eventLoop)
                }
            case .cancelReuseWait:
                pair.fallback?.cancel()
            case .sendBehind:
                guard let connection = pair.connection else { return missing(action) }
                // No timer yet: its handler starts it when its answer is next, so that the wait
                // behind the first is never reported as this path's timeout.
                let (state, answer) = request(pair.second, on: connection, on: eventLoop)
                pair.behind = state
                answer.whenSuccess { result in
                    let pair = bound.value
                    guard pair.behind === state else { return }  // given up on
                    pair.answerBehind = result
                    self.execute(pair.machine.answerBehindCame(), for: pair, on: eventLoop)
                    (pair.answerBehind, pair.behind) = (nil, nil)  // answered: the pair keeps neither
                }
            case .completeWithAnswerBehind:
                guard let result = pair.answerBehind else { return missing(action) }
                pair.result.completeWith(onOwnConnectionIfUnanswered(result, on: eventLoop))
            case .giveUpBehind:
                // Left behind the first, whose answer is late: its answer, if any, is ignored.
                let waiting = pair.behind
                pair.behind = nil
                waiting?.finish(failure: .connection("gave up waiting behind the request before"))
            case .startOwnConnection:
                pair.result.completeWith(fetch(pair.second, on: eventLoop))
            case .sendOnKeptConnection:
                guard let kept = pair.kept else { return missing(action) }
                pair.result.completeWith(fetch(pair.second, reusing: kept, on: eventLoop))
            case .notRequested:
                guard let first = pair.firstResult else { return missing(action) }
                pair.result.succeed(FetchResult(notRequested: pair.second, after: first))
            case .closeKeptConnection:
                pair.kept?.channel.close(promise: nil)
            }
        }
    }

    /// Sends `target`'s request on `connection`, once its `--rate` slot has come.
    private func fetch(
        _ target: FetchTarget, reusing connection: KeptConnection, on eventLoop: any EventLoop
    ) -> EventLoopFuture<FetchResult> {
        paced(on: eventLoop) {
            let (state, answer) = self.request(target, on: connection, on: eventLoop)
            state.startTimer(on: eventLoop)
            connection.handler.value.send(state)
            return answer
        }.flatMap { self.onOwnConnectionIfUnanswered($0, on: eventLoop) }
    }

    /// The state of `target`'s request on the domain's open `connection` (no timer started),
    /// and its answer.
    private func request(
        _ target: FetchTarget, on connection: KeptConnection, on eventLoop: any EventLoop
    ) -> (FetchState, EventLoopFuture<FetchResult>) {
        let promise = eventLoop.makePromise(of: FetchResult.self)
        let state = FetchState(
            target: target, attempt: 1, promise: promise, maximumBodySize: configuration.maximumBodySize,
            userAgent: configuration.userAgent, timeout: configuration.timeout,
            route: ConnectionRoute(to: target, configuration: configuration), reusing: connection)
        return (state, promise.futureResult)
    }

    /// `result` of a request on a shared connection, or, when that connection closed before
    /// any answer to it began (the server's keep-alive ended, or the answer before it did not
    /// leave the connection), the same request on a connection of its own: no finding.
    private func onOwnConnectionIfUnanswered(_ result: FetchResult, on eventLoop: any EventLoop) -> EventLoopFuture<
        FetchResult
    > {
        if case .connection = result.failure, result.response == nil {
            return fetch(result.target, on: eventLoop)
        }
        return eventLoop.makeSucceededFuture(result)
    }
}

/// What the executor of a domain's second path keeps (``HTTPSFetcher/fetch(_:then:on:)``);
/// where it stands is ``PathPairStateMachine``'s. Used on the domain's event loop only.
private final class PathPair {
    let second: FetchTarget
    let result: EventLoopPromise<FetchResult>
    var machine = PathPairStateMachine()
    /// The first request, watched for its answer (weak: it holds, through its
    /// ``FollowingRequest``, what holds this).
    weak var first: FetchState?
    /// The second request sent behind the first.
    var behind: FetchState?
    /// What an event brought, held only while its actions run: the first's connection when
    /// offered, the answer behind it, the first's result and the connection it left open.
    var connection: KeptConnection?
    var answerBehind: FetchResult?
    var firstResult: FetchResult?
    var kept: KeptConnection?
    var fallback: Scheduled<Void>?

    init(second: FetchTarget, result: EventLoopPromise<FetchResult>) {
        self.second = second
        self.result = result
    }
}
