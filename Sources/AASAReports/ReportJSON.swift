import AASA
import Foundation

/// How aasa encodes JSON, in every format and record: keys sorted (stable output), slashes
/// unescaped, ISO 8601 dates, a final newline.
public enum ReportJSON {
    /// The pretty-printed document (`--format json`, SARIF, GitLab).
    public static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value) + Data("\n".utf8)
    }

    /// One compact line (`--format jsonl`).
    public static func line(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value) + Data("\n".utf8)
    }

    /// ``encode(_:)`` with an encoding failure as an ``AASAError`` (for the writers).
    static func document(_ value: some Encodable) throws(AASAError) -> Data {
        do {
            return try encode(value)
        } catch {
            throw AASAError(.encodingFailed, "the report could not be encoded: \(error)")
        }
    }
}
