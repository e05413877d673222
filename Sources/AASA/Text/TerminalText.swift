/// Text that is safe to show on a terminal, one line at a time: the output sanitiser every
/// text writer of the CLI uses on what it prints (issue #15).
///
/// A file name, a JSON key or value, a URL of a list, a certificate subject or an HTTP header
/// can be written by an attacker. Printed raw, a newline in it forges a second diagnostic line,
/// a carriage return overwrites the line on screen, an escape sequence sets the terminal's
/// title or colours, and a bidirectional override reorders what the reader sees. Escaped, each
/// such character is shown as `\u{…}` with its code point, and nothing else changes.
///
/// Escaped: the C0 controls (line ends and tab included: a line stays one line), DEL, the C1
/// controls, the line and paragraph separators (U+2028, U+2029), the bidirectional embeddings,
/// overrides and isolates (U+202A–U+202E, U+2066–U+2069), the byte-order mark (U+FEFF), and a
/// backslash that would otherwise read as the start of such an escape.
public enum TerminalText {
    /// `text` as one line with every character above escaped.
    public static func line(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if scalar == "\\" {
                // Only a backslash that starts "\u{" is doubled, so that an escape this function
                // writes cannot be forged, and other backslashes (paths, the JSON-style escapes
                // of lint messages) stay as they are.
                let startsEscape = index + 2 < scalars.count && scalars[index + 1] == "u" && scalars[index + 2] == "{"
                result += startsEscape ? "\\\\" : "\\"
            } else if isControl(scalar) {
                result += escape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `text` would show on a terminal exactly as it is, as one line.
    public static func isSafe(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: isControl)
    }

    /// The characters shown escaped.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: true
        default: false
        }
    }

    /// How an escaped character is shown: `\u{1B}`, its code point in upper-case hex.
    public static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\\" || isControl(scalar)
    }
}
