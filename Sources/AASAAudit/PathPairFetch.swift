import Foundation
import NIOCore

extension HTTPSFetcher {
    /// How long the second path waits for the first before it opens its own connection: a
    /// server that hangs on the first path costs little more than one timeout, not two.
    static func reuseWait(timeout: TimeInterval) -> TimeInterval { min(1, timeout / 2) }

    /// Fetches `first`, then `second` of the same host, as Apple's fetcher reads them: on the
    /// first's connection when its answer came whole and the server keeps the connection open
    /// (HTTP/1.1, no `Connection: close`, framed by `Content-Length` or chunked, under the size
    /// cap). Otherwise `second` gets a connection of its own, exactly as ``fetch(_:keepAlive:on:)``
    /// gives it: after the first failed, or was not reusable, or took longer than
    /// ``reuseWait(timeout:)``, or when the kept connection turned out closed before `second`'s
    /// answer began. Each result says what happened on its own path
    /// (``FetchResult/reusedConnection``).
    func fetch(_ first: FetchTarget, then second: FetchTarget, on eventLoop: any EventLoop) -> EventLoopFuture<
        [FetchResult]
    > {
        if !eventLoop.inEventLoop {
            return eventLoop.flatSubmit { self.fetch(first, then: second, on: eventLoop) }
        }
        let secondResult = eventLoop.makePromise(of: FetchResult.self)
        let started = NIOLoopBoundBox(false, eventLoop: eventLoop)
        let startOwnConnection: @Sendable () -> Void = {
            guard !started.value else { return }
            started.value = true
            secondResult.completeWith(self.fetch(second, on: eventLoop))
        }
        let wait = Self.reuseWait(timeout: configuration.timeout)
        let fallback = eventLoop.scheduleTask(in: .nanoseconds(Int64(wait * 1e9))) { startOwnConnection() }
        let firstResult = fetch(first, keepAlive: true, on: eventLoop).map { result -> FetchResult in
            fallback.cancel()
            var result = result
            let kept = result.kept
            result.kept = nil
            if let kept, !started.value {
                started.value = true
                secondResult.completeWith(self.fetch(second, reusing: kept, on: eventLoop))
            } else {
                kept?.channel.close(promise: nil)
                startOwnConnection()
            }
            return result
        }
        return firstResult.and(secondResult.futureResult).map { [$0, $1] }
    }

    /// Sends `target`'s request on `connection`. A connection found closed before any answer
    /// (the server's keep-alive ended first) is no finding: `target` then gets its own.
    private func fetch(
        _ target: FetchTarget, reusing connection: KeptConnection, on eventLoop: any EventLoop
    ) -> EventLoopFuture<FetchResult> {
        let promise = eventLoop.makePromise(of: FetchResult.self)
        let state = FetchState(
            target: target, attempt: 1, promise: promise, maximumBodySize: configuration.maximumBodySize,
            userAgent: configuration.userAgent, timeout: configuration.timeout,
            address: configuration.resolve.address(forHost: target.host, port: target.port), reusing: connection)
        state.startTimer(on: eventLoop)
        connection.handler.value.send(state)
        return promise.futureResult.flatMap { result in
            if case .connection = result.failure, result.response == nil {
                return self.fetch(target, on: eventLoop)
            }
            return eventLoop.makeSucceededFuture(result)
        }
    }
}
