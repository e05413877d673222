import AASA
import Foundation

/// What one domain served, as received, for a caller that keeps it (`aasa audit --save`):
/// the answer of the path iOS would use (the `.well-known` one, or the root one when only that
/// served a file; the `.well-known` answer when neither did), the server's TLS chain, and what
/// each path answered (``paths``).
/// Carried by ``DomainReport/captured`` only when ``AuditConfiguration/capturesResponse`` asks.
public struct CapturedResponse: Sendable {
    /// The URL whose answer this is.
    public var url: String
    /// Whether ``body`` is the file iOS would use (a complete 200 answer within the size cap);
    /// false when no path served one.
    public var served: Bool
    /// The status line (`HTTP/1.1 200 OK`), nil when no answer came. SwiftNIO's parser keeps
    /// the version and the code, and gives a known code its standard reason phrase.
    public var statusLine: String?
    /// The response's header fields in the order received, names as the server spelt them.
    public var headers: [HeaderField]
    /// The body exactly as received, when ``served`` (nil otherwise: a partial or error body
    /// is never passed off as the file).
    public var body: Data?
    /// The certificates the server sent in the TLS handshake, leaf first (empty when no
    /// handshake got as far as a certificate).
    public var tlsChain: [X509Certificate]
    /// Why no answer came, when none did.
    public var failure: String?
    /// What each path answered, `.well-known` first, whatever it was (an error page, a
    /// redirect, a body cut at the size cap): the evidence of what the domain served.
    public var paths: [PathAnswer] = []

    /// One path's answer as received.
    public struct PathAnswer: Sendable {
        /// `well-known` or `root`: a file name's stem.
        public var name: String
        public var url: String
        /// The status line, nil when no answer came.
        public var statusLine: String?
        public var headers: [HeaderField]
        /// The bytes of the body read (at most the size cap; nil when no answer came).
        public var body: Data?
        /// Reading stopped at the size cap: ``body`` is the start of a longer body.
        public var truncated: Bool
        /// Why no complete answer came, when none did.
        public var failure: String?
    }

    /// One header field.
    public struct HeaderField: Sendable, Hashable {
        public var name: String
        public var value: String
    }
}
