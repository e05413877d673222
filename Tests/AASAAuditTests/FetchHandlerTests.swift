import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOTLS
import Testing

@testable import AASAAudit

/// ``FetchHandler`` on an `EmbeddedChannel` with scripted response parts: what it writes,
/// what each request's result says, and whether the connection stays open: no socket, no TLS
/// (the handshake is its event), no server.
struct FetchHandlerTests {
    static let cap = 16

    /// A request for `path` of example.com, its result promised on `loop`.
    static func request(
        _ path: String, on loop: EmbeddedEventLoop, following: FollowingRequest? = nil,
        reusing connection: KeptConnection? = nil
    ) -> (FetchState, EventLoopFuture<FetchResult>) {
        let promise = loop.makePromise(of: FetchResult.self)
        let target = FetchTarget(host: "example.com", port: 443, path: path)
        let state = FetchState(
            target: target, attempt: 1, promise: promise, maximumBodySize: cap, userAgent: "test", timeout: 10,
            route: ConnectionRoute(to: target, configuration: AuditConfiguration()), following: following,
            reusing: connection)
        return (state, promise.futureResult)
    }

    /// The channel of `state`'s connection, connected, as HTTPSFetcher gives it to the state.
    static func connection(for state: FetchState, on loop: EmbeddedEventLoop) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: FetchHandler(state: state), loop: loop)
        state.channel = channel
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        return channel
    }

    /// The requests written to `channel`: each one's path and `Connection` header.
    static func written(_ channel: EmbeddedChannel) throws -> [(path: String, connection: String?)] {
        var requests: [(String, String?)] = []
        while let part = try channel.readOutbound(as: HTTPClientRequestPart.self) {
            if case .head(let head) = part { requests.append((head.uri, head.headers.first(name: "connection"))) }
        }
        return requests
    }

    static func answer(_ channel: EmbeddedChannel, status: HTTPResponseStatus = .ok, body: String, close: Bool = false)
        throws
    {
        var headers = HTTPHeaders([("Content-Length", "\(body.utf8.count)")])
        if close { headers.add(name: "Connection", value: "close") }
        try channel.writeInbound(
            HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)))
        try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: body)))
        try channel.writeInbound(HTTPClientResponsePart.end(nil))
    }

    /// The domain's second request, once the path pair has offered it.
    final class Pair {
        var behind: (FetchState, EventLoopFuture<FetchResult>)?
    }

    /// The `.well-known` request on a connection whose TLS is up, with the root one sent right
    /// behind it as the path pair offers it: the channel, the first's answer, the second.
    static func pairSent(on loop: EmbeddedEventLoop) throws -> (EmbeddedChannel, EventLoopFuture<FetchResult>, Pair) {
        let pair = Pair()
        let following = FollowingRequest(on: loop) { connection, _ in
            pair.behind = Self.request("/apple-app-site-association", on: loop, reusing: connection)
            return pair.behind?.0
        }
        let (state, future) = Self.request("/.well-known/apple-app-site-association", on: loop, following: following)
        let channel = try Self.connection(for: state, on: loop)
        channel.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: nil))
        return (channel, future, pair)
    }

    /// The message of a connection failure (nil for any other result).
    static func connectionFailure(_ result: FetchResult) -> String? {
        if case .connection(let message) = result.failure { return message }
        return nil
    }

    static func result(_ future: EventLoopFuture<FetchResult>, _ loop: EmbeddedEventLoop) throws -> FetchResult? {
        loop.run()
        var result: FetchResult?
        future.whenSuccess { result = $0 }
        return result
    }

    @Test func oneRequestIsSentOnceTLSIsUpAndItsAnswerClosesTheConnection() throws {
        let loop = EmbeddedEventLoop()
        let (state, future) = Self.request("/.well-known/apple-app-site-association", on: loop)
        let channel = try Self.connection(for: state, on: loop)
        #expect(try Self.written(channel).isEmpty, "nothing before TLS is up")
        channel.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: nil))
        let requests = try Self.written(channel)
        #expect(requests.map(\.path) == ["/.well-known/apple-app-site-association"])
        #expect(requests.first?.connection == "close", "no next request: the connection is not kept")

        try Self.answer(channel, body: "{}")
        let result = try #require(try Self.result(future, loop))
        #expect(result.failure == nil && result.response?.status == 200)
        #expect(result.response.map { String(decoding: $0.body, as: UTF8.self) } == "{}")
        #expect(result.kept == nil && !channel.isActive, "closed after the answer")
    }

    @Test func anAnswerOverTheCapIsCutAndTheRequestBehindGoesElsewhere() throws {
        let loop = EmbeddedEventLoop()
        let (channel, future, pair) = try Self.pairSent(on: loop)
        let requests = try Self.written(channel)
        // Both sent, the second right behind the first; the first asks to keep the connection
        // for the second, which is the domain's last.
        #expect(requests.map(\.path) == ["/.well-known/apple-app-site-association", "/apple-app-site-association"])
        #expect(requests.map(\.connection) == [nil, "close"])

        // Content-Length under the cap, but more bytes than the cap arrive.
        try channel.writeInbound(
            HTTPClientResponsePart.head(
                HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "10"])))
        try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: String(repeating: "x", count: 20))))
        let first = try #require(try Self.result(future, loop))
        #expect(first.response?.truncated == true && first.response?.body.count == Self.cap)
        #expect(!channel.isActive, "a cut answer leaves nothing to reuse")
        let behindFuture = try #require(pair.behind).1
        let second = try #require(try Self.result(behindFuture, loop))
        // It fails as a closed connection, to go again on its own.
        #expect(
            Self.connectionFailure(second) == "the connection closed before the answer to the request sent behind",
            "\(second)")
    }

    /// PathPairFetch.swift: the second's "answer follows the first's when that leaves the
    /// connection open", then the connection closes with the last answer.
    @Test func theRequestBehindIsAnsweredNextOnTheSameConnection() throws {
        let loop = EmbeddedEventLoop()
        let (channel, future, pair) = try Self.pairSent(on: loop)
        #expect(try Self.written(channel).count == 2)

        try Self.answer(channel, status: .notFound, body: "none")
        let first = try #require(try Self.result(future, loop))
        #expect(first.response?.status == 404 && first.requestBehind)
        #expect(channel.isActive, "left open for the answer behind")

        try Self.answer(channel, body: "{\"a\":1}")
        let behindFuture = try #require(pair.behind).1
        let second = try #require(try Self.result(behindFuture, loop))
        #expect(second.failure == nil && second.response?.status == 200 && second.reusedConnection)
        #expect(second.response.map { String(decoding: $0.body, as: UTF8.self) } == "{\"a\":1}")
        #expect(!channel.isActive, "nothing asked to keep it after the last answer")
    }

    @Test func aConnectionThatClosesBeforeAnyAnswerFailsTheRequestAsUnanswered() throws {
        let loop = EmbeddedEventLoop()
        let (state, future) = Self.request("/.well-known/apple-app-site-association", on: loop)
        let channel = try Self.connection(for: state, on: loop)
        channel.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: nil))
        _ = try channel.close().wait()
        let result = try #require(try Self.result(future, loop))
        #expect(Self.connectionFailure(result) == "the server closed the connection without answering", "\(result)")
    }

    /// PathPairFetch.swift: under `--rate` the second waits for the first's answer and goes on
    /// its kept connection; when the server closed that connection meanwhile, it fails as not
    /// sent (and the path pair sends it on a connection of its own).
    @Test func aKeptConnectionCarriesTheNextRequestOrSaysItClosed() throws {
        for serverClosesFirst in [false, true] {
            let loop = EmbeddedEventLoop()
            // Offered nothing behind (as under --rate): the first still asks to keep the connection.
            let following = FollowingRequest(on: loop) { _, _ in nil }
            let (state, future) = Self.request(
                "/.well-known/apple-app-site-association", on: loop, following: following)
            let channel = try Self.connection(for: state, on: loop)
            channel.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: nil))
            #expect(try Self.written(channel).map(\.connection) == [nil])
            try Self.answer(channel, status: .notFound, body: "none")
            let first = try #require(try Self.result(future, loop))
            let kept = try #require(first.kept, "a complete, framed HTTP/1.1 answer leaves the connection kept")
            #expect(channel.isActive)

            if serverClosesFirst { _ = try channel.close().wait() }
            let (next, answer) = Self.request("/apple-app-site-association", on: loop, reusing: kept)
            kept.handler.value.send(next)
            if serverClosesFirst {
                let result = try #require(try Self.result(answer, loop))
                #expect(
                    Self.connectionFailure(result)
                        == "the server closed the kept-alive connection before the next request", "\(result)")
            } else {
                #expect(try Self.written(channel).map(\.path) == ["/apple-app-site-association"])
                try Self.answer(channel, body: "{}")
                let result = try #require(try Self.result(answer, loop))
                #expect(result.failure == nil && result.reusedConnection && result.response?.status == 200)
                #expect(!channel.isActive)
            }
        }
    }
}
