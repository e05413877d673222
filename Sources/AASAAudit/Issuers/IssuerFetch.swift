import AASA
import Foundation

/// What one fetch of a caIssuers URI gave: certificates, or why none.
///
/// The certificates are whatever the server sent: use them only as untrusted intermediates
/// (``VerificationOptions/intermediates``), never as trust anchors.
public struct IssuerFetch: Sendable {
    /// The URI as the certificate gave it (attacker-controlled: escape before printing).
    public let uri: String
    /// The certificates of the body, or why there are none.
    public let outcome: Result<[X509Certificate], IssuerFetchFailure>
    /// The body's size in bytes (0 when no body was read).
    public let bytes: Int
    /// How the body was encoded: `DER`, `PEM` or `PKCS#7`; nil when no certificate was read.
    public let format: String?
    /// The URI the body came from, when redirects led elsewhere.
    public let finalURI: String?

    /// The certificates fetched; empty on failure.
    public var certificates: [X509Certificate] {
        (try? outcome.get()) ?? []
    }

    /// One line for a report: the URI, the outcome, the bytes (unescaped).
    public var summary: String {
        let via = finalURI.map { " (redirected to \($0))" } ?? ""
        switch outcome {
        case .success(let certificates):
            let count = certificates.count == 1 ? "1 certificate" : "\(certificates.count) certificates"
            return
                "fetched \(uri)\(via): \(bytes) bytes, \(count) (\(format ?? "?")), used only as untrusted intermediates"
        case .failure(let failure):
            let read = bytes > 0 ? " (\(bytes) bytes read)" : ""
            return "fetching \(uri)\(via): \(failure.reason)\(read)"
        }
    }

    /// `seconds` without a needless fraction: "10", "0.5".
    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
