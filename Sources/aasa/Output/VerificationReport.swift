import AASA
import Foundation

/// The `verify --format json` document for one file (a stable contract: docs/cli.md).
struct VerificationReport: Encodable {
    var path: String
    var valid: Bool
    /// The verdict code: valid, not-signed, malformed, tampered, unsupported-algorithm,
    /// unsupported-cms, weak-algorithm, signer-not-found, untrusted, expired, not-yet-valid,
    /// wrong-purpose, host-mismatch, expiring-soon.
    var verdict: String
    /// Why not valid; null when valid.
    var reason: String?
    var kind: String
    var checkedAt: Date
    var purpose: String
    var domain: String?
    var signerInfos: [SignerInfo]
    var signer: CertificateInfo?
    var chain: [CertificateInfo]
    /// The verification policy's warnings, one sentence each (SHA-1, keys under 2048 bits, …).
    var warnings: [String]
    /// Every problem of a refused chain, the verdict's first: `{verdict, reason}`.
    var problems: [Problem]
    /// valid-then (`--historical`): the window, the time used, the root, what fails today; null otherwise.
    var historical: Historical?

    struct Historical: Encodable {
        var window: Window
        var checkedAt: Date
        var timeSource: String
        var signingTime: Date?
        var store: String
        var root: Root
        var failsToday: [String]

        struct Window: Encodable {
            var from: Date
            var until: Date
        }

        struct Root: Encodable {
            var subject: String
            var sha256: String
            var inStoreFrom: Date
            var lastSeen: Date
            var removedBy: Date?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(subject, forKey: .subject)
                try container.encode(sha256, forKey: .sha256)
                try container.encode(inStoreFrom, forKey: .inStoreFrom)
                try container.encode(lastSeen, forKey: .lastSeen)
                try container.encode(removedBy, forKey: .removedBy)  // explicit null: still in
            }

            enum CodingKeys: String, CodingKey { case subject, sha256, inStoreFrom, lastSeen, removedBy }
        }

