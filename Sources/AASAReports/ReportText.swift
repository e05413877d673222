import AASA

/// Escaping of text that may be hostile (file names, messages quoting file contents) for the
/// markup report formats: XML (JUnit) and Markdown. Characters that the format cannot hold at
/// all, or that would start markup, never reach the output as themselves.
public enum ReportText {
    /// `text` for an XML attribute value or element content (and an HTML one: the fleet
    /// report's page uses it too): `& < > " '` as entities, tab,
    /// line feed and carriage return as character references (so attribute values keep them),
    /// and the characters XML 1.0 cannot carry (other controls, U+FFFE, U+FFFF) and the
    /// bidirectional controls (``TerminalText/isControl(_:)``) as `\u{XX}`.
    public static func xml(_ text: String) -> String {
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
                if TerminalText.isControl(scalar) || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += TerminalText.escape(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// `text` as literal Markdown inline text on one line (a table cell or a list item): every
    /// ASCII punctuation character Markdown or a table gives meaning to is backslash-escaped,
    /// `<` and `>` and `&` become entities (no HTML), and line breaks, other control characters
    /// and the bidirectional controls (``TerminalText/isControl(_:)``) are written as `\u{XX}`.
    public static func markdown(_ text: String) -> String {
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
                if TerminalText.isControl(scalar) {
                    out += "\\" + TerminalText.escape(scalar)  // the backslash escaped for Markdown
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
