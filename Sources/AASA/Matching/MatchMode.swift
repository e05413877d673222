/// How a rule reads the URL: bit 0 percent-decodes, bit 1 lower-cases.
enum MatchMode {
    static let raw = 0
    static let decode = 1
    static let lowercase = 2

    static func of(_ settings: MatchingDefaults) -> Int {
        ((settings.percentEncoded ?? true) ? 0 : decode) | ((settings.caseSensitive ?? true) ? 0 : lowercase)
    }
}
