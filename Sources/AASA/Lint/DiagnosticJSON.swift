/// The one JSON form of a finding, shared by every JSON output that prints findings (`lint`,
/// `check`, `audit`): `rule`, `severity`, `message`, `location` (`path`, `line`, `column`) and
/// `url`, every key always present and an absent value an explicit `null`
/// (docs/cli.md#diagnostic-object, docs/schemas/common.schema.json#/$defs/diagnostic).
extension Diagnostic {
    private enum JSONKeys: String, CodingKey {
        case rule, severity, message, location, url
    }

    private enum LocationKeys: String, CodingKey {
        case path, line, column
    }

    /// Writes the finding, with `url`: the URL it is about (`audit`), or nil for a file's own
    /// findings (`lint`, `check`).
    public func encode(to encoder: any Encoder, url: String?) throws {
        var container = encoder.container(keyedBy: JSONKeys.self)
        try container.encode(rule.rawValue, forKey: .rule)
        try container.encode(severity.rawValue, forKey: .severity)
        try container.encode(message, forKey: .message)
        var place = container.nestedContainer(keyedBy: LocationKeys.self, forKey: .location)
        try place.encode(location.path.description, forKey: .path)
        try place.encode(location.line, forKey: .line)  // explicit null: a file-level finding
        try place.encode(location.column, forKey: .column)
        try container.encode(url, forKey: .url)  // explicit null: not about a URL
    }

    /// Reads the finding that ``encode(to:url:)`` wrote, and its `url`: the one reader of the
    /// shared JSON form (audit records read back by `audit summarize` and `--resume`).
    public static func decode(from decoder: any Decoder) throws -> (diagnostic: Diagnostic, url: String?) {
        let container = try decoder.container(keyedBy: JSONKeys.self)
        let place = try container.nestedContainer(keyedBy: LocationKeys.self, forKey: .location)
        let location = DiagnosticLocation(
            path: try place.decode(JSONPath.self, forKey: .path),
            line: try place.decodeIfPresent(Int.self, forKey: .line),
            column: try place.decodeIfPresent(Int.self, forKey: .column))
        let diagnostic = Diagnostic(
            try container.decode(RuleID.self, forKey: .rule), try container.decode(String.self, forKey: .message),
            at: location, severity: try container.decode(Severity.self, forKey: .severity))
        return (diagnostic, try container.decodeIfPresent(String.self, forKey: .url))
    }

    /// Reads the shared JSON form (``decode(from:)``), without its `url`.
    public init(from decoder: any Decoder) throws {
        self = try Self.decode(from: decoder).diagnostic
    }

    /// Writes the finding with `url` null.
    public func encode(to encoder: any Encoder) throws {
        try encode(to: encoder, url: nil)
    }
}
