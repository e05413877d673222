import Foundation

/// Why a caIssuers URI gave no certificate.
public enum IssuerFetchFailure: Error, Sendable, Equatable {
    /// The URI is not fetched (a scheme other than http and https, no host, too long, …).
    case refusedURL(String)
    /// A redirect to `location` is not followed, for the reason given.
    case refusedRedirect(String, String)
    /// More redirects than allowed.
    case tooManyRedirects(Int)
    /// The answer is not `200 OK`.
    case httpStatus(Int)
    /// The body is over the limit (`declared` when the Content-Length said so before any byte).
    case tooLarge(limit: Int, declared: Int?)
    /// No complete answer within the time limit (seconds).
    case timedOut(TimeInterval)
    /// The connection could not be made, or broke.
    case connection(String)
    /// The body is no certificate: not DER, PEM or PKCS#7 certs-only.
    case notCertificates(String)

    /// The reason, in one sentence (attacker-controlled parts included: escape before printing).
    public var reason: String {
        switch self {
        case .refusedURL(let why): return "not fetched: \(why)"
        case .refusedRedirect(let location, let why):
            return "a redirect to \"\(location)\" is not followed: \(why)"
        case .tooManyRedirects(let limit): return "more than \(limit) redirects"
        case .httpStatus(let status): return "HTTP \(status)"
        case .tooLarge(let limit, let declared):
            let size = declared.map { " (Content-Length \($0))" } ?? ""
            return "refused: the body is over the \(limit)-byte limit\(size)"
        case .timedOut(let seconds):
            return "timed out: no complete answer within \(IssuerFetch.seconds(seconds)) s"
        case .connection(let why): return "connection failed: \(why)"
        case .notCertificates(let why): return "refused: the body is not a certificate: \(why)"
        }
    }
}
