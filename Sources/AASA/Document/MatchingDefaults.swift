/// The defaults of pattern matching (iOS 14+): `applinks.defaults` (the domain) or a detail's
/// `defaults` (its apps). Apple documents the object as "a subclass of components [that] can
/// contain any of its properties", at three levels (domain, app, URL), the more specific
/// overriding the less (developer.apple.com/documentation/bundleresources/applinks/defaults-swift.dictionary):
/// a rule without its own `/`, `?`, `#` or `exclude` takes the detail's, else the domain's.
/// `caseSensitive` and `percentEncoded` default to true, the patterns to `*`, `exclude` to false.
///
/// ```json
/// "defaults": { "caseSensitive": false, "percentEncoded": true }
/// ```
public struct MatchingDefaults: Sendable, Hashable {
    /// Whether patterns match case-sensitively (nil: inherited).
    public var caseSensitive: Bool?
    /// Whether URL components are matched percent-encoded, as they appear in the URL (nil: inherited).
    public var percentEncoded: Bool?
    /// `/`, `?`, `#` and `exclude` given as defaults (nil: inherited), for the rules without them.
    public var pathPattern: Located<String>?
    public var query: ComponentRule.QueryPattern?
    public var fragment: Located<String>?
    public var exclude: Located<Bool>?
    /// The pattern keys present (`/`, `?`, `#`, `exclude`), where they stand.
    public var patternKeys: [Located<String>]

    public init(
        caseSensitive: Bool? = nil, percentEncoded: Bool? = nil, pathPattern: Located<String>? = nil,
        query: ComponentRule.QueryPattern? = nil, fragment: Located<String>? = nil, exclude: Located<Bool>? = nil,
        patternKeys: [Located<String>] = []
    ) {
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
        self.pathPattern = pathPattern
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.patternKeys = patternKeys
    }

    /// These settings, with unset values taken from `outer`.
    public func inheriting(from outer: MatchingDefaults) -> MatchingDefaults {
        MatchingDefaults(
            caseSensitive: caseSensitive ?? outer.caseSensitive, percentEncoded: percentEncoded ?? outer.percentEncoded,
            pathPattern: pathPattern ?? outer.pathPattern, query: query ?? outer.query,
            fragment: fragment ?? outer.fragment, exclude: exclude ?? outer.exclude)
    }
}
