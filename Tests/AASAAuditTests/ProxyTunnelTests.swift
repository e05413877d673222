import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import AASAAudit

/// The CONNECT tunnel without sockets: ``ProxyTunnelStateMachine``'s transitions, and
/// ``ProxyTunnelHandler`` on an `EmbeddedChannel` with the proxy's answer scripted, byte for byte
/// (AuditProxyTests runs the same through tinyproxy and scripted proxies on loopback).
struct ProxyTunnelTests {
    /// Counts what reaches the handlers after the tunnel (TLS, in the fetch).
    final class After: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        var activations = 0
        var bytes: [UInt8] = []
        var errors: [String] = []
        var deactivations = 0
        func channelActive(context: ChannelHandlerContext) { activations += 1 }
        func channelInactive(context: ChannelHandlerContext) { deactivations += 1 }
        func errorCaught(context: ChannelHandlerContext, error: any Error) { errors.append("\(error)") }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            bytes += Array(unwrapInboundIn(data).readableBytesView)
        }
    }

    static func request(authorization: Bool = false) throws -> ProxyTunnelHandler.Request {
        ProxyTunnelHandler.Request(
            proxy: try ProxyURL.parse(authorization ? "http://u:p@127.0.0.1:3128" : "http://127.0.0.1:3128"),
            target: FetchTarget(host: "::1", port: 8443, path: "/x"), userAgent: "aasa-audit")
    }

    /// A channel with the tunnel and ``After``, connected; the request it wrote; the tunnel's outcome.
    static func tunnel(authorization: Bool = false) throws -> (EmbeddedChannel, After, String, EventLoopFuture<Void>) {
        let channel = EmbeddedChannel()
        let opened = channel.eventLoop.makePromise(of: Void.self)
        let after = After()
        try channel.pipeline.syncOperations.addHandler(
            ProxyTunnelHandler(try request(authorization: authorization), opened: opened))
        try channel.pipeline.syncOperations.addHandler(after)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 3128)).wait()
        var written = ""
        while let part = try channel.readOutbound(as: ByteBuffer.self) { written += String(buffer: part) }
        return (channel, after, written, opened.futureResult)
    }

    /// What a future settled with, read on the embedded loop's thread (the test's).
    final class Settled: @unchecked Sendable {
        var failure: (message: String, local: Bool)?
        var opened = false
    }

    static func settled(_ future: EventLoopFuture<Void>) -> Settled {
        let settled = Settled()
        future.whenComplete { result in
            switch result {
            case .success: settled.opened = true
            case .failure(let error as ProxyTunnelError):
                switch error.failure {
                case .proxy(let message): settled.failure = (message, true)
                case .connection(let message): settled.failure = (message, false)
                default: settled.failure = ("\(error.failure)", true)
                }
            case .failure(let error): settled.failure = ("\(error)", true)
            }
        }
        return settled
    }

    /// The tunnel's failure message, or nil when it opened (or has not settled).
    static func failure(_ future: EventLoopFuture<Void>) -> (message: String, local: Bool)? {
        settled(future).failure
    }

    static func opened(_ future: EventLoopFuture<Void>) -> Bool { settled(future).opened }

    @Test("the CONNECT names the origin (an IPv6 address in brackets) and carries the credentials")
    func connectRequest() throws {
        let (_, _, written, _) = try Self.tunnel(authorization: true)
        #expect(
            written
                == "CONNECT [::1]:8443 HTTP/1.1\r\nHost: [::1]:8443\r\nUser-Agent: aasa-audit\r\nProxy-Authorization: Basic dTpw\r\nProxy-Connection: Keep-Alive\r\n\r\n"
        )
        let (_, _, plain, _) = try Self.tunnel()
        #expect(!plain.contains("Proxy-Authorization") && plain.hasPrefix("CONNECT [::1]:8443 HTTP/1.1\r\n"))
    }

    @Test(
        "a 2xx opens the tunnel: the handlers after become active once, then get the tunnel's bytes, and the HTTP helpers are gone"
    )
    func established() throws {
        let (channel, after, _, future) = try Self.tunnel()
        #expect(after.activations == 0, "held back until the proxy answers")
        // The answer in two reads; the origin's bytes come later (TLS: after the client's hello).
        try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 Connection est"))
        #expect(!Self.opened(future) && after.activations == 0)
        try channel.writeInbound(ByteBuffer(string: "ablished\r\nVia: x\r\n\r\n"))
        // Open once the HTTP helpers have left the pipeline (the decoder, on the loop's next turn).
        #expect(!Self.opened(future) && after.activations == 0)
        channel.embeddedEventLoop.run()
        #expect(Self.opened(future))
        #expect(after.activations == 1 && after.bytes.isEmpty)
        try channel.writeInbound(ByteBuffer(bytes: [0x16, 0x03, 0x03]))
        try channel.writeInbound(ByteBuffer(bytes: [0x17, 0x00]))
        #expect(after.bytes == [0x16, 0x03, 0x03, 0x17, 0x00], "the tunnel's bytes pass through")
        try channel.writeOutbound(ByteBuffer(bytes: [0x01, 0x02]))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == ByteBuffer(bytes: [0x01, 0x02]))
        #expect(throws: (any Error).self) { try channel.pipeline.syncOperations.handler(type: HTTPRequestEncoder.self) }
        #expect(throws: (any Error).self) { try channel.pipeline.syncOperations.handler(type: ProxyAnswerSniffer.self) }
        #expect(channel.isActive && after.errors.isEmpty)
        // The tunnel's connection closing reaches the handlers after it, once.
        channel.pipeline.fireChannelInactive()
        #expect(after.deactivations == 1)
    }

    /// The origin cannot speak before the client's TLS hello: bytes in the same read as the
    /// proxy's 2xx are not an answer. The handlers after get an error (a fetch fails on it);
    /// never those bytes as if the origin had sent them.
    @Test("bytes in the same read after the 2xx reach the handlers after as an error, not as the origin's")
    func bytesWithTheAnswer() throws {
        let (channel, after, _, future) = try Self.tunnel()
        _ = try? channel.writeInbound(
            ByteBuffer(bytes: Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8) + [0x16, 0x03, 0x03]))
        channel.embeddedEventLoop.run()
        #expect(Self.opened(future))
        #expect(after.activations == 1 && after.bytes.isEmpty)
        #expect(after.errors.count == 1, "\(after.errors)")
    }

    @Test(
        "each refusal is the proxy's, naming it and quoting its status line; a 5xx is the domain's connection failure")
    func refusals() throws {
        let cases: [(answer: String, authorization: Bool, message: String, local: Bool)] = [
            (
                "HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 3\r\n\r\nno!", false,
                "the proxy http://127.0.0.1:3128 refused the tunnel to [::1]:8443 ('HTTP/1.1 407 Proxy Authentication Required'): it asks for credentials: give them as http://user:password@host:port",
                true
            ),
            (
                "HTTP/1.0 401 Unauthorized\r\n\r\n", true,
                "the proxy http://***@127.0.0.1:3128 refused the tunnel to [::1]:8443 ('HTTP/1.0 401 Unauthorized'): it refused the credentials given",
                true
            ),
            (
                "HTTP/1.1 403 Forbidden\r\n\r\n", false,
                "the proxy http://127.0.0.1:3128 refused the tunnel to [::1]:8443: 'HTTP/1.1 403 Forbidden'", true
            ),
            (
                "HTTP/1.1 503 Unable to connect\r\n\r\n", false,
                "the proxy http://127.0.0.1:3128 could not open a tunnel to [::1]:8443: 'HTTP/1.1 503 Unable to connect'",
                false
            ),
            (
                "SSH-2.0-OpenSSH_9.2p1\r\n", false,
                "the proxy http://127.0.0.1:3128 did not answer the CONNECT for [::1]:8443 in HTTP: 'SSH-2.0-OpenSSH_9.2p1'",
                true
            ),
            (
                "HTTP/1.1 200 OK\r\nBad Header\r\n\r\n", false,
                "the proxy http://127.0.0.1:3128 did not answer the CONNECT for [::1]:8443 in HTTP: 'HTTP/1.1 200 OK'",
                true
            ),
        ]
        #expect(cases.count == 6)
        for (answer, authorization, message, local) in cases {
            let (channel, after, _, future) = try Self.tunnel(authorization: authorization)
            _ = try? channel.writeInbound(ByteBuffer(string: answer))
            let failure = try #require(Self.failure(future), "\(answer)")
            #expect(failure.message == message)
            #expect(failure.local == local, "\(answer)")
            #expect(after.activations == 0 && after.bytes.isEmpty, "\(answer)")
            #expect(!channel.isActive, "closed after \(answer)")
        }
    }

    @Test("the answer's header fields at the limit open the tunnel; one byte more is refused")
    func headerLimit() throws {
        // The limit counts the fields' names and values: "X" and a value of the rest.
        for (size, opens) in [
            (ProxyTunnelHandler.maximumHeaderSize, true), (ProxyTunnelHandler.maximumHeaderSize + 1, false),
        ] {
            let (channel, after, _, future) = try Self.tunnel()
            let value = String(repeating: "v", count: size - 1)
            _ = try? channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nX: \(value)\r\n\r\n"))
            channel.embeddedEventLoop.run()
            if opens {
                #expect(Self.opened(future) && after.activations == 1, "\(size)")
            } else {
                #expect(
                    Self.failure(future)?.message
                        == "the proxy http://127.0.0.1:3128 sent an answer header over 16384 bytes", "\(size)")
            }
        }
    }

    @Test("a proxy that closes before it answers, or in the middle of its answer, is named as such")
    func closes() throws {
        for (sent, message) in [
            ("", "the proxy http://127.0.0.1:3128 closed the connection without answering the CONNECT for [::1]:8443"),
            (
                "HTTP/1.1 20",
                "the proxy http://127.0.0.1:3128 closed the connection in the middle of its answer to the CONNECT for [::1]:8443"
            ),
            (
                "HTTP/1.1 200 OK\r\nVia: x\r\n",
                "the proxy http://127.0.0.1:3128 closed the connection in the middle of its answer to the CONNECT for [::1]:8443"
            ),
        ] {
            let (channel, _, _, future) = try Self.tunnel()
            if !sent.isEmpty { try channel.writeInbound(ByteBuffer(string: sent)) }
            channel.pipeline.fireChannelInactive()
            #expect(Self.failure(future)?.message == message, "\(sent)")
        }
    }

    @Test("every state and event: the transitions and actions")
    func stateMachine() {
        var machine = ProxyTunnelStateMachine()
        #expect(machine.end() == .none && machine.head(status: 200, statusLine: "") == .none)
        #expect(machine.channelActive() == .sendConnect && machine.state == .awaitingHead)
        #expect(machine.channelActive() == .none)
        #expect(machine.end() == .none, "no end before a head")
        #expect(machine.head(status: 200, statusLine: "HTTP/1.1 200 OK") == .none && machine.state == .awaitingEnd)
        #expect(machine.headerTooLarge() == .forward)
        #expect(machine.end() == .establish && machine.state == .established)
        #expect(machine.closed(received: true) == .forward)
        #expect(machine.error(described: "reset") == .forward && machine.notHTTP() == .forward)

        var refused = ProxyTunnelStateMachine()
        _ = refused.channelActive()
        #expect(refused.head(status: 199, statusLine: "x") == .fail(.refused(status: 199, statusLine: "x")))
        #expect(refused.state == .failed)
        #expect(refused.end() == .none && refused.closed(received: true) == .none && refused.notHTTP() == .none)
        #expect(refused.error(described: "x") == .forward)
        #expect(ProxyTunnelStateMachine.Failure.refused(status: 500, statusLine: "").isUpstream)
        #expect(!ProxyTunnelStateMachine.Failure.refused(status: 499, statusLine: "").isUpstream)
        #expect(!ProxyTunnelStateMachine.Failure.notHTTP.isUpstream)

        var waiting = ProxyTunnelStateMachine()
        _ = waiting.channelActive()
        _ = waiting.head(status: 299, statusLine: "")
        #expect(waiting.closed(received: false) == .fail(.closed(midAnswer: true)), "a head came: mid-answer")

        var silent = ProxyTunnelStateMachine()
        #expect(silent.closed(received: false) == .fail(.closed(midAnswer: false)))
        var broken = ProxyTunnelStateMachine()
        _ = broken.channelActive()
        #expect(broken.error(described: "reset") == .fail(.connection("reset")))
        var garbled = ProxyTunnelStateMachine()
        _ = garbled.channelActive()
        #expect(garbled.notHTTP() == .fail(.notHTTP))
        var large = ProxyTunnelStateMachine()
        _ = large.channelActive()
        #expect(large.headerTooLarge() == .fail(.headerTooLarge) && large.headerTooLarge() == .none)
    }
}
