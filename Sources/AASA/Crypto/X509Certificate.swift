internal import CAASACrypto
import Foundation

/// An X.509 certificate, held by OpenSSL and described by ``info``.
public final class X509Certificate: Sendable, CustomStringConvertible {
    /// A single-element OpenSSL list holding the certificate.
    let stack: CertificateStack
    /// What the certificate says.
    public let info: CertificateInfo

    init(stack: CertificateStack) throws {
        precondition(stack.count == 1, "an X509Certificate holds exactly one certificate")
        self.stack = stack
        self.info = try CertificateInfo(stack: stack, index: 0)
    }

    /// Reads every certificate in `data`: PEM text with one or more CERTIFICATE blocks (other
    /// blocks are skipped), or one or more concatenated DER certificates.
    /// - Throws: ``AASAError`` `.noCertificate` or `.unreadableCertificate`.
    public static func load(from data: Data) throws -> [X509Certificate] {
        try CertificateStack.reading(data).certificates()
    }

    /// The DER encoding.
    public var derRepresentation: Data {
        get throws {
            var buffer = caasa_buffer()
            let status = caasa_certs_der(stack.pointer, 0, &buffer)
            guard status == .CAASA_OK else { throw AASAError.fromStatus(status, "cannot encode certificate") }
            return Data(consuming: &buffer)
        }
    }

    /// The PEM encoding (`-----BEGIN CERTIFICATE-----`, base64 in lines of 64, LF line ends),
    /// as `openssl x509` writes it.
    public var pemRepresentation: String {
        get throws {
            let base64 = try derRepresentation.base64EncodedString(options: [
                .lineLength64Characters, .endLineWithLineFeed,
            ])
            return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
        }
    }

    /// Whether `key` is this certificate's private key.
    public func matches(_ key: PrivateKey) -> Bool {
        caasa_certs_match_key(stack.pointer, 0, key.pointer) == 1
    }

    /// Whether the certificate is valid for `host` as TLS checks it: a subjectAltName DNS entry,
    /// with a wildcard only as the whole left-most label; the subject CN is not consulted.
    public func isValid(forHost host: String) -> Bool {
        caasa_certs_check_host(stack.pointer, 0, host) == 1
    }

    public var description: String { info.subject }
}
