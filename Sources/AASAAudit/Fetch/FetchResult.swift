import AASA
import Foundation
import NIOHTTP1

/// What one fetch of one URL gave: a response (maybe cut at the size cap), or why none came,
/// with the TLS certificate the server presented and the timings.
struct FetchResult: Sendable {
    var target: FetchTarget
    var address: String?
    var attempts: Int
    var timings: PathReport.Timings
    var tls: TLSObservation?
    var response: FetchedResponse?
    var failure: FetchFailure?
    /// How long the fetch waited for a free file descriptor, in seconds (nil: it never had to).
    var descriptorWait: TimeInterval?
    /// The request went on a connection an earlier request of the domain opened (and its TLS
    /// handshake): the timings then have no connect or TLS time, and ``tls`` is that handshake's.
    var reusedConnection = false
    /// The connection, still open for another request (``HTTPSFetcher/fetch(_:following:on:)``
    /// with `following`, nothing sent behind): whoever receives the result reuses or closes it.
    var kept: KeptConnection?
    /// Another request was sent behind this one on its connection (HTTP/1.1 pipelining): a
    /// connection that failed before this answer was complete may have failed because of it
    /// (a server that closes after one answer, with the next request unread, resets the
    /// connection, and the reset can discard the answer it sent).
    var requestBehind = false
}

extension FetchResult {
    /// A path that was never requested: its host gave no address (`failure` says why).
    init(unreachable target: FetchTarget, failure: FetchFailure) {
        self.init(
            target: target, address: nil, attempts: 1,
            timings: PathReport.Timings(connectMs: nil, tlsMs: nil, firstByteMs: nil, totalMs: 0), tls: nil,
            response: nil, failure: failure)
    }

    /// A domain's second path, not requested because its connection could not be made: the
    /// first path (`first`) failed before a request could be sent (refused, timed out, a TLS
    /// failure), and the second would need the same connection to the same server. It shares
    /// that failure, with no attempt of its own (``attempts`` 0).
    init(notRequested target: FetchTarget, after first: FetchResult) {
        self.init(
            target: target, address: first.address, attempts: 0,
            timings: PathReport.Timings(connectMs: nil, tlsMs: nil, firstByteMs: nil, totalMs: 0), tls: first.tls,
            response: nil, failure: first.failure)
    }
}

/// A response head and the body read (at most the size cap).
struct FetchedResponse: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: Data
    /// Reading stopped at the cap (the body is longer than `body`).
    var truncated: Bool
    /// The status line as the HTTP parser gave it (`HTTP/1.1 200 OK`: SwiftNIO keeps the code
    /// and gives a known code its standard reason phrase), for ``CapturedResponse``.
    var statusLine = ""

    var declaredLength: Int? { headers.first(name: "content-length").flatMap { Int($0) } }
}

/// The server's certificates as checked in the TLS verification callback.
struct TLSObservation: Sendable {
    var report: TLSReport
    /// The leaf, for comparing with a signer.
    var leaf: X509Certificate?
    /// The leaf's SubjectPublicKeyInfo (DER), for "same key".
    var leafPublicKey: [UInt8]?
    /// The certificates as the server sent them (leaf first; those that parse), shared with
    /// ``ServerChainCache``: for ``CapturedResponse``.
    var certificates: [X509Certificate] = []
    /// EMFILE or ENFILE when the chain did not verify as trusted while this machine had no file
    /// descriptor free: the anchors are looked up in files (system roots, `--ca-dir`), so the
    /// verdict may be this machine's, not the server's. The fetcher waits and tries again.
    var descriptorShortage: Int32?
}
