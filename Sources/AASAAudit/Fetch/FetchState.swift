import AASA
import Foundation
import NIOCore
import NIOHTTP1

/// One request's state (one attempt at one URL), on its event loop only: what came back so
/// far, the timings, and how it ended.
final class FetchState {
    let target: FetchTarget
    let attempt: Int
    /// Completed once, by ``finish(failure:)``, then let go: its result may hold the kept
    /// connection, whose handler refers back to this state.
    private var promise: EventLoopPromise<FetchResult>?
    let maximumBodySize: Int
    let userAgent: String
    let timeout: TimeInterval
    /// Direct or through a proxy (then the address is the proxy's and is not reported, and a
    /// timeout before the tunnel is open names the proxy).
    let route: ConnectionRoute
    /// The `--resolve` address connected to, if any.
    var address: String? { route.address }
    /// The domain's next request, offered this connection once TLS is up: the connection is
    /// asked to stay open for it (no `Connection: close`).
    let following: FollowingRequest?
    /// Sent on a connection a request before it opened (and handshook): no connect, no TLS.
    let reusedConnection: Bool
    let started = NIODeadline.now()

    var remoteAddress: String?
    var channel: (any Channel)?
    var tls: TLSObservation?
    var tlsVersion: String?
    var connectedAt: NIODeadline?
    var handshakeAt: NIODeadline?
    var headAt: NIODeadline?
    var head: HTTPResponseHead?
    var body = Data()
    var truncated = false
    var isFinished = false
    var timer: Scheduled<Void>?
    /// The connection, left open for the next request: set just before ``finish(failure:)``
    /// when the answer was complete and the server lets the connection carry another.
    var kept: KeptConnection?
    /// The connection belongs to another request for now: this one was sent behind a request
    /// still being answered, or handed the connection on to the request sent behind it. Then
    /// ``finish(failure:)`` leaves the connection open.
    var sharesConnection = false
    /// Another request was sent behind this one on its connection (pipelining).
    var requestBehind = false

    init(
        target: FetchTarget, attempt: Int, promise: EventLoopPromise<FetchResult>, maximumBodySize: Int,
        userAgent: String, timeout: TimeInterval, route: ConnectionRoute, following: FollowingRequest? = nil,
        reusing connection: KeptConnection? = nil
    ) {
        self.target = target
        self.attempt = attempt
        self.promise = promise
        self.maximumBodySize = maximumBodySize
        self.userAgent = userAgent
        self.timeout = timeout
        self.route = route
        self.following = following
        reusedConnection = connection != nil
        remoteAddress = connection?.address ?? route.address
        if let connection {
            channel = connection.channel
            tls = connection.tls
            tlsVersion = connection.tlsVersion
        }
    }

    /// Asks the server to keep the connection open for another request of the same domain.
    var keepAlive: Bool { following != nil }

    /// Whether TLS is up: the handshake finished, or the connection was reused after one.
    var isSecured: Bool { handshakeAt != nil || reusedConnection }

    /// Gives up ``timeout`` after `from` (default: the start) unless finished by then.
    func startTimer(on eventLoop: any EventLoop, from: NIODeadline? = nil) {
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        timer = eventLoop.scheduleTask(deadline: (from ?? started) + .seconds(clamping: timeout)) {
            bound.value.timedOut()
        }
    }

    private func milliseconds(_ deadline: NIODeadline?) -> Double? {
        guard let deadline else { return nil }
        return (Double((deadline - started).nanoseconds) / 1e5).rounded() / 10
    }

    private func timedOut() {
        guard !isFinished else { return }
        let seconds = timeout.secondsText
        let phase: String
        if connectedAt == nil, !reusedConnection,
            let failure = route.timeoutBeforeTunnel(seconds: seconds, connected: channel != nil)
        {
            finish(failure: failure)
            return
        } else if connectedAt == nil && !reusedConnection {
            phase = "connecting"
        } else if !isSecured {
            phase = "the TLS handshake"
        } else if head == nil {
            phase = reusedConnection ? "waiting for the response on the reused connection" : "waiting for the response"
        } else {
            phase = "reading the body (\(body.count) bytes so far)"
        }
        finish(failure: .timeout("no complete answer within \(seconds) s: gave up while \(phase)"))
    }

    /// Completes the attempt once; later calls do nothing. Closes the connection unless it
    /// is ``kept`` for the next request or ``sharesConnection``.
    func finish(failure: FetchFailure? = nil) {
        guard !isFinished else { return }
        isFinished = true
        timer?.cancel()
        if kept == nil, !sharesConnection { channel?.close(promise: nil) }
        var response: FetchedResponse?
        if let head {
            response = FetchedResponse(
                status: Int(head.status.code), headers: head.headers, body: body, truncated: truncated,
                statusLine:
                    "HTTP/\(head.version.major).\(head.version.minor) \(head.status.code) \(head.status.reasonPhrase)")
        }
        if var observed = tls {
            observed.report.version = tlsVersion
            tls = observed
        }
        // A reused connection was neither connected nor handshook for this request.
        let timings = PathReport.Timings(
            connectMs: milliseconds(connectedAt), tlsMs: milliseconds(handshakeAt), firstByteMs: milliseconds(headAt),
            totalMs: milliseconds(.now()) ?? 0)
        let handedOver = kept
        // The kept connection's handler refers to this state, and the result (held by the
        // promise's future) to the kept connection: let the promise, the connection and the
        // timer go, or a kept connection closed unused would keep this state, its channel and
        // the event loop alive for ever (LeakSanitizer saw it).
        kept = nil
        timer = nil
        let promise = self.promise
        self.promise = nil
        promise?.succeed(
            FetchResult(
                target: target, address: route.proxy == nil ? remoteAddress : nil, attempts: attempt, timings: timings,
                tls: tls,
                response: response, failure: failure, reusedConnection: reusedConnection, kept: handedOver,
                requestBehind: requestBehind))
    }
}

/// A connection left open after a complete answer, for the domain's next request.
struct KeptConnection: Sendable {
    let channel: any Channel
    /// The connection's request handler, which sends the next request.
    let handler: NIOLoopBound<FetchHandler>
    /// The TLS certificate check and version of the connection's handshake.
    let tls: TLSObservation?
    let tlsVersion: String?
    let address: String?
}
