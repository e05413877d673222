// Units: the steps a compiled pattern is made of, and the one-character classes.

/// One step of a pattern: a literal byte (0...255), `?`, `*`, or a one-character class.
enum Unit {
    static let anyScalar: UInt16 = 256
    static let star: UInt16 = 257
    /// `classBase + CharacterClass.rawValue`.
    static let classBase: UInt16 = 258

    @inline(__always) static func isByte(_ unit: UInt16) -> Bool { unit < 256 }
}

/// The one-character built-in variables, as 128-bit ASCII sets.
enum CharacterClass: UInt16, CaseIterable, Sendable {
    case alpha, upper, lower, alnum, digit, xdigit

    init?(_ variable: BuiltinVariable, caseSensitive: Bool) {
        switch variable {
        case .alpha: self = .alpha
        // Case-insensitively the URL is lower-cased, so $(upper) and $(lower) mean "a letter".
        case .upper: self = caseSensitive ? .upper : .alpha
        case .lower: self = caseSensitive ? .lower : .alpha
        case .alnum: self = .alnum
        case .digit: self = .digit
        case .xdigit: self = .xdigit
        case .region, .lang: return nil
        }
    }

    var variable: BuiltinVariable {
        switch self {
        case .alpha: return .alpha
        case .upper: return .upper
        case .lower: return .lower
        case .alnum: return .alnum
        case .digit: return .digit
        case .xdigit: return .xdigit
        }
    }

    /// Bits 0–63 and 64–127 of each class, indexed by raw value.
    static let masks: [(low: UInt64, high: UInt64)] = allCases.map { characterClass in
        var low: UInt64 = 0, high: UInt64 = 0
        for byte in 0..<128 where characterClass.variable.contains(Character(Unicode.Scalar(UInt8(byte)))) {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
        return (low, high)
    }

    @inline(__always)
    static func contains(_ id: Int, _ byte: UInt8) -> Bool {
        if byte >= 128 { return false }
        let mask = masks[id]
        return byte < 64 ? (mask.low >> UInt64(byte)) & 1 == 1 : (mask.high >> UInt64(byte - 64)) & 1 == 1
    }
}

/// The number of bytes of the UTF-8 sequence a lead byte starts; 0 for a continuation byte.
@inline(__always)
func utf8SequenceLength(_ lead: UInt8) -> Int {
    if lead < 0x80 { return 1 }
    if lead < 0xC0 { return 0 }
    if lead < 0xE0 { return 2 }
    if lead < 0xF0 { return 3 }
    return 4
}
