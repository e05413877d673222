import Foundation
import NIOCore

/// Opens a CONNECT tunnel through an HTTP proxy before anything else speaks: first in the
/// pipeline, it holds back `channelActive` from the handlers after it (TLS, HTTP), sends
/// `CONNECT host:port`, reads the proxy's answer, and only on a 2xx lets the channel become
/// active for them, so that the TLS handshake, and the chain verified, are the origin's.
/// After that it passes everything through unchanged. `opened` (if given) succeeds then, or
/// fails with the ``ProxyTunnelError``: for a caller that adds TLS once the tunnel is open.
///
/// A proxy that refuses, closes or sends something that is not HTTP fails the fetch with a
/// ``ProxyTunnelError``, whose text names the proxy and quotes its status line (the proxy's
/// text is not trusted: cut to 160 characters here, escaped by the text output).
final class ProxyTunnelHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

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

        var bytes: String {
            var text = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\nUser-Agent: \(userAgent)\r\n"
            if let authorization = proxy.authorization { text += "Proxy-Authorization: \(authorization)\r\n" }
            return text + "Proxy-Connection: Keep-Alive\r\n\r\n"
        }
    }

    /// The most the proxy's answer header may hold.
    static let maximumHeaderSize = 16_384

    private let request: Request
    private var header: ByteBuffer?
    private var established = false
    private var failed = false
    private var opened: EventLoopPromise<Void>?

    init(_ request: Request, opened: EventLoopPromise<Void>? = nil) {
        self.request = request
        self.opened = opened
    }

    /// Completes `opened` once.
    private func settle(_ result: Result<Void, any Error>) {
        let promise = opened
        opened = nil
        promise?.completeWith(result)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        settle(.failure(ChannelError.ioOnClosedChannel))
    }

    func channelActive(context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: 256)
        buffer.writeString(request.bytes)
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if established {
            context.fireChannelRead(data)
            return
        }
        guard !failed else { return }
        var incoming = unwrapInboundIn(data)
        if header == nil {
            header = incoming
        } else {
            header?.writeBuffer(&incoming)
        }
        guard var buffer = header else { return }
        let view = buffer.readableBytesView
        let start: [UInt8] = Array(view.prefix(5))
        let expected: [UInt8] = Array("HTTP/".utf8.prefix(start.count))
        if start != expected {
            // Not HTTP from its first bytes (a TLS port, an SSH banner): no need to wait for more.
            let line = String(decoding: view.prefix(160).prefix(while: { $0 != 0x0D && $0 != 0x0A }), as: UTF8.self)
            fail(
                context,
                "the proxy \(request.proxy) did not answer the CONNECT for \(request.authority) in HTTP: \(Self.quote(line))"
            )
            return
        }
        guard let end = Self.headerEnd(in: view) else {
            if buffer.readableBytes > Self.maximumHeaderSize {
                fail(context, "the proxy \(request.proxy) sent an answer header over \(Self.maximumHeaderSize) bytes")
            }
            return
        }
        let headerLength = end - view.startIndex
        let text = buffer.readString(length: headerLength) ?? ""
        // By scalars: "\r\n" is one Character.
        let statusLine = String(
            String.UnicodeScalarView(text.unicodeScalars.prefix(while: { $0 != "\r" && $0 != "\n" })))
        switch Self.status(of: statusLine) {
        case .some(200..<300):
            established = true
            header = nil
            context.fireChannelActive()
            if buffer.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(buffer)) }
            settle(.success(()))
        case let code:
            fail(context, failure(code: code, statusLine: statusLine), as: code.map { $0 >= 500 } == true)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if established {
            context.fireChannelInactive()
        } else if !failed {
            let received = header?.readableBytes ?? 0
            fail(
                context,
                received == 0
                    ? "the proxy \(request.proxy) closed the connection without answering the CONNECT for \(request.authority)"
                    : "the proxy \(request.proxy) closed the connection in the middle of its answer to the CONNECT for \(request.authority)"
            )
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if established || failed || error is ProxyTunnelError {
            context.fireErrorCaught(error)
            return
        }
        fail(context, "the connection to the proxy \(request.proxy) failed: \(FetchFailure.describe(error))")
    }

    /// What a non-2xx answer means.
    private func failure(code: Int?, statusLine: String) -> String {
        let quoted = Self.quote(statusLine)
        let proxy = request.proxy
        switch code {
        case nil:
            return "the proxy \(proxy) did not answer the CONNECT for \(request.authority) in HTTP: \(quoted)"
        case 401, 407:
            let why =
                proxy.authorization == nil
                ? "it asks for credentials: give them as http://user:password@host:port"
                : "it refused the credentials given"
            return "the proxy \(proxy) refused the tunnel to \(request.authority) (\(quoted)): \(why)"
        case .some(500...):
            return "the proxy \(proxy) could not open a tunnel to \(request.authority): \(quoted)"
        default:
            return "the proxy \(proxy) refused the tunnel to \(request.authority): \(quoted)"
        }
    }

    /// Fails the fetch; `upstream` when the proxy says it could not reach the origin (5xx),
    /// which is reported as the domain's connection failure, not the proxy's.
    private func fail(_ context: ChannelHandlerContext, _ message: String, as upstream: Bool = false) {
        failed = true
        header = nil
        let error = ProxyTunnelError(failure: upstream ? .connection(message) : .proxy(message))
        settle(.failure(error))
        context.fireErrorCaught(error)
        context.close(promise: nil)
    }

    /// The index just past the blank line that ends the header, if it has arrived.
    static func headerEnd(in bytes: ByteBufferView) -> Int? {
        var index = bytes.startIndex
        var newlines = 0
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "\n"):
                newlines += 1
                if newlines == 2 { return index + 1 }
            case UInt8(ascii: "\r"): break
            default: newlines = 0
            }
            index += 1
        }
        return nil
    }

    /// The status code of `HTTP/1.x NNN reason`, or nil if the line is not one.
    static func status(of line: String) -> Int? {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]),
            (100...599).contains(code)
        else {
            return nil
        }
        return code
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
