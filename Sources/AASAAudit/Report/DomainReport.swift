import AASA
import Foundation

/// Everything `aasa audit` learned about one domain: each path tried, the TLS certificate, the
/// file iOS would use (verified and linted as `aasa check` does), Apple's CDN copy, and the
/// findings. Its JSON form (`--format json`/`jsonl`) is a stable contract (docs/audit.md),
/// and it reads back as it was written (``AuditLine``).
public struct DomainReport: Sendable, Codable {
    /// The domain as audited: `host`, or `host:port`.
    public var domain: String
    public var host: String
    public var port: Int
    /// `current`, `legacy`, `needs-attention` or `broken`, from the findings as `aasa check`
    /// decides it: any error is broken, else any deprecation legacy, else any warning
    /// needs-attention; or `not-audited` when this machine could not fetch the domain (it ran
    /// out of file descriptors), which says nothing about the domain.
    public var verdict: AuditVerdict
    /// The file iOS would use: the `.well-known` one, else the root one (nil when neither).
    public var file: FileReport?
    /// Each path tried: `/.well-known/apple-app-site-association`, then `/apple-app-site-association`.
    public var paths: [PathReport]
    /// The server's certificate chain and whether it verifies (nil when no TLS handshake got
    /// as far as a certificate).
    public var tls: TLSReport?
    /// Apple's CDN copy (with `--cdn`).
    public var cdn: CDNReport?
    /// Every finding: hosting rules (docs/rules.md, "Findings reported by aasa audit") and the
    /// served file's lint findings, most serious first.
    public var diagnostics: [AuditDiagnostic]
    /// When the audit of this domain started, and how long it took (ms).
    public var startedAt: Date
    public var durationMs: Double
    /// What the domain served, with ``AuditConfiguration/capturesResponse`` (nil otherwise):
    /// never encoded, so that a caller can save it and let it go with the report.
    public var captured: CapturedResponse? = nil
    /// The settings of the run (``AuditConfiguration/settings()``, with the rule selection); ``Auditor``
    /// sets them on every report.
    public var settings: AuditSettings? = nil

    /// The most serious severity among the findings.
    public var highestSeverity: Severity? { diagnostics.map(\.severity).max() }

    /// How many findings there are of `severity`.
    public func count(_ severity: Severity) -> Int { diagnostics.filter { $0.severity == severity }.count }

    enum CodingKeys: String, CodingKey {
        case domain, host, port, verdict, file, paths, tls, cdn, diagnostics, startedAt, durationMs, settings
    }

    /// Every key, with an explicit null for what is missing.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(domain, forKey: .domain)
        try container.encode(host, forKey: .host)
        try container.encode(port, forKey: .port)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(file, forKey: .file)
        try container.encode(paths, forKey: .paths)
        try container.encode(tls, forKey: .tls)
        try container.encode(cdn, forKey: .cdn)
        try container.encode(diagnostics, forKey: .diagnostics)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(durationMs, forKey: .durationMs)
        try container.encode(settings, forKey: .settings)
    }
}

/// One fetch of one URL.
public struct PathReport: Sendable, Codable {
    public var url: String
    /// The address connected to (after `--resolve` or DNS).
    public var address: String?
    /// The HTTP status, or nil when no response came.
    public var status: Int?
    public var contentType: String?
    public var contentEncoding: String?
    /// The `Location` of a redirect.
    public var location: String?
    /// Bytes read (at most the size cap).
    public var size: Int?
    /// The `Content-Length` the server announced.
    public var declaredSize: Int?
    /// Reading stopped at the size cap.
    public var truncated: Bool
    /// What the body is, as `aasa detect` names it (for a 200 answer; nil otherwise).
    public var kind: String?
    /// Whether the body is a signed (PKCS#7) file.
    public var signed: Bool
    /// Why no complete response came: `{ "rule": "tls-error" | "connection-failed" | "timeout" |
    /// "local-descriptor-limit" | "local-proxy-failure", "message": … }`.
    public var error: FetchError?
    /// Connection attempts made (more than 1 after connection errors; 0 when the path was not
    /// requested because the connection it needed had failed on the path before).
    public var attempts: Int
    /// How long the fetch waited for a file descriptor of this machine, in all (nil: it never
    /// had to wait). Waits are not attempts.
    public var descriptorWaitMs: Double?
    /// The request went on the connection the domain's request before it opened (HTTP
    /// keep-alive): no connect or TLS handshake of its own, so ``Timings`` has neither.
    public var reusedConnection: Bool = false
    public var timings: Timings

    enum CodingKeys: String, CodingKey {
        case url, address, status, contentType, contentEncoding, location, size, declaredSize, truncated, kind, signed,
            error, attempts, descriptorWaitMs, reusedConnection, timings
    }

