// The C-interop helpers of the library, in one place: C buffers to Data, Data to (pointer,
// length), fixed C strings to String, and the owner of a parsed PKCS#7 message.
internal import CAASACrypto
import Foundation

extension Data {
    /// Takes the bytes of a C-owned buffer: copies them and frees (and zeroes) the buffer.
    init(consuming buffer: inout caasa_buffer) {
        defer { caasa_buffer_free(&buffer) }
        guard let bytes = buffer.data, buffer.length > 0 else {
            self = Data()
            return
        }
        self = Data(bytes: bytes, count: buffer.length)
    }

    /// Calls `body` with the bytes as (pointer, length), (nil, 0) when empty.
    func withCBytes<Result>(_ body: (UnsafeRawPointer?, Int) throws -> Result) rethrows -> Result {
        try withUnsafeBytes { raw in try body(raw.baseAddress, raw.count) }
    }
}

extension String {
    /// Decodes a NUL-terminated C `char[N]` field (imported as a tuple) as UTF-8.
    init<Tuple>(fixedCString tuple: Tuple) {
        self = withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// Owns a parsed PKCS#7 message (`caasa_pkcs7`): freed exactly once, when the last reference
/// goes, so that no initialiser frees by hand on its error paths.
final class PKCS7Handle: @unchecked Sendable {
    // @unchecked: the pointer is set once; the C functions that take it only read it.
    let pointer: OpaquePointer

    init(takingOwnership pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { caasa_pkcs7_free(pointer) }
}
