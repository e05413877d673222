/// Pattern-matching settings (iOS 14+): in `applinks.defaults`, a detail's `defaults`, or on a
/// component. The innermost setting wins; both default to true.
///
/// ```json
/// "defaults": { "caseSensitive": false, "percentEncoded": true }
/// ```
public struct MatchingDefaults: Sendable, Hashable {
    /// Whether patterns match case-sensitively (nil: inherited).
    public var caseSensitive: Bool?
    /// Whether URL components are matched percent-encoded, as they appear in the URL (nil: inherited).
    public var percentEncoded: Bool?
    /// Keys present that belong in a component, not in defaults (`/`, `?`, `#`, `exclude`).
    public var patternKeys: [Located<String>]

    public init(caseSensitive: Bool? = nil, percentEncoded: Bool? = nil, patternKeys: [Located<String>] = []) {
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
        self.patternKeys = patternKeys
    }

    /// These settings, with unset values taken from `outer`.
    public func inheriting(from outer: MatchingDefaults) -> MatchingDefaults {
        MatchingDefaults(
            caseSensitive: caseSensitive ?? outer.caseSensitive, percentEncoded: percentEncoded ?? outer.percentEncoded)
    }
}
