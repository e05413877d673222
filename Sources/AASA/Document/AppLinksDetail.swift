/// One entry of `applinks.details`: which apps, and which URLs they handle.
///
/// Modern (iOS 13+):
/// ```json
/// { "appIDs": ["ABCDE12345.com.example.app"], "components": [ { "/": "/help/*" } ], "defaults": { … } }
/// ```
/// Legacy (iOS 9–12), still read by every iOS: `appID` (one identifier) and `paths`
/// (`["/help/*", "NOT /private/*"]`); in the legacy dictionary form of `details`, the app ID is
/// the key and the entry holds only `paths`. iOS 13+ ignores `paths` when `components` is present.
public struct AppLinksDetail: Sendable, Hashable {
    /// Where the entry stands (`applinks.details[0]`, or `applinks.details.ABCDE12345.com.example.app`).
    public var path: JSONPath
    public var position: TextPosition
    /// `appIDs` (nil when absent).
    public var appIDs: [Located<String>]?
    /// `appID`, or the key of a dictionary-form entry (nil when absent).
    public var appID: Located<String>?
    /// Whether the entry came from the legacy dictionary form of `details`.
    public var fromDictionary: Bool
    /// `components` (nil when absent; an empty array matches nothing).
    public var components: [ComponentRule]?
    /// Legacy `paths` (nil when absent).
    public var paths: [Located<String>]?
    /// The entry's `defaults`.
    public var defaults: MatchingDefaults
    public var unknownKeys: [UnknownKey]

    /// The app identifiers the entry names: `appIDs` when present, else `appID` (iOS 13+ reads
    /// `appIDs` first; older systems only know `appID`).
    public var effectiveAppIDs: [Located<String>] {
        if let appIDs { return appIDs }
        return appID.map { [$0] } ?? []
    }

    /// Every identifier the entry names, `appIDs` and `appID` together (for checks).
    public var allAppIDs: [Located<String>] { (appIDs ?? []) + (appID.map { [$0] } ?? []) }

    public init(
        path: JSONPath, position: TextPosition, appIDs: [Located<String>]? = nil, appID: Located<String>? = nil,
        fromDictionary: Bool = false, components: [ComponentRule]? = nil, paths: [Located<String>]? = nil,
        defaults: MatchingDefaults = MatchingDefaults(), unknownKeys: [UnknownKey] = []
    ) {
        self.path = path
        self.position = position
        self.appIDs = appIDs
        self.appID = appID
        self.fromDictionary = fromDictionary
        self.components = components
        self.paths = paths
        self.defaults = defaults
        self.unknownKeys = unknownKeys
    }
}
