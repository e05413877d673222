// The C module's quick signature check, seen from Swift (for tests).
internal import CAASACrypto

/// The signature check that verifies the common shape of file without PKCS7_verify's per-call
/// algorithm fetches and global locks (`quickverify.c`; docs/performance.md, "Many cores").
/// It is always on; tests turn it off to compare its verdicts with PKCS7_verify's alone.
enum QuickSignatureCheck {
    /// `body`'s result with the quick check off on the calling thread.
    static func disabled<T>(_ body: () throws -> T) rethrows -> T {
        caasa_quick_verify_set_enabled(0)
        defer { caasa_quick_verify_set_enabled(1) }
        return try body()
    }

    /// How many signatures the quick check has verified on the calling thread.
    static var verifiedOnThisThread: UInt { UInt(caasa_quick_verify_count()) }
}
