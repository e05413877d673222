import Foundation
import NIOCore

extension HTTPSFetcher {
    /// Fetches `first`, then `second` of the same host, as Apple's fetcher reads them: on the
    /// first's connection when its answer came whole and the server keeps the connection open
    /// (HTTP/1.1, no `Connection: close`, framed by `Content-Length` or chunked, under the size
    /// cap). Otherwise `second` gets a connection of its own, exactly as ``fetch(_:keepAlive:on:)``
    /// gives it: after the first failed, or was not reusable, or took longer than
    /// ``reuseWait`` allows, or when the kept connection turned out closed before `second`'s
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
        let startedAt = NIODeadline.now()
        let fallback = eventLoop.scheduleTask(in: .nanoseconds(Int64(reuseWait.current * 1e9))) {
            startOwnConnection()
        }
        let firstResult = fetch(first, keepAlive: true, on: eventLoop).map { result -> FetchResult in
            fallback.cancel()
            if result.failure == nil { self.reuseWait.record(Self.seconds(.now() - startedAt)) }
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
        paced(on: eventLoop) {
            let promise = eventLoop.makePromise(of: FetchResult.self)
            let route = ConnectionRoute(to: target, configuration: self.configuration)
            let state = FetchState(
                target: target, attempt: 1, promise: promise, maximumBodySize: self.configuration.maximumBodySize,
                userAgent: self.configuration.userAgent, timeout: self.configuration.timeout, address: route.address,
                reusing: connection)
            state.route = route
            state.startTimer(on: eventLoop)
            connection.handler.value.send(state)
            return promise.futureResult
        }.flatMap { result in
            if case .connection = result.failure, result.response == nil {
                return self.fetch(target, on: eventLoop)
            }
            return eventLoop.makeSucceededFuture(result)
        }
    }
}
