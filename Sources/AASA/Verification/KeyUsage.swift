/// The names of X.509 keyUsage bits (RFC 5280 §4.2.1.3), as OpenSSL reports them.
enum KeyUsage {
    /// OpenSSL's KU_* bit values and RFC 5280's names, in RFC order.
    static let bits: [(UInt32, String)] = [
        (0x0080, "digitalSignature"), (0x0040, "nonRepudiation"), (0x0020, "keyEncipherment"),
        (0x0010, "dataEncipherment"), (0x0008, "keyAgreement"), (0x0004, "keyCertSign"), (0x0002, "cRLSign"),
        (0x0001, "encipherOnly"), (0x8000, "decipherOnly"),
    ]

    /// The names of the bits set in `value`.
    static func names(_ value: UInt32) -> [String] {
        bits.filter { value & $0.0 != 0 }.map(\.1)
    }
}
