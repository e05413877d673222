import Foundation

extension Verifier {
    /// How many times verification of one file asks the ``VerificationOptions/issuerSource``
    /// for a missing issuer (one round per missing level of the chain).
    public static let maximumIssuerRounds = 4

    /// Verifies `message`; when its chain stops at a certificate whose issuer is missing and
    /// an ``VerificationOptions/issuerSource`` is set, asks it for that issuer and verifies
    /// again with what it gave added to the untrusted intermediates, up to
    /// ``maximumIssuerRounds`` times. The verdict is always that of a full verification.
    func verify(_ message: SignedData, kind: FileKind, at checkedAt: Date) -> VerificationResult {
        var result = verifyOnce(message, kind: kind, at: checkedAt)
        guard let source = options.issuerSource else { return result }
        var verifier = self
        var known = message.certificates + options.intermediates
        for _ in 0..<Self.maximumIssuerRounds {
            guard let lacking = Self.certificateLackingIssuer(result, among: known) else { break }
            let fingerprints = Set(known.map(\.info.sha256Fingerprint))
            let added = source.issuers(of: lacking).filter { !fingerprints.contains($0.info.sha256Fingerprint) }
            guard !added.isEmpty else { break }
            known += added
            verifier.options.intermediates += added
            result = verifier.verifyOnce(message, kind: kind, at: checkedAt)
        }
        return result
    }

    /// The certificate at the top of `result`'s chain when the chain failed because nothing
    /// known issued it: the chain is untrusted, its top certificate is not self-signed, and no
    /// certificate of `known` has its issuer's name. Nil otherwise.
    static func certificateLackingIssuer(_ result: VerificationResult, among known: [X509Certificate])
        -> X509Certificate?
    {
        let problems = [result.verdict] + result.chainProblems
        guard !result.isValid, problems.contains(where: { $0.code == "untrusted" }), let top = result.chain.last,
            !top.isSelfSigned, !known.contains(where: { $0.info.subject == top.issuer })
        else { return nil }
        return known.first { $0.info.sha256Fingerprint == top.sha256Fingerprint }
    }
}
