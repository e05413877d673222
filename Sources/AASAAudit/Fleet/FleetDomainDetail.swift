import AASA
import Foundation

/// What the HTML fleet report (``FleetPage``) shows of one domain, read from its audit record
/// (docs/schemas/audit.schema.json, `$defs/domain`): both paths, the TLS chain, the signature,
/// what the file does and the findings. Timings, attempts and the other keys are left out, so
/// that a report of 100,000 domains stays a page a browser opens.
///
/// Every string here is the domain's own text (a hostile server writes it): the page escapes it
/// for where it goes.
public struct FleetDomainDetail: Codable, Sendable, Equatable {
    public var domain: String
    public var verdict: AuditVerdict
    public var paths: [Path]
    public var tls: TLS?
    public var file: File?
    public var findings: [Finding]
    /// When the domain's audit began, and the version of aasa that audited it.
    public var startedAt: Date?
    public var auditedBy: String?
    /// Links to what `aasa audit --save` kept of the domain (summarize's `--saved DIR`), as
    /// paths from where the page is opened.
    public var saved: [String]?
    /// The settings of the run that audited the domain (nil in records of aasa 0.2.0 and
    /// earlier). The page's headline gives them once; they are not in each domain's entry.
    public var settings: AuditSettings?

    enum CodingKeys: String, CodingKey {
        case domain, verdict, paths, tls, file, findings, startedAt, auditedBy, saved
    }

    public init(
        domain: String, verdict: AuditVerdict, paths: [Path], tls: TLS?, file: File?, findings: [Finding],
        startedAt: Date? = nil, auditedBy: String? = nil, settings: AuditSettings? = nil
    ) {
        (self.domain, self.verdict, self.paths, self.tls, self.file, self.findings) =
            (domain, verdict, paths, tls, file, findings)
        (self.startedAt, self.auditedBy, self.settings) = (startedAt, auditedBy, settings)
    }

    public struct Path: Codable, Sendable, Equatable {
        /// The URL, or its path when it is on the domain itself (`/.well-known/…`).
        public var url: String
        public var status: Int?
        public var contentType: String?
        public var size: Int?
        public var kind: String?
        /// Why the fetch failed, when it did.
        public var error: String?

        public init(url: String, status: Int?, contentType: String?, size: Int?, kind: String?, error: String?) {
            (self.url, self.status, self.contentType, self.size, self.kind, self.error) =
                (url, status, contentType, size, kind, error)
        }
    }

    public struct TLS: Codable, Sendable, Equatable {
        public var verdict: String?
        public var reason: String?
        public var version: String?
        /// The subjects of the served chain, leaf first.
        public var chain: [String]

        public init(verdict: String?, reason: String?, version: String?, chain: [String]) {
            (self.verdict, self.reason, self.version, self.chain) = (verdict, reason, version, chain)
        }
    }

    public struct File: Codable, Sendable, Equatable {
        public var url: String?
        public var kind: String?
        public var size: Int?
        /// The signature's verdict (`valid`, `expired`, …); nil for a plain file.
        public var signature: String?
        public var signer: String?
        public var signerNotAfter: Date?
        /// The apps that get universal links from the file.
        public var apps: [String]

        public init(
            url: String?, kind: String?, size: Int?, signature: String?, signer: String?, signerNotAfter: Date?,
            apps: [String]
        ) {
            (self.url, self.kind, self.size, self.signature, self.signer, self.signerNotAfter, self.apps) =
                (url, kind, size, signature, signer, signerNotAfter, apps)
        }
    }

    public struct Finding: Codable, Sendable, Equatable {
        public var rule: String
        public var severity: Severity
        public var message: String
        public var url: String?

        public init(rule: String, severity: Severity, message: String, url: String?) {
            (self.rule, self.severity, self.message, self.url) = (rule, severity, message, url)
        }
    }
}

