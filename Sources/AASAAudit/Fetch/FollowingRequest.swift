import NIOCore

/// A domain's second request, offered to the first's connection the moment its TLS handshake
/// is done (``HTTPSFetcher/fetch(_:then:on:)``). The first request's handler sends it right
/// behind the first (HTTP/1.1 pipelining, RFC 9112 §9.3.2), so both answers come one round
/// trip after the handshake, as they would on two connections at once, for one handshake.
/// The offer also starts the wait after which the second path, if the first's answer has not
/// begun, stops waiting for it and takes a connection of its own.
struct FollowingRequest: Sendable {
    /// Given the connection and the first request (whose answer is watched), the state of the
    /// request to send behind the first (its timer not started: the handler starts it when
    /// the request's answer is next), or nil to send nothing behind it.
    /// Called at most once per connection.
    let offer: NIOLoopBound<(KeptConnection, FetchState) -> FetchState?>

    init(on eventLoop: any EventLoop, _ offer: @escaping (KeptConnection, FetchState) -> FetchState?) {
        self.offer = NIOLoopBound(offer, eventLoop: eventLoop)
    }
}
