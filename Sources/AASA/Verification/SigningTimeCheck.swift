import Foundation

/// How to check a signed file that fails today as it would have been checked when it was
/// signed (docs/verify-a-signed-file.md, "Check a real file from 2015"): at a time when every
/// certificate of its chain was valid and, when the chain reaches no trusted root, trusting
/// the highest issuer certificate the file embeds, with a partial chain.
///
/// That issuer came out of the file being checked: trusting it proves only that the file is
/// consistent with it. Compare its fingerprint with an independent copy first.
public struct SigningTimeCheck: Sendable, Hashable {
    /// What to trust.
    public enum Anchor: Sendable, Hashable {
        /// The chain reaches a trusted root: only the time needs setting.
        case trustedRoot
        /// The embedded certificate at this index of ``VerificationResult/embeddedCertificates``.
        case embedded(index: Int, certificate: CertificateInfo)
        /// The file embeds no issuer of its chain's top certificate: get the certificate named
        /// so from an independent source.
        case missing(issuer: String)
    }

    public var anchor: Anchor
    /// A time when every certificate of the chain was valid: a day after the latest of their
    /// `notBefore` (that instant itself when their validity overlaps by less).
    public var time: Date

    /// The check for `result`, or nil when there is none to suggest: the file is valid, or
    /// fails for another reason than its chain's trust or dates, or its certificates were
    /// never valid at the same time.
    public init?(_ result: VerificationResult) {
        let problems = result.chainProblems.isEmpty ? [result.verdict] : result.chainProblems
        var untrusted = false
        for problem in problems {
            switch problem {
            case .untrusted: untrusted = true
            case .expired, .notYetValid: break
            default: return nil
            }
        }
        guard !result.isValid, let leaf = result.chain.first else { return nil }
        var chain = result.chain
        if untrusted {
            // The highest certificate of the chain as built that the file itself holds, other
            // than the signer's own.
            let embedded = result.embeddedCertificates.map(\.sha256Fingerprint)
            if let top = result.chain.dropFirst().lastIndex(where: { embedded.contains($0.sha256Fingerprint) }),
                let index = embedded.firstIndex(of: result.chain[top].sha256Fingerprint)
            {
                chain = Array(result.chain[...top])
                anchor = .embedded(index: index, certificate: result.chain[top])
            } else {
                chain = [leaf]
                anchor = .missing(issuer: (result.chain.last ?? leaf).issuer)
            }
        } else {
            anchor = .trustedRoot
        }
        guard let from = chain.map(\.notBefore).max(), let until = chain.map(\.notAfter).min(), from <= until else {
            return nil
        }
        // A day in, when there is room: clear of any question about the first second.
        time = from.addingTimeInterval(86_400) <= until ? from.addingTimeInterval(86_400) : from
    }
}
