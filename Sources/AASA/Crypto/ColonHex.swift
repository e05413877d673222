/// Bytes as uppercase hexadecimal pairs joined by colons ("AB:CD:…"), the form of
/// ``CertificateInfo/sha256Fingerprint`` and of `openssl x509 -fingerprint`.
///
/// Written by hand, not with `String(format:)`, which costs more than the rest of a
/// certificate's description.
func colonHex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    var text = [UInt8]()
    text.reserveCapacity(bytes.underestimatedCount * 3)
    for byte in bytes {
        if !text.isEmpty { text.append(UInt8(ascii: ":")) }
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
}
