/// Escaping of text that may be hostile (file names, messages quoting file contents) for the
/// markup report formats: XML (JUnit) and Markdown. Characters that the format cannot hold at
/// all, or that would start markup, never reach the output as themselves.
enum ReportText {
    /// `text` for an XML attribute value or element content: `& < > " '` as entities, tab,
    /// line feed and carriage return as character references (so attribute values keep them),
    /// and the characters XML 1.0 cannot carry (other controls, U+FFFE, U+FFFF) as `\u{XX}`.
    static func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF
                    || (0x7F...0x9F).contains(scalar.value)
                {
                    out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// `text` as literal Markdown inline text on one line (a table cell or a list item): every
    /// ASCII punctuation character Markdown or a table gives meaning to is backslash-escaped,
    /// `<` and `>` and `&` become entities (no HTML), and line breaks and other control
    /// characters are written as `\u{XX}`.
    static func markdown(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\\", "`", "*", "_", "{", "}", "[", "]", "(", ")", "#", "+", "-", ".", "!", "|", "~", "\"", "'",
                "$", "%", ":", "=", "@", "^", ";", ",", "?", "/":
                out += "\\" + String(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
                    || scalar == "\u{2029}"
                {
                    out += "\\\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
