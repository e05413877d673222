import AASA
import Foundation

// Reading a report back from its JSON form, key for key as `encode(to:)` writes it. Keys that
// aasa 0.2.0 did not write yet (`settings`, a path's `descriptorWaitMs` and `reusedConnection`)
// may be missing; every other key of the schema (docs/schemas/audit.schema.json) must be there.

extension DomainReport {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        domain = try container.decode(String.self, forKey: .domain)
        host = try container.decode(String.self, forKey: .host)
        port = try container.decode(Int.self, forKey: .port)
        verdict = try container.decode(AuditVerdict.self, forKey: .verdict)
        file = try container.decodeIfPresent(FileReport.self, forKey: .file)
        paths = try container.decode([PathReport].self, forKey: .paths)
        tls = try container.decodeIfPresent(TLSReport.self, forKey: .tls)
        cdn = try container.decodeIfPresent(CDNReport.self, forKey: .cdn)
        diagnostics = try container.decode([AuditDiagnostic].self, forKey: .diagnostics)
        startedAt = try container.decode(Date.self, forKey: .startedAt)
        durationMs = try container.decode(Double.self, forKey: .durationMs)
        settings = try container.decodeIfPresent(AuditSettings.self, forKey: .settings)
    }
}

extension PathReport {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        address = try container.decodeIfPresent(String.self, forKey: .address)
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
        contentEncoding = try container.decodeIfPresent(String.self, forKey: .contentEncoding)
        location = try container.decodeIfPresent(String.self, forKey: .location)
        size = try container.decodeIfPresent(Int.self, forKey: .size)
        declaredSize = try container.decodeIfPresent(Int.self, forKey: .declaredSize)
        truncated = try container.decode(Bool.self, forKey: .truncated)
        kind = try container.decodeIfPresent(String.self, forKey: .kind)
        signed = try container.decode(Bool.self, forKey: .signed)
        error = try container.decodeIfPresent(FetchError.self, forKey: .error)
        attempts = try container.decode(Int.self, forKey: .attempts)
        descriptorWaitMs = try container.decodeIfPresent(Double.self, forKey: .descriptorWaitMs)
        reusedConnection = try container.decodeIfPresent(Bool.self, forKey: .reusedConnection) ?? false
        timings = try container.decode(Timings.self, forKey: .timings)
    }
}

extension AuditDiagnostic {
    /// The shared JSON form of a finding (``Diagnostic/decode(from:)``), with `url`.
    public init(from decoder: any Decoder) throws {
        let (diagnostic, url) = try Diagnostic.decode(from: decoder)
        self.init(diagnostic, url: url)
    }
}
