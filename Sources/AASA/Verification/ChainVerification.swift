import Foundation

/// What ``Verifier/verifyChain(_:)`` found for a certificate chain checked on its own, such as
/// the one a TLS server presents: the verdict and the chain as built.
public struct ChainVerificationResult: Sendable {
    /// `valid`, or why not: `untrusted`, `expired`, `not-yet-valid`, `wrong-purpose`,
    /// `host-mismatch`, `expiring-soon`, or `malformed` when there is no certificate.
    public let verdict: VerificationVerdict
    /// The time the certificates were checked at.
    public let checkedAt: Date
    /// The chain as OpenSSL built it, leaf first (also when it failed; empty when it could not
    /// be started).
    public let chain: [CertificateInfo]
    /// What the verification policy accepted with a warning (SHA-1 signatures, RSA or DSA keys
    /// under 2,048 bits, anything weak allowed by ``VerificationOptions/allowWeakCrypto``).
    public var warnings: [PolicyFinding] = []

    /// Whether the chain is valid.
    public var isValid: Bool { verdict.isValid }
}

extension Verifier {
    /// Checks a certificate chain on its own, the way a TLS client checks a server's: the first
    /// certificate is the leaf, the others are untrusted intermediates (as a server sends them).
    ///
    /// The ``VerificationOptions`` apply as for a signer: the purpose (``CertificatePurpose/sslServer``
    /// for a TLS server), the time, the host the leaf must be valid for, partial chains, extra
    /// intermediates and the expiry horizon.
    /// - Parameter certificates: The leaf, then any intermediates.
    /// - Returns: The verdict; never throws (a chain that cannot be checked is `untrusted`).
    public func verifyChain(_ certificates: [X509Certificate]) -> ChainVerificationResult {
        let checkedAt = options.time ?? Date()
        guard let leaf = certificates.first else {
            return ChainVerificationResult(verdict: .malformed("no certificate"), checkedAt: checkedAt, chain: [])
        }
        let leafStack: CertificateStack
        let untrusted: CertificateStack
        do {
            leafStack = try CertificateStack([leaf])
            untrusted = try CertificateStack(Array(certificates.dropFirst()) + options.intermediates)
        } catch {
            return ChainVerificationResult(verdict: .malformed("\(error)"), checkedAt: checkedAt, chain: [])
        }
        // A TLS server's certificate may allow keyEncipherment only: no keyUsage requirement here.
        let check = checkChain(
            of: leafStack, index: 0, untrusted: untrusted, at: checkedAt, requireDigitalSignature: false)
        if let failure = check.failure {
            return ChainVerificationResult(
                verdict: failure, checkedAt: checkedAt, chain: check.chain, warnings: check.warnings)
        }
        if let days = options.minimumDaysValid,
            let soonest = check.chain.min(by: { $0.notAfter < $1.notAfter }),
            soonest.notAfter.timeIntervalSince(checkedAt) < TimeInterval(days) * 86_400
        {
            return ChainVerificationResult(
                verdict: .expiringSoon(days: days, certificate: soonest), checkedAt: checkedAt, chain: check.chain,
                warnings: check.warnings)
        }
        return ChainVerificationResult(
            verdict: .valid, checkedAt: checkedAt, chain: check.chain, warnings: check.warnings)
    }
}
