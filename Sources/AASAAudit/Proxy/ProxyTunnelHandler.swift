import Foundation
import NIOCore
import NIOHTTP1

/// Opens a CONNECT tunnel through an HTTP proxy before anything else speaks: first in the
/// pipeline, it holds back `channelActive` from the handlers after it (TLS, HTTP), sends
/// `CONNECT host:port`, reads the proxy's answer, and only on a 2xx lets the channel become
/// active for them, so that the TLS handshake, and the chain verified, are the origin's.
/// After that it passes everything through unchanged. `opened` (if given) succeeds then, or
/// fails with the ``ProxyTunnelError``: for a caller that adds TLS once the tunnel is open.
///
/// The exchange is NIOHTTP1's: when added, the handler puts an `HTTPRequestEncoder` and an
/// `HTTPResponseDecoder` (its header list capped at ``maximumHeaderSize``) before itself, and a
/// ``ProxyAnswerSniffer`` before them, which keeps the first line of the answer as it came, for
/// the message. What each event means is ``ProxyTunnelStateMachine``'s; this handler executes
/// its actions, and removes the three helpers once the tunnel is open (bytes after the answer
/// go on to the handlers after it).
///
/// A proxy that refuses, closes or sends something that is not HTTP fails the fetch with a
/// ``ProxyTunnelError``, whose text names the proxy and quotes its status line (the proxy's
/// text is not trusted: cut to 160 characters here, escaped by the text output).
final class ProxyTunnelHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = HTTPClientRequestPart

    /// What to ask the proxy for.
    struct Request {
        let proxy: ProxyURL
        let target: FetchTarget
        let userAgent: String

        /// `host:port`, with an IPv6 address in brackets.
        var authority: String {
            let host = target.host.contains(":") ? "[\(target.host)]" : target.host
            return "\(host):\(target.port)"
        }

        /// The CONNECT request's head.
        var head: HTTPRequestHead {
            var headers = HTTPHeaders([("Host", authority), ("User-Agent", userAgent)])
            if let authorization = proxy.authorization {
                headers.add(name: "Proxy-Authorization", value: authorization)
            }
            headers.add(name: "Proxy-Connection", value: "Keep-Alive")
            return HTTPRequestHead(version: .http1_1, method: .CONNECT, uri: authority, headers: headers)
        }
    }

    /// The most the proxy's answer header fields may hold.
    static let maximumHeaderSize = 16_384

    private let request: Request
    private var machine = ProxyTunnelStateMachine()
    private var opened: EventLoopPromise<Void>?
    private let sniffer = ProxyAnswerSniffer()
    private let encoder = HTTPRequestEncoder()
    private let decoder: ByteToMessageHandler<HTTPResponseDecoder>

    init(_ request: Request, opened: EventLoopPromise<Void>? = nil) {
        self.request = request
        self.opened = opened
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderListSize = Self.maximumHeaderSize
        decoder = ByteToMessageHandler(
            HTTPResponseDecoder(
                leftOverBytesStrategy: .forwardBytes, informationalResponseStrategy: .drop, limitConfiguration: limits))
    }

    /// Completes `opened` once.
    private func settle(_ result: Result<Void, any Error>) {
        let promise = opened
        opened = nil
        promise?.completeWith(result)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        do {
            try context.pipeline.syncOperations.addHandlers([sniffer, encoder, decoder], position: .before(self))
        } catch {
            execute(machine.error(described: FetchFailure.describe(error)), context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        settle(.failure(ChannelError.ioOnClosedChannel))
    }

    func channelActive(context: ChannelHandlerContext) {
        execute(machine.channelActive(), context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard machine.state != .established else {
            // Bytes after the answer (forwarded by the decoder as it goes) and the tunnel's own.
            context.fireChannelRead(data)
            return
        }
        switch unwrapInboundIn(data) {
        case .head(let head):
            execute(machine.head(status: Int(head.status.code), statusLine: sniffer.firstLine), context: context)
        case .body: break
        case .end: execute(machine.end(), context: context)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Only the tunnel's own bytes (TLS) come here, once it is open.
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        let action = machine.closed(received: sniffer.received > 0)
        if case .forward = action {
            // The tunnel's connection closed: the handlers after it (TLS, HTTP) must know.
            context.fireChannelInactive()
        } else {
            execute(action, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let action: ProxyTunnelStateMachine.Action
        switch error {
        case is ProxyTunnelError: action = .forward
        case HTTPParserError.headerOverflow: action = machine.headerTooLarge()
        case HTTPParserError.invalidEOFState: action = machine.closed(received: true)
        case is HTTPParserError: action = machine.notHTTP()
        default: action = machine.error(described: FetchFailure.describe(error))
        }
        if case .forward = action {
            context.fireErrorCaught(error)
        } else {
            execute(action, context: context)
        }
    }

    private func execute(_ action: ProxyTunnelStateMachine.Action, context: ChannelHandlerContext) {
        switch action {
        case .sendConnect:
            context.write(wrapOutboundOut(.head(request.head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .establish:
            // The helpers leave first (the decoder on the loop's next turn): the tunnel's bytes,
            // the TLS handshake's among them, must not meet the HTTP encoder or decoder.
            let pipeline = context.pipeline.syncOperations
            let removed = [sniffer, encoder, decoder].map { (helper: any RemovableChannelHandler) in
                let promise = context.eventLoop.makePromise(of: Void.self)
                pipeline.removeHandler(helper, promise: promise)
                return promise.futureResult
            }
            EventLoopFuture.andAllSucceed(removed, on: context.eventLoop).assumeIsolated().whenComplete { result in
                switch result {
                case .success:
                    context.fireChannelActive()
                    self.settle(.success(()))
                case .failure(let error):
                    self.execute(.fail(.connection(FetchFailure.describe(error))), context: context)
                }
            }
        case .fail(let failure):
            let message = self.message(failure)
            let error = ProxyTunnelError(failure: failure.isUpstream ? .connection(message) : .proxy(message))
            settle(.failure(error))
            context.fireErrorCaught(error)
            context.close(promise: nil)
        case .forward, .none:
            break
        }
    }

    /// The words of a failure: the proxy named, its status line quoted.
    private func message(_ failure: ProxyTunnelStateMachine.Failure) -> String {
        let proxy = request.proxy
        let authority = request.authority
        switch failure {
        case .notHTTP:
            return
                "the proxy \(proxy) did not answer the CONNECT for \(authority) in HTTP: \(Self.quote(sniffer.firstLine))"
        case .headerTooLarge:
            return "the proxy \(proxy) sent an answer header over \(Self.maximumHeaderSize) bytes"
        case .closed(let midAnswer):
            return midAnswer
                ? "the proxy \(proxy) closed the connection in the middle of its answer to the CONNECT for \(authority)"
                : "the proxy \(proxy) closed the connection without answering the CONNECT for \(authority)"
        case .connection(let described):
            return "the connection to the proxy \(proxy) failed: \(described)"
        case .refused(let status, let statusLine):
            let quoted = Self.quote(statusLine)
            switch status {
            case 401, 407:
                let why =
                    proxy.authorization == nil
                    ? "it asks for credentials: give them as http://user:password@host:port"
                    : "it refused the credentials given"
                return "the proxy \(proxy) refused the tunnel to \(authority) (\(quoted)): \(why)"
            case 500...:
                return "the proxy \(proxy) could not open a tunnel to \(authority): \(quoted)"
            default:
                return "the proxy \(proxy) refused the tunnel to \(authority): \(quoted)"
            }
        }
    }

    /// The proxy's line in quotes, cut to 160 characters. Its controls stay as they are, as
    /// for every text a server sends: the text output escapes them (TerminalText), and JSON
    /// keeps the exact string.
    static func quote(_ line: String) -> String {
        let cut = line.count > 160 ? String(line.prefix(160)) + "…" : line
        return "'\(cut)'"
    }
}

/// A proxy's failure to tunnel, as the fetch reports it.
struct ProxyTunnelError: Error {
    let failure: FetchFailure
}
