import Foundation

/// The predefined substitution variables (iOS 14+). The character classes match exactly one
/// character; `region` and `lang` match one code from Foundation's lists.
public enum BuiltinVariable: String, Sendable, CaseIterable {
    /// `A`–`Z` and `a`–`z`.
    case alpha
    /// `A`–`Z`.
    case upper
    /// `a`–`z`.
    case lower
    /// ASCII letters and digits.
    case alnum
    /// `0`–`9`.
    case digit
    /// `0`–`9`, `A`–`F`, `a`–`f`.
    case xdigit
    /// ISO region codes as Foundation lists them (`US`, `GB`, `419`, …).
    case region
    /// ISO language codes as Foundation lists them (`en`, `fr`, `haw`, …).
    case lang

    /// For the character classes: whether `character` belongs to the class.
    public func contains(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        let isUpper = (0x41...0x5A).contains(ascii), isLower = (0x61...0x7A).contains(ascii)
        let isDigit = (0x30...0x39).contains(ascii)
        switch self {
        case .alpha: return isUpper || isLower
        case .upper: return isUpper
        case .lower: return isLower
        case .alnum: return isUpper || isLower || isDigit
        case .digit: return isDigit
        case .xdigit: return isDigit || (0x41...0x46).contains(ascii) || (0x61...0x66).contains(ascii)
        case .region, .lang: return false
        }
    }

    /// Whether the variable is a one-character class (as opposed to a list of codes).
    public var isCharacterClass: Bool { self != .region && self != .lang }

    /// For `region` and `lang`: the codes; empty for the character classes.
    public var codes: [String] {
        switch self {
        case .region: return Self.regionCodes
        case .lang: return Self.languageCodes
        default: return []
        }
    }

    private static let regionCodes = Locale.Region.isoRegions.map(\.identifier)
    private static let languageCodes = Locale.LanguageCode.isoLanguageCodes.map(\.identifier)
}
