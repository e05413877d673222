import NIOCore

/// Before the HTTP decoder of a CONNECT tunnel (``ProxyTunnelHandler``): keeps the first line of
/// the proxy's answer as it came (at most ``maximumLineBytes``), which the decoder does not give
/// (a status line is rebuilt from its parts, and an answer that is not HTTP is only an error),
/// and counts the bytes received. Passes every byte on unchanged.
final class ProxyAnswerSniffer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Enough for a message's quote (160 characters, ``ProxyTunnelHandler/quote(_:)``) to see
    /// that the line goes on.
    static let maximumLineBytes = 640

    private var line: [UInt8] = []
    private var lineEnded = false
    /// Bytes of the answer received so far.
    private(set) var received = 0

    /// The first line, up to its CR or LF (or what has come of it), decoded as UTF-8.
    var firstLine: String { String(decoding: line, as: UTF8.self) }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        received += buffer.readableBytes
        if !lineEnded {
            for byte in buffer.readableBytesView {
                if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") || line.count == Self.maximumLineBytes {
                    lineEnded = true
                    break
                }
                line.append(byte)
            }
        }
        context.fireChannelRead(data)
    }
}
