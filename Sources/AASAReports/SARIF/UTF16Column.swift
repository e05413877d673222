import Foundation

/// Converts aasa's byte columns (``AASA/DiagnosticLocation/column``) to the UTF-16 code-unit
/// columns SARIF's `utf16CodeUnits` column kind means, from the text of the line itself.
enum UTF16Column {
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The 1-based UTF-16 column of the 1-based byte `column` on 1-based `line` of `json`, the
    /// text the linter read (a leading byte-order mark is skipped, as the linter skips it).
    /// Lines end at LF, as the linter counts them. Bytes that are not UTF-8 count one unit each
    /// (the U+FFFD a viewer shows). Nil when the line or column is not in the text.
    static func of(line: Int, byteColumn column: Int, in json: Data) -> Int? {
        guard line >= 1, column >= 1 else { return nil }
        return json.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0
            var current = 1
            while current < line {
                guard let newline = bytes[start...].firstIndex(of: 0x0A) else { return nil }
                start = newline + 1
                current += 1
            }
            let end = start + column - 1
            // The column just after the last byte is a position too (an unexpected end of input).
            guard end <= bytes.count else { return nil }
            let prefix = UnsafeBufferPointer(rebasing: bytes[start..<end])
            guard !prefix.contains(0x0A) else { return nil }
            return String(decoding: prefix, as: UTF8.self).utf16.count + 1
        }
    }
}
