/// A finding's identity across edits of its file: what a lint baseline records and what SARIF
/// puts in `partialFingerprints`, so that a code-scanning alert or an accepted finding is the
/// same one after lines are added above it.
///
/// It is the SHA-256 of the version tag, the rule ID, the file's path as given, the JSON path
/// with its array indices left out, and the message with the positions it quotes left out
/// (`line 3, column 5` of an earlier occurrence, array indices such as `details[2]`); not the
/// line, the column or the indices, which move when the file is edited elsewhere. Two
/// findings that agree on all of these share a fingerprint, and a baseline counts them
/// (docs/configuration.md#baselines).
public struct FindingFingerprint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `v1:` and the first 32 hexadecimal digits of the digest.
    public let value: String

    /// The version tag; a change of what is hashed gets a new one.
    public static let version = "v1"

    public init(value: String) { self.value = value }

    /// The fingerprint of `diagnostic` in the file at `path` (as the user named it).
    public init(_ diagnostic: Diagnostic, path: String) throws(AASAError) {
        let location = diagnostic.location.path.components.map { component in
            switch component {
            case .key(let key): return "k\(key.utf8.count):\(key)"
            case .index: return "[]"
            }
        }.joined()
        // Each field is preceded by its length in bytes, so no field can run into the next.
        let fields = [
            Self.version, diagnostic.rule.rawValue, path, location, Self.withoutPositions(diagnostic.message),
        ]
        let bytes = fields.flatMap { field in Array("\(field.utf8.count):".utf8) + Array(field.utf8) }
        value = "\(Self.version):\(try SHA256Digest.hex(bytes).prefix(32))"
    }

    /// `message` with the positions it quotes made blank: "line 3, column 5" becomes "line _,
    /// column _" and "details[2]" becomes "details[]", so that a finding that names where an
    /// earlier duplicate is keeps its identity when lines are added above both.
    static func withoutPositions(_ message: String) -> String {
        message.replacing(/line \d+, column \d+/, with: "line _, column _").replacing(/\[\d+\]/, with: "[]")
    }

    public var description: String { value }

    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
