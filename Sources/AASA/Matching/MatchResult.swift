/// What a universal-link URL does on a device with the apps of an AASA file installed.
public struct URLMatchResult: Sendable, Codable, Hashable {
    /// The URL as given.
    public var url: String
    /// The first app, in document order, whose verdict is ``AppVerdict/Verdict/match``.
    public var appID: String?
    /// True when no app matched and at least one app's verdict is ``AppVerdict/Verdict/exclude``.
    public var excluded: Bool
    /// Every applinks app, in document order of first appearance.
    public var apps: [AppVerdict]
    /// Why the URL could not be parsed (``apps`` is then empty).
    public var error: String?

    public init(
        url: String, appID: String? = nil, excluded: Bool = false, apps: [AppVerdict] = [], error: String? = nil
    ) {
        self.url = url
        self.appID = appID
        self.excluded = excluded
        self.apps = apps
        self.error = error
    }

    private enum CodingKeys: String, CodingKey {
        case url, appID, excluded, apps, error
    }

    /// `appID` is written as an explicit `null` when no app matches; `error` only when set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(appID, forKey: .appID)
        try container.encode(excluded, forKey: .excluded)
        try container.encode(apps, forKey: .apps)
        try container.encodeIfPresent(error, forKey: .error)
    }
}

/// One app's verdict for a URL.
public struct AppVerdict: Sendable, Codable, Hashable {
    public enum Verdict: String, Sendable, Codable, Hashable {
        /// A rule matched: the app opens the URL.
        case match
        /// An `exclude` rule or a `NOT` path matched first: the app never opens the URL.
        case exclude
        /// No rule matched.
        case noMatch = "no_match"
    }

    public var appID: String
    public var verdict: Verdict
    /// Why, when asked for (`explain: true`).
    public var explanation: MatchExplanation?

    public init(appID: String, verdict: Verdict, explanation: MatchExplanation? = nil) {
        self.appID = appID
        self.verdict = verdict
        self.explanation = explanation
    }
}

/// Which entry and rule decided, or for a miss, the closest rule and where it failed.
public struct MatchExplanation: Sendable, Codable, Hashable {
    /// JSON path of the deciding entry (the first naming the app), e.g. `applinks.details[1]`.
    public var entry: String?
    /// JSON path of the deciding rule (`…components[2]`, `…paths[0]`), or for a miss the closest one.
    public var rule: String?
    /// One sentence for a person.
    public var summary: String
    /// For a miss: the first component of the closest rule that failed: `/`, `?`, `#`, or
    /// `?name` for a query item.
    public var failedComponent: String?
    /// The URL's value for that component (percent-decoded when the rule says
    /// `percentEncoded: false`); nil when the URL has no such component or query item.
    public var value: String?
    /// The pattern, as written in the file, that the value failed against.
    public var pattern: String?

    public init(
        entry: String? = nil, rule: String? = nil, summary: String, failedComponent: String? = nil,
        value: String? = nil, pattern: String? = nil
    ) {
        self.entry = entry
        self.rule = rule
        self.summary = summary
        self.failedComponent = failedComponent
        self.value = value
        self.pattern = pattern
    }
}