extension FleetDomainDetail {
    /// One audit record line read once for both the summary and the page: the record (or why
    /// the line is not one, as ``AuditRecord/parse(_:decoder:)-(Data,_)`` says), and its detail,
    /// nil when the page cannot read it (a key of another type than the schema's): such a
    /// record is still a row, from its record.
    public static func parse(
        _ line: Data, decoder: JSONDecoder
    ) -> Result<(record: AuditRecord, detail: FleetDomainDetail?), AuditRecord.Problem> {
        AuditRecord.decodeLine(RecordAndDetail.self, line, decoder: decoder).map { ($0.record, $0.detail) }
    }

    /// Both readings of one line, from the one JSON tree the decoder parses.
    private struct RecordAndDetail: Decodable {
        let record: AuditRecord
        let detail: FleetDomainDetail?

        init(from decoder: any Decoder) throws {
            record = try AuditRecord(from: decoder)
            detail = (try? RecordLine(from: decoder))?.detail
        }
    }

    /// The record's keys the page uses, decoded as the schema writes them.
    private struct RecordLine: Decodable {
        let domain: String
        let verdict: AuditVerdict
        let paths: [Fetch]?
        let tls: TLSRecord?
        let file: FileRecord?
        let diagnostics: [Diagnostic]
        /// Read as text: a time this reader cannot parse leaves the domain in the report.
        let startedAt: String?
        let aasaVersion: String?
        let settings: AuditSettings?

        struct Fetch: Decodable {
            let url: String
            let status: Int?
            let contentType: String?
            let size: Int?
            let kind: String?
            let error: Message?
        }
        struct Message: Decodable { let message: String }
        struct Certificate: Decodable {
            let subject: String
            let notAfter: Date?
        }
        struct TLSRecord: Decodable {
            let verdict: String?
            let reason: String?
            let version: String?
            let chain: [Certificate]?
        }
        struct Signature: Decodable {
            let verdict: String
            let signer: Certificate?
        }
        struct App: Decodable { let appID: String }
        struct Effect: Decodable { let universalLinks: [App]? }
        struct FileRecord: Decodable {
            let url: String?
            let kind: String?
            let size: Int?
            let signature: Signature?
            let effect: Effect?
        }
        struct Diagnostic: Decodable {
            let rule: String
            let severity: Severity
            let message: String?
            let url: String?
        }

        /// `url` without `https://DOMAIN` when it starts with it (most do): the page shows the
        /// path, and 100,000 domains' URLs are a fifth of the page otherwise.
        func shortened(_ url: String) -> String {
            let origin = "https://" + domain
            guard url.hasPrefix(origin), url.dropFirst(origin.count).hasPrefix("/") else { return url }
            return String(url.dropFirst(origin.count))
        }

        var detail: FleetDomainDetail {
            FleetDomainDetail(
                domain: domain, verdict: verdict,
                paths: (paths ?? []).map {
                    Path(
                        url: shortened($0.url), status: $0.status, contentType: $0.contentType, size: $0.size,
                        kind: $0.kind,
                        error: $0.error?.message)
                },
                tls: tls.map {
                    TLS(
                        verdict: $0.verdict, reason: $0.reason, version: $0.version,
                        chain: ($0.chain ?? []).map(\.subject))
                },
                file: file.map {
                    File(
                        url: $0.url.map(shortened), kind: $0.kind, size: $0.size, signature: $0.signature?.verdict,
                        signer: $0.signature?.signer?.subject, signerNotAfter: $0.signature?.signer?.notAfter,
                        apps: ($0.effect?.universalLinks ?? []).map(\.appID))
                },
                findings: diagnostics.map {
                    Finding(rule: $0.rule, severity: $0.severity, message: $0.message ?? "", url: $0.url.map(shortened))
                }, startedAt: startedAt.flatMap { try? Date($0, strategy: .iso8601) }, auditedBy: aasaVersion,
                settings: settings)
        }
    }
}
