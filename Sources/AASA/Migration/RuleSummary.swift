/// One rule as it is matched: patterns and the settings in effect. Legacy paths are described
/// as the rule they stand for.
public struct RuleSummary: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Source: String, Sendable, Codable {
        case components, paths
    }

    /// A `?` pattern: the whole query, or per-item patterns (a repeated name: the last counts).
    public enum Query: Sendable, Hashable {
        case pattern(String)
        case items([Item])
    }

    public struct Item: Sendable, Hashable {
        public var name: String
        public var pattern: String
    }

    /// JSON path of the rule in its document.
    public var location: String
    public var source: Source
    /// `/` (a legacy path without `NOT `).
    public var path: String?
    /// `?`; nil also when iOS ignores the dictionary (a value that is not a string).
    public var query: Query?
    /// `#`.
    public var fragment: String?
    public var exclude: Bool
    /// In effect, after `defaults` (always true for a legacy path).
    public var caseSensitive: Bool
    /// In effect, after `defaults` (always true for a legacy path).
    public var percentEncoded: Bool
    /// A legacy path as written (`NOT ` included).
    public var written: String?

    init(component rule: ComponentRule, defaults: MatchingDefaults) {
        let settings = rule.settings.inheriting(from: defaults)
        location = rule.path.description
        source = .components
        path = rule.pathPattern?.value
        switch rule.query {
        case nil: query = nil
        case .string(let pattern)?: query = .pattern(pattern.value)
        case .items(let pairs)?:
            if pairs.allSatisfy({ $0.value != nil }) {
                var items: [Item] = []
                for pair in pairs {
                    items.removeAll { $0.name == pair.name }
                    items.append(Item(name: pair.name, pattern: pair.value!.value))
                }
                query = .items(items)
            } else {
                query = nil
            }
        }
        fragment = rule.fragment?.value
        exclude = rule.exclude
        caseSensitive = settings.caseSensitive ?? true
        percentEncoded = settings.percentEncoded ?? true
        written = nil
    }

    init(legacyPath element: Located<String>) {
        let isNot = element.value.hasPrefix("NOT ")
        location = element.path.description
        source = .paths
        path = isNot ? String(element.value.dropFirst(4)) : element.value
        query = nil
        fragment = nil
        exclude = isNot
        caseSensitive = true
        percentEncoded = true
        written = element.value
    }

    /// What makes two rules the same rule: patterns (lower-cased when matching is
    /// case-insensitive; query items in name order), exclude and settings. A legacy path with
    /// `$(` is literal text, unlike the same text in a component.
    struct Key: Hashable {
        var path: String?
        var queryPattern: String?
        var queryItems: [[String]]?
        var fragment: String?
        var exclude: Bool
        var caseSensitive: Bool
        var percentEncoded: Bool
        var literalVariables: Bool
    }

    var key: Key {
        func fold(_ text: String?) -> String? { caseSensitive ? text : text?.lowercased() }
        var queryPattern: String?
        var queryItems: [[String]]?
        switch query {
        case nil: break
        case .pattern(let pattern): queryPattern = fold(pattern)
        case .items(let items):
            queryItems = items.map { [fold($0.name)!, fold($0.pattern)!] }.sorted { $0[0] < $1[0] }
        }
        return Key(
            path: fold(path), queryPattern: queryPattern, queryItems: queryItems, fragment: fold(fragment),
            exclude: exclude,
            caseSensitive: caseSensitive, percentEncoded: percentEncoded,
            literalVariables: source == .paths && (path ?? "").contains("$("))
    }

    /// `{"/": "/a/*", "?": {"id": "?*"}, "exclude": true, "caseSensitive": false}` (settings only
    /// when false); a legacy path as `paths "NOT /a/*"`.
    public var description: String {
        if source == .paths, let written { return "paths \(quotedInFull(written))" }
        var parts: [String] = []
        if let path { parts.append("\"/\": \(quotedInFull(path))") }
        switch query {
        case nil: break
        case .pattern(let pattern): parts.append("\"?\": \(quotedInFull(pattern))")
        case .items(let items):
            parts.append(
                "\"?\": {"
                    + items.map { "\(quotedInFull($0.name)): \(quotedInFull($0.pattern))" }.joined(separator: ", ")
                    + "}")
        }
        if let fragment { parts.append("\"#\": \(quotedInFull(fragment))") }
        if exclude { parts.append("\"exclude\": true") }
        if !caseSensitive { parts.append("\"caseSensitive\": false") }
        if !percentEncoded { parts.append("\"percentEncoded\": false") }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    private enum CodingKeys: String, CodingKey {
        case location, source, path = "/", query = "?", fragment = "#", exclude, caseSensitive, percentEncoded, written
    }

    private struct NameKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// `/`, `?` and `#` only when the rule has them; `?` as a string or an object of strings;
    /// `written` only for a legacy path.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(location, forKey: .location)
        try container.encode(source, forKey: .source)
        try container.encodeIfPresent(path, forKey: .path)
        switch query {
        case nil: break
        case .pattern(let pattern): try container.encode(pattern, forKey: .query)
        case .items(let items):
            var nested = container.nestedContainer(keyedBy: NameKey.self, forKey: .query)
            for item in items { try nested.encode(item.pattern, forKey: NameKey(stringValue: item.name)) }
        }
        try container.encodeIfPresent(fragment, forKey: .fragment)
        try container.encode(exclude, forKey: .exclude)
        try container.encode(caseSensitive, forKey: .caseSensitive)
        try container.encode(percentEncoded, forKey: .percentEncoded)
        try container.encodeIfPresent(written, forKey: .written)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        location = try container.decode(String.self, forKey: .location)
        source = try container.decode(Source.self, forKey: .source)
        path = try container.decodeIfPresent(String.self, forKey: .path)
        if let pattern = try? container.decodeIfPresent(String.self, forKey: .query) {
            query = .pattern(pattern)
        } else if let items = try container.decodeIfPresent([String: String].self, forKey: .query) {
            query = .items(items.sorted { $0.key < $1.key }.map { Item(name: $0.key, pattern: $0.value) })
        } else {
            query = nil
        }
        fragment = try container.decodeIfPresent(String.self, forKey: .fragment)
        exclude = try container.decode(Bool.self, forKey: .exclude)
        caseSensitive = try container.decode(Bool.self, forKey: .caseSensitive)
        percentEncoded = try container.decode(Bool.self, forKey: .percentEncoded)
        written = try container.decodeIfPresent(String.self, forKey: .written)
    }
}
