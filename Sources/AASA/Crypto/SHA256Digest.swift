// SHA-256 of a byte buffer, through OpenSSL.
internal import CAASACrypto

/// SHA-256 through OpenSSL (`EVP_Digest`), for stable identities such as
/// ``FindingFingerprint``; signatures never go through it.
public enum SHA256Digest {
    /// The digest of `bytes` in lowercase hexadecimal (64 characters).
    public static func hex(_ bytes: [UInt8]) throws(AASAError) -> String {
        let digest = try digest(bytes)
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The digest of `bytes` as a certificate's fingerprint is written
    /// (``CertificateInfo/sha256Fingerprint``: "AB:CD:…").
    static func fingerprint(_ bytes: [UInt8]) throws(AASAError) -> String { colonHex(try digest(bytes)) }

    /// The 32 bytes of the digest of `bytes`.
    public static func digest(_ bytes: [UInt8]) throws(AASAError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        let status = bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                caasa_sha256(input.baseAddress, input.count, output.baseAddress!)
            }
        }
        guard status == 1 else { throw AASAError(.internalError, "OpenSSL could not compute a SHA-256 digest") }
        return digest
    }
}
