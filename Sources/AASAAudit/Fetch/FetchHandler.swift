import AASA
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOTLS

/// Sends the GET once TLS is up, and collects the answer up to the size cap. The domain's next
/// request goes on the same connection: sent right behind the first when the first offers it
/// (``FollowingRequest``), or by ``send(_:)`` after a complete answer on a connection the
/// server keeps open. What each event does is decided by ``FetchConnectionStateMachine``; this
/// handler keeps the requests' data (``FetchState``) and executes the machine's actions.
final class FetchHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    /// The request whose answer comes next.
    private var state: FetchState
    /// The request sent behind ``state``, whose answer follows ``state``'s.
    private var pipelined: FetchState?
    private var machine: FetchConnectionStateMachine
    private var context: ChannelHandlerContext?

    init(state: FetchState) {
        self.state = state
        machine = FetchConnectionStateMachine(maximumBodySize: state.maximumBodySize)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let tlsEvent = event as? TLSUserEvent, case .handshakeCompleted = tlsEvent {
            noteTimeout(context: context)
            if !state.isFinished {
                state.handshakeAt = .now()
                if let handler = try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self) {
                    state.tlsVersion = handler.tlsVersion.map(Self.name)
                }
                // The request behind, when the path pair sends it here (it is written after the first).
                pipelined = state.following?.offer.value(
                    KeptConnection(
                        channel: context.channel, handler: NIOLoopBound(self, eventLoop: context.eventLoop),
                        tls: state.tls, tlsVersion: state.tlsVersion, address: state.remoteAddress), state)
                execute(machine.handshakeCompleted(sendingBehind: pipelined != nil), context: context, data: nil)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Sends `next`'s request on this connection, which the request before left open.
    func send(_ next: FetchState) {
        state = next
        execute(machine.send(active: context?.channel.isActive == true), context: context, data: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        noteTimeout(context: context)
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard !state.isFinished else { return }
            state.headAt = .now()
            state.head = head
            execute(
                machine.head(
                    contentLength: head.headers.first(name: "content-length").flatMap(Int.init),
                    reusable: state.keepAlive && Self.isReusable(head)), context: context, data: nil)
        case .body(let buffer):
            execute(machine.body(count: buffer.readableBytes), context: context, data: buffer)
        case .end:
            execute(
                machine.end(behindWaiting: pipelined.map { !$0.isFinished } ?? false), context: context, data: nil)
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
        noteTimeout(context: context)
        var kind = FetchConnectionStateMachine.ErrorKind.other
        if let ssl = error as? NIOSSLError, case .uncleanShutdown = ssl { kind = .uncleanShutdown }
        execute(machine.error(kind), context: context, data: nil, error: error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        noteTimeout(context: context)
        execute(machine.closed(), context: context, data: nil)
        context.fireChannelInactive()
    }

    /// Tells the machine when the current request's timer has finished it (``FetchState``
    /// closes the connection then): the request behind gets no answer here.
    private func noteTimeout(context: ChannelHandlerContext) {
        if state.isFinished { execute(machine.currentTimedOut(), context: context, data: nil) }
    }

    /// Does what the machine decided, in order. `data`: the body part of the event; `error`:
    /// the error of the event, for the wording of a failure (nil when the connection closed).
    private func execute(
        _ actions: [FetchConnectionStateMachine.Action], context: ChannelHandlerContext?, data: ByteBuffer?,
        error: (any Error)? = nil
    ) {
        for action in actions {
            switch action {
            case .sendCurrent:
                if let context { write(state, context: context) }
            case .sendBehind:
                if let context, let next = pipelined {
                    // Its answer follows the first's on this connection, if the first's leaves
                    // the connection open (else it fails and goes on its own).
                    next.sharesConnection = true
                    state.requestBehind = true
                    write(next, context: context)
                }
            case .flush:
                context?.flush()
            case .keepBody(let count):
                if var buffer = data, let bytes = buffer.readBytes(length: count) {
                    state.body.append(contentsOf: bytes)
                }
            case .finishAnswered(let truncated, let leaveOpen):
                if truncated { state.truncated = true }
                state.sharesConnection = leaveOpen
                state.finish()
            case .finishKeepingConnection:
                if let context {
                    state.kept = KeptConnection(
                        channel: context.channel, handler: NIOLoopBound(self, eventLoop: context.eventLoop),
                        tls: state.tls, tlsVersion: state.tlsVersion, address: state.remoteAddress)
                }
                state.finish()
            case .fail(let phase):
                state.finish(failure: failure(in: phase, error: error))
            case .promoteBehind:
                guard let next = pipelined else { break }
                pipelined = nil
                next.sharesConnection = false
                state = next
                // Its timeout starts now, its answer's turn: the wait behind the first (bounded
                // by the first's timeout) is not the server's delay on this path.
                if let context { next.startTimer(on: context.eventLoop, from: .now()) }
            case .releaseBehind:
                // Sent again by the caller on a connection of its own, at once rather than when
                // the closing connection is gone.
                if let next = pipelined, !next.isFinished {
                    next.finish(
                        failure: .connection("the connection closed before the answer to the request sent behind"))
                }
                pipelined = nil
            }
        }
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

    /// The current request's failure in `phase`: from the error caught (nil when the
    /// connection closed) and the handshake's certificate check.
    private func failure(in phase: FetchConnectionStateMachine.Phase, error: (any Error)?) -> FetchFailure {
        switch phase {
        case .notSent:
            return .connection("the server closed the kept-alive connection before the next request")
        case .securing:
            if let error {
                if let tunnel = error as? ProxyTunnelError { return tunnel.failure }
                if let code = DescriptorShortage.code(in: error) { return .descriptorLimit(errno: code, waited: 0) }
            }
            if let code = state.tls?.descriptorShortage { return .descriptorLimit(errno: code, waited: 0) }
            if let tls = state.tls, !tls.report.verified { return .tls(tls.report.reason ?? tls.report.verdict) }
            guard let error else {
                return .connection("the server closed the connection during the TLS handshake")
            }
            if error is NIOSSLError || error is BoringSSLError { return .tls("the TLS handshake failed: \(error)") }
            return .connection(
                "the connection failed before the TLS handshake finished: \(FetchFailure.describe(error))")
        case .awaitingHead:
            guard let error else { return .connection("the server closed the connection without answering") }
            if let tunnel = error as? ProxyTunnelError { return tunnel.failure }
            if let code = DescriptorShortage.code(in: error) { return .descriptorLimit(errno: code, waited: 0) }
            if error is HTTPParserError { return .interrupted("the answer is not HTTP/1.1: \(error)") }
            return .connection("the connection failed before an answer: \(FetchFailure.describe(error))")
        case .readingBody(let received):
            guard let error else { return .interrupted("the connection closed after \(received) bytes of the body") }
            if let tunnel = error as? ProxyTunnelError { return tunnel.failure }
            if let code = DescriptorShortage.code(in: error) { return .descriptorLimit(errno: code, waited: 0) }
            return .interrupted(
                "the connection failed after \(received) bytes of the body: \(FetchFailure.describe(error))")
        }
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
