import AASA
import Foundation

/// The `verify --format json` document for one file (a stable contract: docs/cli.md).
struct VerificationReport: Encodable {
    var path: String
    var valid: Bool
    /// The verdict code: valid, not-signed, malformed, tampered, unsupported-algorithm,
    /// unsupported-cms, weak-algorithm, signer-not-found, untrusted, expired, not-yet-valid,
    /// wrong-purpose, host-mismatch, expiring-soon.
    var verdict: String
    /// Why not valid; null when valid.
    var reason: String?
    var kind: String
    var checkedAt: Date
    var purpose: String
    var domain: String?
    var signerInfos: [SignerInfo]
    var signer: CertificateInfo?
    var chain: [CertificateInfo]
    /// The verification policy's warnings, one sentence each (SHA-1, keys under 2048 bits, …).
    var warnings: [String]

    init(path: String, result: VerificationResult, options: VerificationOptions) {
        self.path = path
        valid = result.isValid
        verdict = result.verdict.code
        reason = result.verdict.reason
        kind = result.kind.rawValue
        checkedAt = result.checkedAt
        purpose = options.purpose.rawValue
        domain = options.hostname
        signerInfos = result.signerInfos
        signer = result.signers.first
        chain = result.chain
        warnings = result.warnings.map(\.message)
    }

    enum CodingKeys: String, CodingKey {
        case path, valid, verdict, reason, kind, checkedAt, purpose, domain, signerInfos, signer, chain, warnings
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(valid, forKey: .valid)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(reason, forKey: .reason)  // explicit null when valid
        try container.encode(kind, forKey: .kind)
        try container.encode(checkedAt, forKey: .checkedAt)
        try container.encode(purpose, forKey: .purpose)
        try container.encode(domain, forKey: .domain)
        try container.encode(signerInfos, forKey: .signerInfos)
        try container.encode(signer, forKey: .signer)
        try container.encode(chain, forKey: .chain)
        try container.encode(warnings, forKey: .warnings)
    }
}

/// Text rendering of certificates and verification results.
enum TextReport {
    static func date(_ date: Date) -> String { InternetDateTime.string(from: date) }

    static func certificate(_ info: CertificateInfo, indent: String) -> [String] {
        var lines = [
            "\(indent)subject:  \(info.subject)",
            "\(indent)issuer:   \(info.issuer)",
            "\(indent)serial:   \(info.serialNumber)",
            "\(indent)validity: \(date(info.notBefore)) .. \(date(info.notAfter))",
            "\(indent)key:      \(info.keyDescription)",
        ]
        if !info.subjectAlternativeNames.isEmpty {
            lines.append("\(indent)SANs:     \(info.subjectAlternativeNames.joined(separator: ", "))")
        }
        if let usage = info.extendedKeyUsage { lines.append("\(indent)EKU:      \(usage.joined(separator: ", "))") }
        lines.append("\(indent)SHA-256:  \(info.sha256Fingerprint)")
        return lines
    }

    static func verification(path: String, result: VerificationResult) -> [String] {
        var lines = ["\(Diagnostics.displayName(path)): \(result.verdict.code)"]
        if let reason = result.verdict.reason { lines.append("  reason:     \(reason)") }
        for warning in result.warnings { lines.append("  warning:    \(warning.message)") }
        lines.append("  kind:       \(result.kind.rawValue)")
        lines.append("  checked at: \(date(result.checkedAt))")
        for info in result.signerInfos {
            let attributes = info.hasSignedAttributes ? "present" : "none"
            lines.append(
                "  digest:     \(info.digestAlgorithm) with \(info.signatureAlgorithm), signed attributes: \(attributes)"
            )
        }
        if let signer = result.signers.first {
            lines.append("  signer:")
            lines += certificate(signer, indent: "    ")
        }
        if !result.chain.isEmpty {
            lines.append("  chain:")
            for (depth, info) in result.chain.enumerated() { lines.append("    \(depth) \(info.subject)") }
        }
        return lines
    }
}
