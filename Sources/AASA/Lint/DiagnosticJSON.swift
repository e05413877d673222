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

    /// Writes the finding with `url` null.
    public func encode(to encoder: any Encoder) throws {
        try encode(to: encoder, url: nil)
    }
}
