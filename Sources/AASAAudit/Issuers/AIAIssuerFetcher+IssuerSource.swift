import AASA
import Foundation

extension AIAIssuerFetcher: IssuerSource {
    /// The caIssuers URIs tried per certificate at most, in the order it lists them.
    public static let maximumURIsPerCertificate = 4

    /// The certificates at the first of `certificate`'s caIssuers URIs that gives any (each
    /// URI fetched once per fetcher); empty when none does or it lists none.
    public func issuers(of certificate: X509Certificate) -> [X509Certificate] {
        for uri in certificate.caIssuersURIs.prefix(Self.maximumURIsPerCertificate) {
            let certificates = fetch(uri).certificates
            if !certificates.isEmpty { return certificates }
        }
        return []
    }
}
