import AASA
import Foundation

/// The `verify --format json` document for one file (a stable contract: docs/cli.md).
public struct VerificationReport: Encodable, Sendable {
    public var path: String
    public var valid: Bool
    /// The verdict code: valid, not-signed, malformed, tampered, unsupported-algorithm,
    /// unsupported-cms, weak-algorithm, signer-not-found, untrusted, expired, not-yet-valid,
    /// wrong-purpose, host-mismatch, expiring-soon.
    public var verdict: String
    /// Why not valid; null when valid.
    public var reason: String?
    public var kind: String
    public var checkedAt: Date
    public var purpose: String
    public var domain: String?
    public var signerInfos: [SignerInfo]
    public var signer: CertificateInfo?
    public var chain: [CertificateInfo]
    /// The verification policy's warnings, one sentence each (SHA-1, keys under 2048 bits, …).
    public var warnings: [String]
    /// Every problem of a refused chain, the verdict's first: `{verdict, reason}`.
    public var problems: [Problem]
    /// valid-then (`--historical`): the window, the time used, the root, what fails today; null otherwise.
    public var historical: Historical?

    public struct Historical: Encodable, Sendable {
        public var window: Window
        public var checkedAt: Date
        public var timeSource: String
        public var signingTime: Date?
        public var store: String
        public var root: Root
        public var failsToday: [String]

        public struct Window: Encodable, Sendable {
            public var from: Date
            public var until: Date
        }

        public struct Root: Encodable, Sendable {
            public var subject: String
            public var sha256: String
            public var inStoreFrom: Date
            public var lastSeen: Date
            public var removedBy: Date?

            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(subject, forKey: .subject)
                try container.encode(sha256, forKey: .sha256)
                try container.encode(inStoreFrom, forKey: .inStoreFrom)
                try container.encode(lastSeen, forKey: .lastSeen)
                try container.encode(removedBy, forKey: .removedBy)  // explicit null: still in
            }

            enum CodingKeys: String, CodingKey { case subject, sha256, inStoreFrom, lastSeen, removedBy }
        }

        public init(_ validity: HistoricalValidity) {
            window = Window(from: validity.window.lowerBound, until: validity.window.upperBound)
            checkedAt = validity.checkedAt
            timeSource = validity.timeSource.rawValue
            signingTime = validity.signingTime
            store = validity.store
            root = Root(
                subject: validity.root.subject, sha256: validity.root.sha256Fingerprint,
                inStoreFrom: validity.rootPeriod.from, lastSeen: validity.rootPeriod.lastSeen,
                removedBy: validity.rootPeriod.removedBy)
            failsToday = validity.failsToday
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(window, forKey: .window)
            try container.encode(checkedAt, forKey: .checkedAt)
            try container.encode(timeSource, forKey: .timeSource)
            try container.encode(signingTime, forKey: .signingTime)  // explicit null: none
            try container.encode(store, forKey: .store)
            try container.encode(root, forKey: .root)
            try container.encode(failsToday, forKey: .failsToday)
        }

        enum CodingKeys: String, CodingKey { case window, checkedAt, timeSource, signingTime, store, root, failsToday }
    }

    public struct Problem: Encodable, Sendable {
        public var verdict: String
        public var reason: String
    }

    public init(path: String, result: VerificationResult, options: VerificationOptions) {
        self.path = path
        valid = result.isValid
        verdict = result.verdict.code
        reason = result.verdict.reason
        kind = result.kind.rawValue
        checkedAt = result.checkedAt
        purpose = options.purpose.rawValue
        domain = options.hostname
        signerInfos = result.signerInfos
        signer = result.signers.first
        chain = result.chain
        warnings = result.warnings.map(\.message)
        problems = Self.problems(of: result).map { Problem(verdict: $0.code, reason: $0.reason ?? $0.code) }
        if case .validThen(let validity) = result.verdict { historical = Historical(validity) }
    }

    enum CodingKeys: String, CodingKey {
        case path, valid, verdict, reason, kind, checkedAt, purpose, domain, signerInfos, signer, chain, warnings
        case problems, historical
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(valid, forKey: .valid)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(reason, forKey: .reason)  // explicit null when valid
        try container.encode(kind, forKey: .kind)
        try container.encode(checkedAt, forKey: .checkedAt)
        try container.encode(purpose, forKey: .purpose)
        try container.encode(domain, forKey: .domain)
        try container.encode(signerInfos, forKey: .signerInfos)
        try container.encode(signer, forKey: .signer)
        try container.encode(chain, forKey: .chain)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(problems, forKey: .problems)
        try container.encode(historical, forKey: .historical)  // explicit null unless valid-then
    }

    /// Every problem of a refused chain, the verdict's first; empty when valid.
    public static func problems(of result: VerificationResult) -> [VerificationVerdict] {
        guard !result.isAccepted else { return [] }
        var all = [result.verdict]
        for problem in result.chainProblems where !all.contains(problem) { all.append(problem) }
        return all
    }
}
