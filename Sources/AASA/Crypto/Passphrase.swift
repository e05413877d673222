internal import CAASACrypto
import Foundation

/// A passphrase for an encrypted key or PKCS#12 bundle. Its bytes are wiped when it goes away.
public final class Passphrase: @unchecked Sendable {
    // @unchecked: the buffer is written only in init and deinit.
    private let bytes: UnsafeMutableRawBufferPointer

    /// Copies the passphrase's UTF-8 bytes.
    public init(_ string: String) {
        var utf8 = Array(string.utf8)
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(utf8.count, 1), alignment: 1)
        bytes.copyBytes(from: utf8)
        count = utf8.count
        utf8.withUnsafeMutableBytes { caasa_cleanse($0.baseAddress, $0.count) }
    }

    /// Copies raw bytes (e.g. a passphrase file's first line).
    public init(bytes source: some Collection<UInt8>) {
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 1)
        bytes.copyBytes(from: source)
        count = source.count
    }

    /// The number of bytes.
    public let count: Int

    func withBytes<Result>(_ body: (UnsafeRawPointer, Int) throws -> Result) rethrows -> Result {
        try body(UnsafeRawPointer(bytes.baseAddress!), count)
    }

    deinit {
        caasa_cleanse(bytes.baseAddress, bytes.count)
        bytes.deallocate()
    }
}
