import AASA
import Foundation

/// The JSON outputs of `aasa`, each described by its schema, docs/schemas/NAME.schema.json,
/// and the version of that schema (docs/json.md). Every document and every record of an
/// output carries `schemaVersion` and `aasaVersion` (``Stamped``).
///
/// The promise: a version goes up, here, when a key of its output is removed, renamed or given
/// another type; added keys keep it.
public enum JSONSchemaKind: String, CaseIterable, Sendable {
    case verify, detect, lint, rules, check, inspect, match, diff, audit
    /// `aasa audit summarize --format json`.
    case fleet

    /// The `schemaVersion` of this output.
    public var version: Int {
        switch self {
        case .verify, .detect, .lint, .rules, .check, .inspect, .match, .diff, .audit, .fleet: return 1
        }
    }

    /// Its schema's file name under docs/schemas.
    public var schemaFile: String { "\(rawValue).schema.json" }
}

/// The two keys that say what a JSON document is: `schemaVersion` (its kind's
/// ``JSONSchemaKind/version``) and `aasaVersion` (the tool that wrote it).
public enum JSONStamp {
    public enum Keys: String, CodingKey, CaseIterable {
        case aasaVersion, schemaVersion
    }

    /// The stamp of `kind`, as each key's JSON text (`"0.2.0"`, `1`), in key order.
    public static func members(_ kind: JSONSchemaKind) -> [(key: String, value: String)] {
        [("aasaVersion", "\"\(AASAVersion.number)\""), ("schemaVersion", String(kind.version))]
    }

    /// The stamp as pretty-printed members at `indent`, for an object written piece by piece
    /// whose other member is `key` (sorted keys, as ``ReportJSON`` writes them): the members that
    /// sort before it (each followed by `,\n`) and those after it (each preceded by `,\n`).
    public static func around(_ key: String, _ kind: JSONSchemaKind, indent: String) -> (before: String, after: String)
    {
        var before = "", after = ""
        for member in members(kind) {
            let line = "\(indent)\"\(member.key)\" : \(member.value)"
            if member.key < key { before += line + ",\n" } else { after += ",\n" + line }
        }
        return (before, after)
    }
}

/// A record with the stamp of its kind added to its own keys: the one place output is
/// stamped. `Record` must encode as a JSON object.
public struct Stamped<Record: Encodable>: Encodable {
    public let kind: JSONSchemaKind
    public let record: Record

    public init(_ record: Record, _ kind: JSONSchemaKind) {
        self.record = record
        self.kind = kind
    }

    public func encode(to encoder: any Encoder) throws {
        try record.encode(to: encoder)
        var container = encoder.container(keyedBy: JSONStamp.Keys.self)
        try container.encode(AASAVersion.number, forKey: .aasaVersion)
        try container.encode(kind.version, forKey: .schemaVersion)
    }
}
