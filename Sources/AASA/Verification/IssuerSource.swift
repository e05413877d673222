import Foundation

/// Somewhere a ``Verifier`` may ask for the issuer of a certificate when the chain it builds
/// stops at that certificate because no certificate it knows issued it (the signed file left
/// its intermediate out, and `--intermediates` did not give it).
///
/// The library never fetches anything itself: `AASAAudit`'s `AIAIssuerFetcher` is the source
/// that follows the certificate's authorityInfoAccess caIssuers URIs (`--fetch-issuers`).
///
/// Whatever a source returns is only ever an **untrusted** intermediate, exactly like the
/// certificates the file embeds: the chain must still end at a trust anchor of the
/// ``TrustStore``, so a forged certificate can only fail to chain.
public protocol IssuerSource: Sendable {
    /// Certificates that may have issued `certificate` (empty when there are none). Called
    /// from the verifying thread, which it may block; at most ``Verifier/maximumIssuerRounds``
    /// times for one file.
    func issuers(of certificate: X509Certificate) -> [X509Certificate]
}
