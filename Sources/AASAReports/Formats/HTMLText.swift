/// Text escaped for HTML element content and quoted attribute values (the HTML fleet report).
///
/// Written by hand: Foundation on Linux has no HTML escaper, and the five characters and the
/// visible form of control characters are all a report needs.
public enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references, and each control or bidi
    /// formatting character (which could hide or reorder what follows it) written as `\u{…}`.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default:
                if isHidden(scalar) {
                    escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped
    }

    /// C0 and C1 controls, the Arabic letter mark, the bidi marks, embeddings, overrides and
    /// isolates, and the Unicode line and paragraph separators.
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
            return true
        default:
            return false
        }
    }
}
