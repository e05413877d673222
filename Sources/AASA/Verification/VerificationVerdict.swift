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
    /// The content or the signature was changed after signing: the signature does not match.
    /// Nothing else is `tampered`.
    case tampered(String)
    /// A SignerInfo uses an algorithm OpenSSL cannot verify (MD4, an unknown OID, Ed25519 without
    /// signed attributes, DSA with inherited parameters): nothing can be said about the signature.
    case unsupportedAlgorithm(String)
    /// Valid CMS that PKCS#7 v1.5 cannot represent (a signer identified by subjectKeyIdentifier).
    case unsupportedCMS(String)
    /// The verification policy refuses an algorithm or a key size (docs/security.md): MD2, MD4
    /// or MD5 anywhere, an RSA or DSA key under 1,024 bits. `--allow-weak-crypto` lifts it.
    case weakAlgorithm(String)
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
    /// The signer certificate's keyUsage does not allow digitalSignature (whatever the purpose);
    /// `keyUsage` lists what it allows. Its ``code`` is `wrong-purpose`.
    case signerKeyUsage(certificate: CertificateInfo, keyUsage: [String])
    /// The signer certificate is not valid for the required host.
    case hostMismatch(host: String, certificate: CertificateInfo)
    /// Everything holds, but a certificate expires within the required number of days.
    case expiringSoon(days: Int, certificate: CertificateInfo)
    /// Only with ``VerificationOptions/historical``: the signature is intact (checked exactly as
    /// for ``valid``, the verification policy included) and the chain was valid under a root of
    /// the historical store at a time inside the window it carries, but it fails today. Never
    /// ``isValid``; ``isValidThen``.
    case validThen(HistoricalValidity)

    /// Whether the file is valid.
    public var isValid: Bool { self == .valid }

    /// Whether the file was valid when signed (``validThen(_:)``), though not today.
    public var isValidThen: Bool {
        if case .validThen = self { return true }
        return false
    }

    /// A stable machine-readable name: `valid`, `not-signed`, `malformed`, `tampered`,
    /// `unsupported-algorithm`, `unsupported-cms`, `weak-algorithm`, `signer-not-found`,
    /// `untrusted`, `expired`, `not-yet-valid`, `wrong-purpose`, `host-mismatch`, `expiring-soon`,
    /// `valid-then`.
    public var code: String {
        switch self {
        case .valid: return "valid"
        case .notSigned: return "not-signed"
        case .malformed: return "malformed"
        case .tampered: return "tampered"
        case .unsupportedAlgorithm: return "unsupported-algorithm"
        case .unsupportedCMS: return "unsupported-cms"
        case .weakAlgorithm: return "weak-algorithm"
        case .signerNotFound: return "signer-not-found"
        case .untrusted: return "untrusted"
        case .expired: return "expired"
        case .notYetValid: return "not-yet-valid"
        case .wrongPurpose, .signerKeyUsage: return "wrong-purpose"
        case .hostMismatch: return "host-mismatch"
        case .expiringSoon: return "expiring-soon"
        case .validThen: return "valid-then"
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
        case .unsupportedAlgorithm(let detail): return "\(detail)"
        case .unsupportedCMS(let detail): return "\(detail)"
        case .weakAlgorithm(let detail): return "\(detail)"
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
            return
                "\(which(depth)) \"\(certificate.subject)\" is not valid for \(purpose.rawValue) (extendedKeyUsage: \(usage))"
        case .signerKeyUsage(let certificate, let keyUsage):
            let allowed = keyUsage.isEmpty ? "nothing" : keyUsage.joined(separator: ", ")
            return
                "signer certificate \"\(certificate.subject)\" may not make digital signatures (keyUsage: \(allowed))"
        case .hostMismatch(let host, let certificate):
            let names = certificate.dnsNames.isEmpty ? "no DNS names" : certificate.dnsNames.joined(separator: ", ")
            return "the signer certificate is not valid for \(host) (it names \(names))"
        case .expiringSoon(let days, let certificate):
            return "\"\(certificate.subject)\" expires at \(when(certificate.notAfter)), within \(days) days"
        case .validThen(let validity): return validity.summary
        }
    }
}
