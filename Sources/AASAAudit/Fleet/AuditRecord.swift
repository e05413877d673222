import AASA
import AASAReports
import Foundation

/// The parts of one `aasa audit --format jsonl` record (docs/schemas/audit.schema.json,
/// `$defs/domain`) that a fleet summary needs; every other key is ignored. Decoding refuses a
/// line that is not such a record, with a reason for a person (``Problem``).
public struct AuditRecord: Decodable, Sendable {
    public let domain: String
    public let verdict: AuditVerdict
    public let diagnostics: [Finding]
    /// The signer of the served file, when it is signed and its signer was read.
    public let signer: Signer?

    public struct Finding: Decodable, Sendable {
        public let rule: String
        public let severity: Severity
    }

    /// A signer certificate as audit prints it (`file.signature.signer`).
    public struct Signer: Decodable, Hashable, Sendable {
        public let subject: String
        public let issuer: String
        public let notAfter: Date
        public let sha256Fingerprint: String?
    }

    /// Why a line is not an audit record this aasa reads.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    private enum Keys: String, CodingKey {
        case schemaVersion, domain, verdict, diagnostics, file, signature, signer
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
        guard let verdict = try? record.decode(AuditVerdict.self, forKey: .verdict) else {
            throw Problem(description: "an audit record without a known \"verdict\"")
        }
        guard let diagnostics = try? record.decode([Finding].self, forKey: .diagnostics) else {
            throw Problem(
                description: "an audit record whose \"diagnostics\" are not findings with a rule and severity")
        }
        guard diagnostics.allSatisfy({ Self.isRuleID($0.rule) }) else {
            throw Problem(description: "an audit record with a finding whose \"rule\" is not a rule ID")
        }
        self.domain = domain
        self.verdict = verdict
        self.diagnostics = diagnostics
        self.signer = try Self.signer(in: record)
    }

    /// `file.signature.signer`, or nil when the file is absent, unsigned or its signer unread.
    private static func signer(in record: KeyedDecodingContainer<Keys>) throws -> Signer? {
        guard (try? record.decodeNil(forKey: .file)) == false,
            let file = try? record.nestedContainer(keyedBy: Keys.self, forKey: .file),
            file.contains(.signature)
        else { return nil }
        guard let signature = try? file.nestedContainer(keyedBy: Keys.self, forKey: .signature) else {
            throw Problem(description: "an audit record whose \"file.signature\" is not an object")
        }
        guard signature.contains(.signer) else { return nil }
        guard let signer = try? signature.decode(Signer.self, forKey: .signer) else {
            throw Problem(
                description:
                    "an audit record whose \"file.signature.signer\" has no subject, issuer or notAfter (ISO 8601)")
        }
        return signer
    }

    /// The record of a report made in this process (what its JSON line would decode to).
    public init(_ report: DomainReport) {
        domain = report.domain
        verdict = report.verdict
        diagnostics = report.diagnostics.map { Finding(rule: $0.rule.rawValue, severity: $0.severity) }
        signer = report.file?.signature?.signer.map {
            Signer(
                subject: $0.subject, issuer: $0.issuer, notAfter: $0.notAfter, sha256Fingerprint: $0.sha256Fingerprint)
        }
    }

    /// Whether `text` is a rule ID as the audit schema has it: lowercase words joined by `-`.
    static func isRuleID(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix("-") && !text.hasSuffix("-") && !text.contains("--")
            && text.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }

    /// One line of a result file as a record, or the reason it is not one.
    public static func parse(_ line: String, decoder: JSONDecoder) -> Result<AuditRecord, Problem> {
        parse(Data(line.utf8), decoder: decoder)
    }

    /// One line of a result file, as its bytes (without the newline), as a record, or the
    /// reason it is not one. The one reader of an audit line: `audit summarize` and
    /// `audit --resume` both read lines with it.
    public static func parse(_ line: Data, decoder: JSONDecoder) -> Result<AuditRecord, Problem> {
        decodeLine(AuditRecord.self, line, decoder: decoder)
    }

    /// `line` decoded as `type`, which decodes an ``AuditRecord`` first: a line that is not a
    /// record fails with the reason.
    static func decodeLine<Line: Decodable>(
        _ type: Line.Type, _ line: Data, decoder: JSONDecoder
    ) -> Result<Line, Problem> {
        do {
            return .success(try decoder.decode(type, from: line))
        } catch let problem as Problem {
            return .failure(problem)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            return .failure(Problem(description: "not an audit domain record (not a JSON object)"))
        } catch {
            return .failure(Problem(description: "not JSON (a line cut short, or not audit output)"))
        }
    }

    /// The decoder ``parse(_:decoder:)`` needs: ISO 8601 dates, as audit writes them.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
