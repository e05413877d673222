/// The `applinks` service: universal links.
///
/// ```json
/// "applinks": {
///   "apps": [],                                  // legacy: required by iOS 12 and earlier, must be empty
///   "defaults": { "caseSensitive": true, "percentEncoded": true },   // iOS 14+
///   "details": [ { "appIDs": […], "components": […] } ],             // or the legacy dictionary form
///   "substitutionVariables": { "food": ["burrito", "taco"] }         // iOS 14+
/// }
/// ```
public struct AppLinks: Sendable, Hashable {
    /// The shape of `details`.
    public enum DetailsForm: String, Sendable, Hashable {
        /// An array of entries (current).
        case array
        /// An object keyed by app ID (legacy).
        case dictionary
        /// Absent, or of a wrong type.
        case missing
    }

    public var path: JSONPath
    public var position: TextPosition
    /// `apps` when present: the node, to check it is an empty array.
    public var apps: Located<[String]>?
    /// Whether `apps` is present (whatever its type).
    public var hasAppsKey: Bool
    public var defaults: MatchingDefaults
    /// Position of the `defaults` key, when present.
    public var defaultsPosition: TextPosition?
    public var detailsForm: DetailsForm
    public var details: [AppLinksDetail]
    /// `substitutionVariables`, in source order.
    public var substitutionVariables: [SubstitutionVariable]
    public var unknownKeys: [UnknownKey]

    public init(
        path: JSONPath, position: TextPosition, apps: Located<[String]>? = nil, hasAppsKey: Bool = false,
        defaults: MatchingDefaults = MatchingDefaults(), defaultsPosition: TextPosition? = nil,
        detailsForm: DetailsForm = .missing, details: [AppLinksDetail] = [],
        substitutionVariables: [SubstitutionVariable] = [], unknownKeys: [UnknownKey] = []
    ) {
        self.path = path
        self.position = position
        self.apps = apps
        self.hasAppsKey = hasAppsKey
        self.defaults = defaults
        self.defaultsPosition = defaultsPosition
        self.detailsForm = detailsForm
        self.details = details
        self.substitutionVariables = substitutionVariables
        self.unknownKeys = unknownKeys
    }
}

/// A custom substitution variable (iOS 14+): `"$(name)"` in a pattern stands for any of `values`.
public struct SubstitutionVariable: Sendable, Hashable {
    public var name: String
    public var path: JSONPath
    public var position: TextPosition
    public var values: [Located<String>]

    public init(name: String, path: JSONPath, position: TextPosition, values: [Located<String>]) {
        self.name = name
        self.path = path
        self.position = position
        self.values = values
    }
}

/// A service that is only a list of apps: `webcredentials`, `activitycontinuation`, `appclips`.
///
/// ```json
/// "webcredentials": { "apps": ["ABCDE12345.com.example.app"] }
/// ```
public struct AppList: Sendable, Hashable {
    public var path: JSONPath
    public var position: TextPosition
    /// `apps` (empty when absent or of a wrong type).
    public var apps: [Located<String>]
    public var unknownKeys: [UnknownKey]

    public init(path: JSONPath, position: TextPosition, apps: [Located<String>] = [], unknownKeys: [UnknownKey] = []) {
        self.path = path
        self.position = position
        self.apps = apps
        self.unknownKeys = unknownKeys
    }
}

extension AppLinks {
    /// Each substitution variable's values, by name (a repeated name: its last definition).
    var substitutionValues: [String: [String]] {
        var values: [String: [String]] = [:]
        for variable in substitutionVariables { values[variable.name] = variable.values.map(\.value) }
        return values
    }
}