    /// Every key, with an explicit null for what is missing.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(address, forKey: .address)
        try container.encode(status, forKey: .status)
        try container.encode(contentType, forKey: .contentType)
        try container.encode(contentEncoding, forKey: .contentEncoding)
        try container.encode(location, forKey: .location)
        try container.encode(size, forKey: .size)
        try container.encode(declaredSize, forKey: .declaredSize)
        try container.encode(truncated, forKey: .truncated)
        try container.encode(kind, forKey: .kind)
        try container.encode(signed, forKey: .signed)
        try container.encode(error, forKey: .error)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(descriptorWaitMs, forKey: .descriptorWaitMs)
        try container.encode(reusedConnection, forKey: .reusedConnection)
        try container.encode(timings, forKey: .timings)
    }

    /// A fetch that did not complete.
    public struct FetchError: Sendable, Codable, Hashable {
        public var rule: String
        public var message: String
    }

    /// Milliseconds from the start of the (last) attempt.
    public struct Timings: Sendable, Codable, Hashable {
        /// TCP connected (nil on a reused connection).
        public var connectMs: Double?
        /// TLS handshake done (nil on a reused connection).
        public var tlsMs: Double?
        /// Response head received.
        public var firstByteMs: Double?
        /// Done (or given up).
        public var totalMs: Double
    }
}

/// The file iOS would use, and what `aasa check` says about it.
public struct FileReport: Sendable, Codable {
    public var url: String
    public var kind: String
    public var signed: Bool
    public var size: Int
    /// For a signed file: the signature check (trust as for TLS) and who signed it.
    public var signature: SignatureReport?
    /// The legacy and broken parts with who needs them and the next step (`aasa check`'s items).
    public var items: [DeprecationReport.Item]
    /// What the file does (which apps get what), as `aasa check`'s headline says it; absent when
    /// its JSON cannot be read.
    public var effect: DocumentEffect?
}

/// A signed file's signature, and whether its signer is the domain's TLS identity.
public struct SignatureReport: Sendable, Codable {
    public var valid: Bool
    /// `valid`, `untrusted`, `expired`, … as `aasa verify` names it.
    public var verdict: String
    public var reason: String?
    public var signer: CertificateSummary?
    /// `same-certificate`, `same-key`, `valid-for-host` (another key, but a certificate for the
    /// domain), `not-identity`, or `unknown` (no TLS certificate or no signer to compare).
    public var identity: String
}

/// A certificate as an auditor reads it.
public struct CertificateSummary: Sendable, Codable, Hashable {
    public var subject: String
    public var issuer: String
    public var subjectAlternativeNames: [String]
    public var notBefore: Date
    public var notAfter: Date
    public var key: String
    public var sha256Fingerprint: String

    public init(_ info: CertificateInfo) {
        subject = info.subject
        issuer = info.issuer
        subjectAlternativeNames = info.subjectAlternativeNames
        notBefore = info.notBefore
        notAfter = info.notAfter
        key = info.keyDescription
        sha256Fingerprint = info.sha256Fingerprint
    }
}

/// The server's TLS certificate and its check against the system roots and `--ca-file`.
public struct TLSReport: Sendable, Codable, Hashable {
    public var verified: Bool
    /// `valid`, `untrusted`, `expired`, `not-yet-valid`, `host-mismatch`, `wrong-purpose`, `malformed`.
    public var verdict: String
    public var reason: String?
    /// `TLSv1.3`, `TLSv1.2`, … (nil when the handshake did not finish).
    public var version: String?
    /// The certificates as the server sent them, leaf first.
    public var chain: [CertificateSummary]
}

/// Apple's CDN copy of the file.
public struct CDNReport: Sendable, Codable {
    public var fetch: PathReport
    /// `Apple-Failure-*` headers, by name, when present.
    public var failure: [String: String]
    /// `identical`, `same-meaning`, `different`, or `not-compared` (one side has no file).
    public var comparison: String
}

/// A finding: a rule, its severity, a message, where in the file (for lint findings) and on
/// which URL.
public struct AuditDiagnostic: Sendable, Codable, Hashable {
    public var rule: RuleID
    public var severity: Severity
    public var message: String
    /// For lint findings: the JSON path, line and column in the served file's JSON.
    public var location: DiagnosticLocation
    /// The URL the finding is about (nil when it is about the domain as a whole).
    public var url: String?

    public init(_ rule: RuleID, _ message: String, url: String?, location: DiagnosticLocation = .file) {
        self.rule = rule
        severity = HostingRules.severity(of: rule)
        self.message = message
        self.location = location
        self.url = url
    }

    public init(_ diagnostic: Diagnostic, url: String?) {
        rule = diagnostic.rule
        severity = diagnostic.severity
        message = diagnostic.message
        location = diagnostic.location
        self.url = url
    }

    /// The shared JSON form of a finding (``Diagnostic/encode(to:url:)``), with `url`.
    public func encode(to encoder: any Encoder) throws {
        try Diagnostic(rule, message, at: location, severity: severity).encode(to: encoder, url: url)
    }
}
