import Foundation

/// A signer certificate as the fleet summary counts it (`file.signature.signer` of an audit
/// record): kept once however many domains it signed for.
public struct FleetSigner: Hashable, Sendable {
    public let subject: String
    public let issuer: String
    public let notAfter: Date
    public let sha256Fingerprint: String?

    public init(subject: String, issuer: String, notAfter: Date, sha256Fingerprint: String?) {
        (self.subject, self.issuer, self.notAfter, self.sha256Fingerprint) =
            (subject, issuer, notAfter, sha256Fingerprint)
    }

    public init(_ certificate: CertificateSummary) {
        self.init(
            subject: certificate.subject, issuer: certificate.issuer, notAfter: certificate.notAfter,
            sha256Fingerprint: certificate.sha256Fingerprint)
    }
}
