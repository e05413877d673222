/// One entry of a detail's `components` array (iOS 13+): a pattern for each URL component.
///
/// ```json
/// { "/": "/products/*", "?": { "ref": "?*" }, "#": "*", "exclude": false,
///   "comment": "…", "caseSensitive": true, "percentEncoded": true }
/// ```
/// An omitted component means `*` (anything).
public struct ComponentRule: Sendable, Hashable {
    /// The query pattern: one pattern for the whole query, or per-item patterns.
    public enum QueryPattern: Sendable, Hashable {
        case string(Located<String>)
        /// Items in source order; a value that is not a string is kept as nil (the rule
        /// `query-value-not-string`: iOS then ignores the whole dictionary).
        case items([(name: String, value: Located<String>?)])

        public static func == (lhs: QueryPattern, rhs: QueryPattern) -> Bool {
            switch (lhs, rhs) {
            case (.string(let a), .string(let b)): return a == b
            case (.items(let a), .items(let b)):
                return a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.value == $1.value }
            default: return false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .string(let pattern): hasher.combine(pattern)
            case .items(let items):
                for item in items {
                    hasher.combine(item.name)
                    hasher.combine(item.value)
                }
            }
        }
    }

    /// Where the rule stands (`applinks.details[0].components[2]`).
    public var path: JSONPath
    public var position: TextPosition
    /// `/`: the path pattern.
    public var pathPattern: Located<String>?
    /// `?`: the query pattern.
    public var query: QueryPattern?
    /// `#`: the fragment pattern.
    public var fragment: Located<String>?
    /// `exclude`: a match stops the scan and keeps the URL out of the app.
    public var exclude: Bool
    public var comment: String?
    /// Per-rule matching settings.
    public var settings: MatchingDefaults
    /// The keys the rule takes from `defaults` (its detail's, else the domain's) because it
    /// has none of its own: `/`, `?`, `#`, `exclude`. Their values are already in the fields
    /// above, located where the defaults stand.
    public var inheritedKeys: [String] = []
    /// Whether the rule itself has an `exclude` key (of any value).
    var givesExclude = false
    /// Keys other than `/ ? # exclude comment caseSensitive percentEncoded`.
    public var unknownKeys: [UnknownKey]

    public init(
        path: JSONPath, position: TextPosition, pathPattern: Located<String>? = nil, query: QueryPattern? = nil,
        fragment: Located<String>? = nil, exclude: Bool = false, comment: String? = nil,
        settings: MatchingDefaults = MatchingDefaults(), unknownKeys: [UnknownKey] = []
    ) {
        self.path = path
        self.position = position
        self.pathPattern = pathPattern
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.comment = comment
        self.settings = settings
        self.unknownKeys = unknownKeys
    }

    /// The rule with the pattern keys it lacks taken from `defaults` (``MatchingDefaults``).
    func completed(by defaults: MatchingDefaults) -> ComponentRule {
        var rule = self
        if rule.pathPattern == nil, let inherited = defaults.pathPattern {
            rule.pathPattern = inherited
            rule.inheritedKeys.append("/")
        }
        if rule.query == nil, let inherited = defaults.query {
            rule.query = inherited
            rule.inheritedKeys.append("?")
        }
        if rule.fragment == nil, let inherited = defaults.fragment {
            rule.fragment = inherited
            rule.inheritedKeys.append("#")
        }
        if !givesExclude, let inherited = defaults.exclude {
            rule.exclude = inherited.value
            rule.inheritedKeys.append("exclude")
        }
        return rule
    }
}
