import Foundation
import NIOCore
import NIOHTTP1

/// Reads one HTTP/1.1 answer for ``AIAIssuerFetcher``: its status, its `Location`, and a body
/// of at most `maximumBytes` (a longer one, or a larger Content-Length, fails at once and
/// closes the connection). It completes `promise` exactly once: with the answer, or a failure
/// (the connection closed early, an error, ``timeOut(after:)``).
final class IssuerResponseHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    /// A complete answer.
    struct Answer: Sendable {
        var status: Int
        var location: String?
        var body: Data
    }

    /// A failure, with the bytes of body read before it.
    struct Failed: Error {
        var failure: IssuerFetchFailure
        var bytes: Int
    }

    private let maximumBytes: Int
    private let promise: EventLoopPromise<Answer>
    private var status = 0
    private var location: String?
    private var body = Data()
    private var finished = false

    init(maximumBytes: Int, promise: EventLoopPromise<Answer>) {
        self.maximumBytes = maximumBytes
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !finished else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
            location = head.headers.first(name: "Location")
            if status == 200, let declared = head.headers.first(name: "Content-Length").flatMap(Int.init),
                declared > maximumBytes
            {
                fail(.tooLarge(limit: maximumBytes, declared: declared), context: context)
            }
        case .body(var buffer):
            // Only a 200's body matters; others are read (within the limit) and dropped.
            guard body.count + buffer.readableBytes <= maximumBytes else {
                body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
                fail(.tooLarge(limit: maximumBytes, declared: nil), context: context)
                return
            }
            body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
        case .end:
            finished = true
            promise.succeed(Answer(status: status, location: location, body: status == 200 ? body : Data()))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(.connection("the server closed the connection before the whole answer"), context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(.connection("\(error)"), context: context)
    }

    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    /// Fails with a timeout (call it on the channel's event loop) unless the answer is already
    /// complete, and closes the connection.
    func timeOut(after seconds: TimeInterval) {
        guard !finished else { return }
        finished = true
        promise.fail(Failed(failure: .timedOut(seconds), bytes: body.count))
        context?.close(promise: nil)
    }

    private func fail(_ failure: IssuerFetchFailure, context: ChannelHandlerContext) {
        guard !finished else { return }
        finished = true
        promise.fail(Failed(failure: failure, bytes: body.count))
        context.close(promise: nil)
    }
}
