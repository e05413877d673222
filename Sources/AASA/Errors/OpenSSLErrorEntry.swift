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
    /// The C module's own explanation (a sentence for the user), when it raised this entry.
    public let explanation: String?

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
                    text: String(fixedCString: entry.text),
                    explanation: entry.from_caasa != 0 ? String(fixedCString: entry.detail) : nil))
        }
        return entries
    }

    /// The C module's explanation on the queue (the last one), or OpenSSL's last line; the queue
    /// is empty afterwards.
    static func drainExplanation() -> String? {
        let entries = drain()
        return entries.last(where: { $0.explanation?.isEmpty == false })?.explanation ?? entries.last?.text
    }
}
