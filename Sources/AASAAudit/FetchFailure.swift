import AASA

/// Why a fetch gave no complete response.
enum FetchFailure: Sendable, Error {
    /// The TLS handshake failed (the certificate did not verify, or another handshake error).
    case tls(String)
    /// No connection: name resolution, refused, reset before an answer. Retried.
    case connection(String)
    /// The timeout ran out; the text says in which phase.
    case timeout(String)
    /// The connection broke after the answer had started.
    case interrupted(String)

    var rule: RuleID {
        switch self {
        case .tls: return HostingRules.tlsError
        case .connection, .interrupted: return HostingRules.connectionFailed
        case .timeout: return HostingRules.timeout
        }
    }

    var message: String {
        switch self {
        case .tls(let text), .connection(let text), .timeout(let text), .interrupted(let text): return text
        }
    }
}
