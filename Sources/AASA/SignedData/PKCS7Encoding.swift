internal import CAASACrypto

/// How a PKCS#7 message is serialised.
public enum PKCS7Encoding: String, Sendable, Codable, CaseIterable {
    /// Binary DER (or BER): the AASA recipe's `-outform DER`.
    case der
    /// Base64 between `-----BEGIN PKCS7-----` lines (also `PKCS #7 SIGNED DATA` and `CMS`).
    case pem
    /// An S/MIME message: MIME headers and a base64 body (`openssl smime`'s default output).
    case smime

    var cValue: caasa_encoding {
        switch self {
        case .der: return .CAASA_ENCODING_DER
        case .pem: return .CAASA_ENCODING_PEM
        case .smime: return .CAASA_ENCODING_SMIME
        }
    }
}
