internal import CAASACrypto
import Foundation

/// What a certificate says, as plain values.
public struct CertificateInfo: Hashable, Sendable, Codable {
    /// The subject, e.g. "C=US, O=Example, CN=example.com".
    public var subject: String
    /// The issuer, in the same form.
    public var issuer: String
    /// The serial number, upper-case hexadecimal.
    public var serialNumber: String
    public var notBefore: Date
    public var notAfter: Date
    /// subjectAltName entries as "DNS:example.com", "IP:192.0.2.1", "email:…", "URI:…".
    public var subjectAlternativeNames: [String]
    /// extendedKeyUsage purposes ("serverAuth", "clientAuth", …); `nil` when the extension is absent.
    public var extendedKeyUsage: [String]?
    /// "RSA", "EC", "ED25519", …
    public var keyType: String
    public var keyBits: Int
    /// The EC curve ("prime256v1", "secp384r1"), `nil` for other keys.
    public var curve: String?
    /// The certificate's own signature algorithm ("sha256WithRSAEncryption").
    public var signatureAlgorithm: String
    /// basicConstraints CA:TRUE.
    public var isCertificateAuthority: Bool
    /// Issued by itself and signed with its own key.
    public var isSelfSigned: Bool
    /// SHA-256 of the DER, upper-case hex pairs joined by ":".
    public var sha256Fingerprint: String
    /// SHA-1 of the DER, upper-case hex pairs joined by ":".
    public var sha1Fingerprint: String

    /// The DNS names among the ``subjectAlternativeNames``.
    public var dnsNames: [String] {
        subjectAlternativeNames.compactMap { $0.hasPrefix("DNS:") ? String($0.dropFirst(4)) : nil }
    }

    /// "RSA 2048", "EC P-256 (prime256v1)".
    public var keyDescription: String {
        guard let curve else { return "\(keyType) \(keyBits)" }
        let nist = ["prime256v1": "P-256", "secp384r1": "P-384", "secp521r1": "P-521"][curve]
        return nist.map { "\(keyType) \($0) (\(curve))" } ?? "\(keyType) \(curve)"
    }

    /// Whether `date` lies within notBefore ... notAfter.
    public func isValid(at date: Date) -> Bool { notBefore <= date && date <= notAfter }

    init(stack: CertificateStack, index: Int) throws {
        var pointer: UnsafeMutablePointer<caasa_cert_info>?
        let status = caasa_certs_info(stack.pointer, index, &pointer)
        guard status == .CAASA_OK, let pointer else {
            throw AASAError.fromStatus(status, "cannot read certificate")
        }
        defer { caasa_cert_info_free(pointer) }
        let raw = pointer.pointee
        func lines(_ text: UnsafeMutablePointer<CChar>?) -> [String]? {
            guard let text else { return nil }
            let string = String(cString: text)
            return string.isEmpty
                ? [] : string.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        func hex<T>(_ tuple: T) -> String { withUnsafeBytes(of: tuple) { colonHex($0) } }
        subject = String(cString: raw.subject)
        issuer = String(cString: raw.issuer)
        serialNumber = String(cString: raw.serial)
        notBefore = Date(timeIntervalSince1970: TimeInterval(raw.not_before))
        notAfter = Date(timeIntervalSince1970: TimeInterval(raw.not_after))
        subjectAlternativeNames = lines(raw.dns_names) ?? []
        extendedKeyUsage = lines(raw.key_usage_ext)
        keyType = String(cString: raw.key_type)
        keyBits = Int(raw.key_bits)
        curve = raw.curve.map { String(cString: $0) }
        signatureAlgorithm = String(cString: raw.signature_algorithm)
        isCertificateAuthority = raw.is_ca != 0
        isSelfSigned = raw.self_signed != 0
        sha256Fingerprint = hex(raw.sha256)
        sha1Fingerprint = hex(raw.sha1)
    }
}
