import Foundation

/// The answer to "is this signed file valid?", with the reason when it is not.
public enum VerificationVerdict: Sendable, Equatable {
    /// The signature covers the content, and the signer chains to a trust anchor for the purpose,
    /// at the time, for the host, and long enough.
    case valid
    /// The input is not PKCS#7 SignedData with a signer (plain JSON, other PKCS#7, certificates only).
    case notSigned(String)
    /// The input claims to be PKCS#7 but is damaged, detached, or not an AASA payload.
    case malformed(String)
    /// The content or the signature was changed after signing.
    case tampered(String)
    /// No certificate in the message (or given) matches the SignerInfo.
    case signerNotFound(String)
    /// The chain does not reach a trust anchor; `certificate` is where it broke.
    case untrusted(String, certificate: CertificateInfo?, depth: Int)
    /// A certificate of the chain had expired at the check time.
    case expired(certificate: CertificateInfo, depth: Int)
    /// A certificate of the chain was not yet valid at the check time.
    case notYetValid(certificate: CertificateInfo, depth: Int)
    /// A certificate of the chain does not allow the required purpose.
    case wrongPurpose(CertificatePurpose, certificate: CertificateInfo, depth: Int)
    /// The signer certificate is not valid for the required host.
    case hostMismatch(host: String, certificate: CertificateInfo)
    /// Everything holds, but a certificate expires within the required number of days.
    case expiringSoon(days: Int, certificate: CertificateInfo)

    /// Whether the file is valid.
    public var isValid: Bool { self == .valid }

    /// A stable machine-readable name: `valid`, `not-signed`, `malformed`, `tampered`,
    /// `signer-not-found`, `untrusted`, `expired`, `not-yet-valid`, `wrong-purpose`,
    /// `host-mismatch`, `expiring-soon`.
    public var code: String {
        switch self {
        case .valid: return "valid"
        case .notSigned: return "not-signed"
        case .malformed: return "malformed"
        case .tampered: return "tampered"
        case .signerNotFound: return "signer-not-found"
        case .untrusted: return "untrusted"
        case .expired: return "expired"
        case .notYetValid: return "not-yet-valid"
        case .wrongPurpose: return "wrong-purpose"
        case .hostMismatch: return "host-mismatch"
        case .expiringSoon: return "expiring-soon"
        }
    }

    /// Why the file is not valid, in one sentence (without the ``code``); nil when valid.
    public var reason: String? {
        func when(_ date: Date) -> String { InternetDateTime.string(from: date) }
        func which(_ depth: Int) -> String { depth == 0 ? "signer certificate" : "certificate at chain depth \(depth)" }
        switch self {
        case .valid: return nil
        case .notSigned(let detail): return "\(detail)"
        case .malformed(let detail): return "\(detail)"
        case .tampered(let detail): return "\(detail)"
        case .signerNotFound(let detail): return "\(detail)"
        case .untrusted(let detail, let certificate, let depth):
            let subject = certificate.map { " (\(which(depth)) \"\($0.subject)\")" } ?? ""
            return "\(detail)\(subject)"
        case .expired(let certificate, let depth):
            return "\(which(depth)) \"\(certificate.subject)\" expired at \(when(certificate.notAfter))"
        case .notYetValid(let certificate, let depth):
            return "\(which(depth)) \"\(certificate.subject)\" is valid from \(when(certificate.notBefore))"
        case .wrongPurpose(let purpose, let certificate, let depth):
            let usage = certificate.extendedKeyUsage.map { $0.isEmpty ? "none" : $0.joined(separator: ", ") } ?? "any"
            return "\(which(depth)) \"\(certificate.subject)\" is not valid for \(purpose.rawValue) (extendedKeyUsage: \(usage))"
        case .hostMismatch(let host, let certificate):
            let names = certificate.dnsNames.isEmpty ? "no DNS names" : certificate.dnsNames.joined(separator: ", ")
            return "the signer certificate is not valid for \(host) (it names \(names))"
        case .expiringSoon(let days, let certificate):
            return "\"\(certificate.subject)\" expires at \(when(certificate.notAfter)), within \(days) days"
        }
    }
}
