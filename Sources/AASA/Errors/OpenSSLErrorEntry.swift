internal import CAASACrypto

/// One line of OpenSSL's error queue, kept so that an ``AASAError`` can show what OpenSSL said.
public struct OpenSSLErrorEntry: Hashable, Sendable, CustomStringConvertible {
    /// OpenSSL's packed error code.
    public let code: UInt
    /// The library part of the code (`ERR_GET_LIB`).
    public let library: Int32
    /// The reason part of the code (`ERR_GET_REASON`).
    public let reason: Int32
    /// OpenSSL's text: "library: reason (extra data)".
    public let text: String

    public var description: String { text }
}

/// Reads and empties this thread's OpenSSL error queue.
enum OpenSSLErrorQueue {
    /// Every entry on the queue, oldest first; the queue is empty afterwards.
    static func drain() -> [OpenSSLErrorEntry] {
        var entries: [OpenSSLErrorEntry] = []
        var entry = caasa_error_entry()
        while caasa_error_pop(&entry) == 1 {
            entries.append(
                OpenSSLErrorEntry(
                    code: entry.code, library: entry.library, reason: entry.reason,
                    text: String(fixedCString: entry.text)))
        }
        return entries
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
