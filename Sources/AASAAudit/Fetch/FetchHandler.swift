import AASA
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOTLS

/// Sends the GET once TLS is up, and collects the answer up to the size cap. The domain's next
/// request goes on the same connection: sent right behind the first when the first offers it
/// (``FollowingRequest``), or by ``send(_:)`` after a complete answer on a connection the
/// server keeps open.
final class FetchHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    /// The request whose answer comes next.
    private var state: FetchState
    /// The request sent behind ``state``, whose answer follows ``state``'s.
    private var pipelined: FetchState?
    private var context: ChannelHandlerContext?

    init(state: FetchState) {
        self.state = state
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let tlsEvent = event as? TLSUserEvent, case .handshakeCompleted = tlsEvent, !state.isFinished {
            state.handshakeAt = .now()
            if let handler = try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self) {
                state.tlsVersion = handler.tlsVersion.map(Self.name)
            }
            write(state, context: context)
            if let following = state.following,
                let next = following.offer.value(
                    KeptConnection(
                        channel: context.channel, handler: NIOLoopBound(self, eventLoop: context.eventLoop),
                        tls: state.tls, tlsVersion: state.tlsVersion, address: state.remoteAddress), state)
            {
                // Sent behind the first: its answer follows the first's on this connection, if
                // the first's leaves the connection open (else it fails and goes on its own).
                next.sharesConnection = true
                state.requestBehind = true
                pipelined = next
                write(next, context: context)
            }
            context.flush()
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Sends `next`'s request on this connection, which the request before left open.
    func send(_ next: FetchState) {
        state = next
        guard let context, context.channel.isActive else {
            next.finish(failure: .connection("the server closed the kept-alive connection before the next request"))
            return
        }
        write(next, context: context)
        context.flush()
    }

    private func write(_ state: FetchState, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: state.target.authority)
        headers.add(name: "User-Agent", value: state.userAgent)
        headers.add(name: "Accept", value: "*/*")
        // HTTP/1.1 keeps the connection open unless told otherwise.
        if !state.keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: state.target.path, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !state.isFinished else { return }
        defer { releasePipelinedIfDone() }
        switch unwrapInboundIn(data) {
        case .head(let head):
            state.headAt = .now()
            state.head = head
            if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > state.maximumBodySize
            {
                // Announced over the cap: nothing worth reading.
                state.truncated = true
                state.finish()
            }
        case .body(var buffer):
            let room = state.maximumBodySize - state.body.count
            if buffer.readableBytes > room {
                if room > 0, let bytes = buffer.readBytes(length: room) { state.body.append(contentsOf: bytes) }
                state.truncated = true
                state.finish()
            } else if let bytes = buffer.readBytes(length: buffer.readableBytes) {
                state.body.append(contentsOf: bytes)
            }
        case .end:
            let reusable = state.keepAlive && state.head.map(Self.isReusable) == true
            if reusable, let next = pipelined, !next.isFinished {
                // The answer to the request sent behind comes next, on this connection.
                pipelined = nil
                state.sharesConnection = true
                state.finish()
                next.sharesConnection = false
                state = next
                // Its timeout starts now, its answer's turn: the wait behind the first (bounded
                // by the first's timeout) is not the server's delay on this path.
                next.startTimer(on: context.eventLoop, from: .now())
            } else if reusable, pipelined == nil {
                state.kept = KeptConnection(
                    channel: context.channel, handler: NIOLoopBound(self, eventLoop: context.eventLoop),
                    tls: state.tls, tlsVersion: state.tlsVersion, address: state.remoteAddress)
                state.finish()
            } else {
                // Closes the connection: a request sent behind fails as closed (channelInactive).
                state.finish()
            }
        }
    }

    /// Whether a connection may carry another request after this answer, read to its end: an
    /// HTTP/1.1 answer without `Connection: close`, framed by `Content-Length` or chunked (an
    /// answer that ends when the connection closes leaves nothing to reuse).
    static func isReusable(_ head: HTTPResponseHead) -> Bool {
        guard head.version == .http1_1, head.isKeepAlive else { return false }
        let chunked = head.headers[canonicalForm: "transfer-encoding"].last?.lowercased() == "chunked"
        return chunked || head.headers.first(name: "content-length").flatMap(Int.init) != nil
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !state.isFinished else { return }
        defer { releasePipelinedIfDone() }
        if let ssl = error as? NIOSSLError, case .uncleanShutdown = ssl, state.head != nil {
            // Closed without close_notify after the answer started: the HTTP decoder ends a
            // close-delimited body on channelInactive, which decides.
            return
        }
        state.finish(failure: classify(error))
    }

    /// Once the answer before it has ended without handing the connection on (cut at the cap, not
    /// reusable, failed), the request sent behind gets no answer here: it fails as a connection
    /// closed before its answer, and the caller sends it again on a connection of its own, at
    /// once rather than when the closing connection is gone.
    private func releasePipelinedIfDone() {
        guard state.isFinished, let next = pipelined else { return }
        pipelined = nil
        if !next.isFinished {
            next.finish(failure: .connection("the connection closed before the answer to the request sent behind"))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !state.isFinished {
            if state.head != nil {
                state.finish(failure: .interrupted("the connection closed after \(state.body.count) bytes of the body"))
            } else if !state.isSecured, let code = state.tls?.descriptorShortage {
                state.finish(failure: .descriptorLimit(errno: code, waited: 0))
            } else if !state.isSecured, let tls = state.tls, !tls.report.verified {
                state.finish(failure: .tls(tls.report.reason ?? tls.report.verdict))
            } else if !state.isSecured {
                state.finish(failure: .connection("the server closed the connection during the TLS handshake"))
            } else {
                state.finish(failure: .connection("the server closed the connection without answering"))
            }
        }
        releasePipelinedIfDone()
        context.fireChannelInactive()
    }

    private func classify(_ error: any Error) -> FetchFailure {
        if let tunnel = error as? ProxyTunnelError { return tunnel.failure }
        if let code = DescriptorShortage.code(in: error) { return .descriptorLimit(errno: code, waited: 0) }
        if !state.isSecured {
            if let code = state.tls?.descriptorShortage { return .descriptorLimit(errno: code, waited: 0) }
            if let tls = state.tls, !tls.report.verified {
                return .tls(tls.report.reason ?? tls.report.verdict)
            }
            if let ssl = error as? NIOSSLError {
                return .tls("the TLS handshake failed: \(ssl)")
            }
            if error is BoringSSLError {
                return .tls("the TLS handshake failed: \(error)")
            }
            return .connection(
                "the connection failed before the TLS handshake finished: \(FetchFailure.describe(error))")
        }
        if state.head == nil {
            if error is HTTPParserError {
                return .interrupted("the answer is not HTTP/1.1: \(error)")
            }
            return .connection("the connection failed before an answer: \(FetchFailure.describe(error))")
        }
        return .interrupted(
            "the connection failed after \(state.body.count) bytes of the body: \(FetchFailure.describe(error))")
    }

    private static func name(_ version: TLSVersion) -> String {
        switch version {
        case .tlsv1: return "TLSv1.0"
        case .tlsv11: return "TLSv1.1"
        case .tlsv12: return "TLSv1.2"
        case .tlsv13: return "TLSv1.3"
        }
    }
}
