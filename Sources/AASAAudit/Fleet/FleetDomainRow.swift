import AASA
import Foundation

/// One domain of a fleet summary, as `aasa audit summarize --format csv` writes it: its last
/// record's verdict, its findings counted by severity and named by rule, and its signer.
public struct FleetDomainRow: Sendable, Equatable {
    /// The domain, lowercased (as the summary counts it).
    public let domain: String
    public let verdict: AuditVerdict
    public let errors: Int
    public let warnings: Int
    public let deprecations: Int
    /// The rules of its findings, each once, sorted.
    public let rules: [String]
    /// The signer of the signed file it serves; nil when it serves none (or the signer was not read).
    public let signer: FleetSigner?
    /// Whether the signer had expired at the summary's time.
    public let signerExpired: Bool
}
