import AASA
import Foundation

/// What the HTML fleet report (``FleetPage``) shows of one domain, from its audit record
/// (``AuditLine``): both paths, the TLS chain, the signature,
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
    /// What the page shows of `line`'s report.
    public init(_ line: AuditLine) {
        let report = line.report
        /// `url` without `https://DOMAIN` when it starts with it (most do): the page shows the
        /// path, and 100,000 domains' URLs are a fifth of the page otherwise.
        func shortened(_ url: String) -> String {
            let origin = "https://" + report.domain
            guard url.hasPrefix(origin), url.dropFirst(origin.count).hasPrefix("/") else { return url }
            return String(url.dropFirst(origin.count))
        }
        self.init(
            domain: report.domain, verdict: report.verdict,
            paths: report.paths.map {
                Path(
                    url: shortened($0.url), status: $0.status, contentType: $0.contentType, size: $0.size,
                    kind: $0.kind, error: $0.error?.message)
            },
            tls: report.tls.map {
                TLS(verdict: $0.verdict, reason: $0.reason, version: $0.version, chain: $0.chain.map(\.subject))
            },
            file: report.file.map {
                File(
                    url: shortened($0.url), kind: $0.kind, size: $0.size, signature: $0.signature?.verdict,
                    signer: $0.signature?.signer?.subject, signerNotAfter: $0.signature?.signer?.notAfter,
                    apps: ($0.effect?.universalLinks ?? []).map(\.appID))
            },
            findings: report.diagnostics.map {
                Finding(rule: $0.rule.rawValue, severity: $0.severity, message: $0.message, url: $0.url.map(shortened))
            }, startedAt: report.startedAt, auditedBy: line.aasaVersion, settings: report.settings)
    }
}
