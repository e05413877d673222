import AASA
import AASAReports
import Foundation

/// One line of `aasa audit --format jsonl` read back (docs/schemas/audit.schema.json,
/// `$defs/domain`): the domain's ``DomainReport`` and the version of aasa that wrote it. The one
/// reader of an audit record: `audit summarize`, `audit --resume` and a Swift program all read
/// lines with ``parse(_:decoder:)-(Data,_)``. A line that is not such a record is refused with a
/// reason for a person (``Problem``), which names keys of the schema only, never the line's text.
public struct AuditLine: Decodable, Sendable {
    /// The version of aasa that wrote the line.
    public let aasaVersion: String?
    public let report: DomainReport

    /// Why a line is not an audit record this aasa reads.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    private enum Keys: String, CodingKey {
        case schemaVersion, aasaVersion, domain
    }

    public init(from decoder: any Decoder) throws {
        let record = try decoder.container(keyedBy: Keys.self)
        let version = try? record.decodeIfPresent(Int.self, forKey: .schemaVersion)
        guard let version, let domain = try? record.decodeIfPresent(String.self, forKey: .domain) else {
            throw Problem(description: "not an audit domain record (no \"schemaVersion\" or \"domain\")")
        }
        guard version == JSONSchemaKind.audit.version else {
            throw Problem(
                description:
                    "an audit record of schemaVersion \(version); this aasa reads schemaVersion \(JSONSchemaKind.audit.version)"
            )
        }
        guard !domain.isEmpty else { throw Problem(description: "an audit record with an empty \"domain\"") }
        aasaVersion = try? record.decodeIfPresent(String.self, forKey: .aasaVersion)
        report = try DomainReport(from: decoder)
        guard report.diagnostics.allSatisfy({ Self.isRuleID($0.rule.rawValue) }) else {
            throw Problem(description: "an audit record with a finding whose \"rule\" is not a rule ID")
        }
    }

    /// Whether `text` is a rule ID as the audit schema has it: lowercase words joined by `-`.
    static func isRuleID(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix("-") && !text.hasSuffix("-") && !text.contains("--")
            && text.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }

    /// One line of a result file as a record, or the reason it is not one.
    public static func parse(_ line: String, decoder: JSONDecoder) -> Result<AuditLine, Problem> {
        parse(Data(line.utf8), decoder: decoder)
    }

    /// One line of a result file, as its bytes (without the newline), as a record, or the
    /// reason it is not one.
    public static func parse(_ line: Data, decoder: JSONDecoder) -> Result<AuditLine, Problem> {
        do {
            return .success(try decoder.decode(AuditLine.self, from: line))
        } catch let problem as Problem {
            return .failure(problem)
        } catch let error as DecodingError {
            return .failure(Problem(error))
        } catch {
            return .failure(Problem(description: "not JSON (a line cut short, or not audit output)"))
        }
    }

    /// The decoder ``parse(_:decoder:)-(Data,_)`` needs: ISO 8601 dates, as audit writes them.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension AuditLine.Problem {
    /// The reason for a person, from where the decoder stopped.
    init(_ error: DecodingError) {
        func place(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    // A key of a dictionary (`ruleSeverities`) is the line's own text: shown only
                    // when it is a plain word.
                    let name = key.stringValue
                    let plain =
                        name.utf8.count <= 40
                        && name.utf8.allSatisfy {
                            (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                                || $0 == 0x2D
                        }
                    text += (text.isEmpty ? "" : ".") + (plain ? name : "…")
                }
            }
            return "\"\(text)\""
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(description: "an audit record without \(place(context.codingPath + [key]))")
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            self.init(description: "not an audit domain record (not a JSON object)")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            self.init(description: "not JSON (a line cut short, or not audit output)")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            self.init(
                description: "an audit record whose \(place(context.codingPath)) is not as the audit schema has it")
        @unknown default:
            self.init(description: "not an audit domain record")
        }
    }
}
