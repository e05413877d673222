import AASA
import Foundation

/// Reads the body of a caIssuers answer: one DER certificate (RFC 5280 §4.2.2.1's
/// `application/pkix-cert`), a PKCS#7 certs-only bundle (`application/pkcs7-mime`, DER or PEM),
/// or PEM CERTIFICATE blocks, which some servers send instead. The content type is not
/// trusted: the bytes decide.
enum IssuerCertificates {
    /// The certificates in `body` and the encoding they came in, or why there are none.
    static func read(_ body: Data) -> Result<(certificates: [X509Certificate], format: String), IssuerFetchFailure> {
        guard !body.isEmpty else { return .failure(.notCertificates("empty body")) }
        let detection = FileKindDetector.detect(body)
        if let message = detection.message {
            guard !message.certificates.isEmpty else {
                return .failure(.notCertificates("a PKCS#7 message without certificates"))
            }
            return .success((message.certificates, "PKCS#7"))
        }
        let isPEM = body.range(of: Data("-----BEGIN CERTIFICATE-----".utf8)) != nil
        do {
            let certificates = try X509Certificate.load(from: body)
            guard !certificates.isEmpty else { return .failure(.notCertificates("no certificate in it")) }
            return .success((certificates, isPEM ? "PEM" : "DER"))
        } catch {
            return .failure(.notCertificates("not DER, PEM or PKCS#7 certs-only"))
        }
    }
}