        init(_ validity: HistoricalValidity) {
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

        func encode(to encoder: any Encoder) throws {
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

    struct Problem: Encodable {
        var verdict: String
        var reason: String
    }

    init(path: String, result: VerificationResult, options: VerificationOptions) {
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
        problems = TextReport.problems(of: result).map { Problem(verdict: $0.code, reason: $0.reason ?? $0.code) }
        if case .validThen(let validity) = result.verdict { historical = Historical(validity) }
    }

    enum CodingKeys: String, CodingKey {
        case path, valid, verdict, reason, kind, checkedAt, purpose, domain, signerInfos, signer, chain, warnings
        case problems, historical
    }

    func encode(to encoder: any Encoder) throws {
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
}

/// Text rendering of certificates and verification results.
enum TextReport {
    static func date(_ date: Date) -> String { InternetDateTime.string(from: date) }

    static func certificate(_ info: CertificateInfo, indent: String) -> [String] {
        var lines = [
            "\(indent)subject:  \(info.subject)",
            "\(indent)issuer:   \(info.issuer)",
            "\(indent)serial:   \(info.serialNumber)",
            "\(indent)validity: \(date(info.notBefore)) .. \(date(info.notAfter))",
            "\(indent)key:      \(info.keyDescription)",
        ]
        if !info.subjectAlternativeNames.isEmpty {
            lines.append("\(indent)SANs:     \(info.subjectAlternativeNames.joined(separator: ", "))")
        }
        if let usage = info.extendedKeyUsage { lines.append("\(indent)EKU:      \(usage.joined(separator: ", "))") }
        lines.append("\(indent)SHA-256:  \(info.sha256Fingerprint)")
        return lines
    }

    /// Every problem of a refused chain, the verdict's first; empty when valid.
    static func problems(of result: VerificationResult) -> [VerificationVerdict] {
        guard !result.isAccepted else { return [] }
        var all = [result.verdict]
        for problem in result.chainProblems where !all.contains(problem) { all.append(problem) }
        return all
    }

    static func verification(path: String, result: VerificationResult) -> [String] {
        var lines = ["\(Diagnostics.displayName(path)): \(result.verdict.code)"]
        if case .validThen(let validity) = result.verdict {
            lines += historical(validity)
        } else if let reason = result.verdict.reason {
            lines.append("  reason:     \(reason)")
        }
        // Every problem of the chain, not only the first: untrusted *and* expired, with dates.
        let problems = problems(of: result)
        if problems.count > 1 {
            lines.append("  problems:")
            for problem in problems { lines.append("    \(problem.code): \(problem.reason ?? "")") }
        }
        for warning in result.warnings { lines.append("  warning:    \(warning.message)") }
        lines.append("  kind:       \(result.kind.rawValue)")
        lines.append("  checked at: \(date(result.checkedAt))")
        for info in result.signerInfos {
            let attributes = info.hasSignedAttributes ? "present" : "none"
            lines.append(
                "  digest:     \(info.digestAlgorithm) with \(info.signatureAlgorithm), signed attributes: \(attributes)"
            )
        }
        if let signer = result.signers.first {
            lines.append("  signer:")
            lines += certificate(signer, indent: "    ")
        }
        if !result.chain.isEmpty {
            lines.append("  chain:")
            for (depth, info) in result.chain.enumerated() { lines.append("    \(depth) \(info.subject)") }
        }
        if result.suggestsHistoricalMode {
            let file = path == "-" ? "FILE" : ShellWord.quoted(path)
            lines.append(
                "  legacy file? check it as it was when signed (Mozilla's root store of the time): aasa verify \(file) --historical"
            )
        }
        if let check = SigningTimeCheck(result) { lines += nextStep(check, path: path) }
        return lines
    }

    /// The lines of a valid-then verdict (`--historical`).
    static func historical(_ validity: HistoricalValidity) -> [String] {
        var lines = [
            "  meaning:    valid when signed, not today: the signature is intact and the chain was valid under a root of \(validity.store)",
            "  window:     \(date(validity.window.lowerBound)) .. \(date(validity.window.upperBound)) (every certificate valid, the root in the store)",
            "  time used:  \(validity.timeDescription)",
            "  root:       \(validity.root.subject)",
            "              SHA-256 \(validity.root.sha256Fingerprint)",
            "              in \(validity.store) \(validity.rootPeriodDescription)",
        ]
        for (index, reason) in validity.failsToday.enumerated() {
            lines.append((index == 0 ? "  fails today: " : "              ") + reason)
        }
        return lines
    }

    /// The commands that check the file as of its signing time (``SigningTimeCheck``).
    static func nextStep(_ check: SigningTimeCheck, path: String) -> [String] {
        let file = path == "-" ? "FILE" : ShellWord.quoted(path)
        let at = date(check.time)
        switch check.anchor {
        case .trustedRoot:
            return [
                "  next step:  check it as of a time when its certificates were all valid:",
                "    aasa verify \(file) --at \(at)",
            ]
        case .embedded(let index, let certificate):
            let pem = "issuer-\(index).pem"
            return [
                "  next step:  check it as of its signing time, trusting the issuer it embeds, \"\(certificate.subject)\"",
                "              (it comes from the file itself: compare its SHA-256 with an independent copy first,",
                "              \(certificate.sha256Fingerprint)):",
                "    aasa inspect \(file) --format pem --certificate \(index) > \(pem)",
                "    aasa verify \(file) --ca-file \(pem) --no-system-roots --partial-chain --at \(at)",
            ]
        case .missing(let issuer):
            return [
                "  next step:  the file embeds no certificate of its issuer, \"\(issuer)\": give it as an",
                "              untrusted intermediate with --intermediates FILE, or fetch it from the certificate's",
                "              caIssuers URL with --fetch-issuers; to check the file as of its signing time, get it",
                "              from an independent source (a certificate-transparency log, an old CA bundle) as",
                "              issuer.pem, then:",
                "    aasa verify \(file) --ca-file issuer.pem --no-system-roots --partial-chain --at \(at)",
            ]
        }
    }
}
