import Foundation

/// Encodes the `--format json` documents: stable key order, ISO 8601 dates.
enum JSONOutput {
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value) + Data("\n".utf8)
    }

    static func print(_ value: some Encodable) throws {
        try FileHandle.standardOutput.write(contentsOf: encode(value))
    }
}

/// Writes text to standard output.
func printOut(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
