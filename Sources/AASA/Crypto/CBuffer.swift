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
