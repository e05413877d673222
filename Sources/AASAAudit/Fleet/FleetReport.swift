import AASA
import Foundation

/// What `aasa audit summarize` reports (``FleetSummary``): the `--format json` document
/// (docs/schemas/fleet.schema.json), which the text and Markdown renderings
/// (``FleetReportRendering``) show too.
public struct FleetReport: Encodable, Sendable {
    /// When signers' expiry is judged: now, or `--at`.
    public let at: Date
    public let files: [FileRead]
    /// Audit records read, over every file (each domain's duplicates included).
    public let records: Int
    /// Records that replaced an earlier record of the same domain.
    public let duplicates: Int
    /// Distinct domains.
    public let domains: Int
    public let verdicts: [VerdictCount]
    public let rules: [Rule]
    /// Signers of the served signed files, soonest expiry first.
    public let signers: [Signer]

    /// One input file and what was read from it.
    public struct FileRead: Encodable, Sendable {
        public let path: String
        /// Lines read (blank lines included).
        public var lines = 0
        public var records = 0
        /// Lines that are not audit records, each reported once on standard error.
        public var skipped = 0
        /// Why the file could not be read, or read to its end; nil when it was.
        public var error: String?

        public init(path: String) { self.path = path }
    }

    public struct VerdictCount: Encodable, Sendable {
        public let verdict: AuditVerdict
        public let domains: Int
    }

    public struct Rule: Encodable, Sendable {
        public let rule: String
        /// The most serious severity among the rule's findings.
        public let severity: Severity
        /// Domains with at least one finding of the rule, and its findings over every domain.
        public let domains: Int
        public let findings: Int
    }

    public struct Signer: Encodable, Sendable {
        public let subject: String
        public let issuer: String
        public let sha256Fingerprint: String?
        public let notAfter: Date
        /// Domains whose served file it signed.
        public let domains: Int
        /// Whether `notAfter` is before ``FleetReport/at``.
        public let expired: Bool

        private enum CodingKeys: String, CodingKey {
            case subject, issuer, sha256Fingerprint, notAfter, domains, expired
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(subject, forKey: .subject)
            try container.encode(issuer, forKey: .issuer)
            try container.encode(sha256Fingerprint, forKey: .sha256Fingerprint)  // null when absent
            try container.encode(notAfter, forKey: .notAfter)
            try container.encode(domains, forKey: .domains)
            try container.encode(expired, forKey: .expired)
        }
    }

    /// Lines skipped over every file.
    public var skipped: Int { files.reduce(0) { $0 + $1.skipped } }
    /// Lines read over every file.
    public var lines: Int { files.reduce(0) { $0 + $1.lines } }
    /// Files that could not be read, or not to their end.
    public var unreadable: Int { files.filter { $0.error != nil }.count }
    /// Domains that serve a signed file whose signer was read.
    public var signedDomains: Int { signers.reduce(0) { $0 + $1.domains } }
    public var expiredSigners: [Signer] { signers.filter(\.expired) }

    private enum CodingKeys: String, CodingKey {
        case at, files, lines, records, skipped, duplicates, domains, verdicts, rules, signedDomains, signers
        case expiredSigners, expiredSignedDomains, unreadableFiles
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(InternetDateTime.string(from: at), forKey: .at)
        try container.encode(files.map(FileJSON.init), forKey: .files)
        try container.encode(lines, forKey: .lines)
        try container.encode(records, forKey: .records)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(duplicates, forKey: .duplicates)
        try container.encode(domains, forKey: .domains)
        try container.encode(
            Dictionary(uniqueKeysWithValues: verdicts.map { ($0.verdict.rawValue, $0.domains) }), forKey: .verdicts)
        try container.encode(rules, forKey: .rules)
        try container.encode(signedDomains, forKey: .signedDomains)
        try container.encode(signers, forKey: .signers)
        try container.encode(expiredSigners.count, forKey: .expiredSigners)
        try container.encode(expiredSigners.reduce(0) { $0 + $1.domains }, forKey: .expiredSignedDomains)
        try container.encode(unreadable, forKey: .unreadableFiles)
    }

    /// A file in the JSON: every key present, `error` null when the file was read.
    private struct FileJSON: Encodable {
        let file: FileRead
        private enum CodingKeys: String, CodingKey { case path, lines, records, skipped, error }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file.path, forKey: .path)
            try container.encode(file.lines, forKey: .lines)
            try container.encode(file.records, forKey: .records)
            try container.encode(file.skipped, forKey: .skipped)
            try container.encode(file.error, forKey: .error)
        }
    }
}
