// Quoting values from a file inside messages, explanations and JSON paths. The values are
// untrusted (anything a file holds), so every quoted value goes through one escaper, and a
// message or a line of text output stays one line whatever the file holds.

/// `text` as a JSON string literal, whole: for explanations and diffs, which must show a
/// pattern or a value exactly (see ``quotedShortened(_:limit:)`` for lint messages).
///
/// `"` and `\` are escaped, and every character that would break the line or reach the
/// terminal as a control is written as an escape: `\n`, `\r`, `\t`, and `\uXXXX` for the other
/// C0 controls, DEL, the C1 controls, U+2028, U+2029 and the byte-order mark.
func quotedInFull(_ text: String) -> String {
    var result = "\""
    appendEscaped(text, to: &result)
    return result + "\""
}

/// `text` as a JSON string literal for a lint message, shortened in the middle when it has
/// more than `limit` characters (the first `limit / 2`, "…", the last `limit / 2 - 1`), and
/// escaped as ``quotedInFull(_:)`` escapes.
func quotedShortened(_ text: String, limit: Int = 80) -> String {
    guard text.count > limit else { return quotedInFull(text) }
    return quotedInFull(String(text.prefix(limit / 2)) + "…" + String(text.suffix(limit / 2 - 1)))
}

/// Whether `text` holds a character that ``quotedInFull(_:)`` writes as an escape.
func containsCharacterToEscape(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0 == "\"" || $0 == "\\" || isWrittenAsUnicodeEscape($0) }
}

/// `text` with `"`, `\` and the characters of ``isWrittenAsUnicodeEscape(_:)`` escaped,
/// appended to `result` (without the surrounding quotes).
private func appendEscaped(_ text: String, to result: inout String) {
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case _ where isWrittenAsUnicodeEscape(scalar): result += unicodeEscape(scalar)
        default: result.unicodeScalars.append(scalar)
        }
    }
}

/// C0 controls, DEL, C1 controls (NEL among them), the line and paragraph separators and the
/// byte-order mark: characters that end a line or drive a terminal, or that cannot be seen.
private func isWrittenAsUnicodeEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF: return true
    default: return false
    }
}

/// `\u001B`: four upper-case hex digits (every escaped scalar is below U+10000).
private func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
