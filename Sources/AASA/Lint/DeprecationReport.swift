import Foundation

/// What `aasa check` says about one file: what is legacy, who still needs it, what Apple
/// recommends today, and the next step. Built from a ``LintReport`` and, for a signed file,
/// a ``VerificationResult``.
public struct DeprecationReport: Sendable, Codable {
    /// One legacy or broken part of the file.
    public struct Item: Sendable, Codable, Hashable {
        /// The lint rule that found it.
        public var rule: RuleID
        public var severity: Severity
        /// Where (a JSON path; `$` for the whole file).
        public var location: String
        /// What it is, for a person.
        public var title: String
        /// Which systems still need it (for legacy parts) or what goes wrong (for broken ones).
        public var neededBy: String
        /// The concrete next step.
        public var nextStep: String
    }

    /// One point of Apple's current guidance, and whether the file meets it.
    public struct GuidancePoint: Sendable, Codable, Hashable {
        public enum Status: String, Sendable, Codable {
            case met, notMet = "not-met", notCheckable = "not-checkable"
        }

        public var guidance: String
        public var status: Status
        public var detail: String?
    }

    /// The file's overall state.
    public enum Verdict: String, Sendable, Codable {
        /// Current format, no errors.
        case current
        /// Works, but has legacy parts to retire.
        case legacy
        /// No legacy parts, but warnings: probably not what was meant.
        case needsAttention = "needs-attention"
        /// Has errors: iOS rejects or ignores the file or part of it.
        case broken
    }

    public var kind: FileKind
    public var verdict: Verdict
    /// The signature check, for signed files.
    public var signature: SignatureSummary?
    /// Legacy parts (deprecations), then errors and warnings worth acting on.
    public var items: [Item]
    public var guidance: [GuidancePoint]
    /// Every lint finding, as `aasa lint` reports them.
    public var diagnostics: [Diagnostic]

    /// The signature part of a report.
    public struct SignatureSummary: Sendable, Codable, Hashable {
        public var valid: Bool
        public var verdict: String
        public var reason: String?
        public var signer: String?
        public var signerNotAfter: Date?
    }

    /// The rule for a signed file whose signature does not verify.
    public static let signatureRule: RuleID = "signature-not-valid"

    /// The rule for what the verification policy accepted with a warning (SHA-1, RSA or DSA keys
    /// under 2,048 bits, or weak algorithms allowed by `--allow-weak-crypto`).
    public static let weakSignatureRule: RuleID = "signature-weak-algorithm"

    public init(lint: LintReport, verification: VerificationResult? = nil) {
        kind = lint.kind
        var diagnostics = lint.diagnostics
        if let verification {
            signature = SignatureSummary(
                valid: verification.isValid, verdict: verification.verdict.code, reason: verification.verdict.reason,
                signer: verification.signers.first?.subject, signerNotAfter: verification.signers.first?.notAfter)
            if !verification.isValid {
                diagnostics.insert(
                    Diagnostic(
                        Self.signatureRule,
                        "the signature does not verify (\(verification.verdict.code)): \(verification.verdict.reason ?? "")",
                        at: .file, severity: .error),
                    at: 0)
            }
            for warning in verification.warnings {
                diagnostics.append(Diagnostic(Self.weakSignatureRule, warning.message, at: .file, severity: .warning))
            }
        }
        self.diagnostics = diagnostics
        items = diagnostics.compactMap(Self.item)
        guidance = Self.guidance(lint: lint, diagnostics: diagnostics)
        if diagnostics.contains(where: { $0.severity == .error }) {
            verdict = .broken
        } else if diagnostics.contains(where: { $0.severity == .deprecation }) {
            verdict = .legacy
        } else if diagnostics.contains(where: { $0.severity == .warning }) {
            verdict = .needsAttention
        } else {
            verdict = .current
        }
    }

    /// What to tell about a finding, or nil for findings that are not worth a line in the report.
    static func item(_ diagnostic: Diagnostic) -> Item? {
        let location = diagnostic.location.path.description
        func make(_ title: String, _ neededBy: String, _ nextStep: String) -> Item {
            Item(
                rule: diagnostic.rule, severity: diagnostic.severity, location: location, title: title,
                neededBy: neededBy, nextStep: nextStep)
        }
        switch diagnostic.rule {
        case .signedFile:
            return make(
                "The file is signed (PKCS#7, served as application/pkcs7-mime).",
                "Only iOS 8, and serving over plain HTTP, ever needed a signature. iOS 9 and later read unsigned JSON over HTTPS.",
                "Extract the JSON (`aasa extract FILE --lf -o apple-app-site-association`) and serve it unsigned as application/json."
            )
        case .legacyAppsKey:
            return make(
                "applinks.apps is present.",
                "Only iOS 12 and earlier require \"apps\": []; later versions ignore it.",
                "Keep it while the app supports iOS 12 or earlier; remove it after.")
        case .legacyDetailsDictionary:
            return make(
                "applinks.details is an object keyed by app ID (the iOS 9 beta form).",
                "No current iOS needs this form; every iOS since 9 reads the array form.",
                "Rewrite details as an array of entries, each with appIDs and components.")
        case .legacyPaths:
            return make(
                "An entry uses paths instead of components.",
                "iOS 12 and earlier read only paths; iOS 13 and later read components and ignore paths when both are present.",
                "Add components with the same meaning (`NOT ` becomes exclude: true); keep paths only while supporting iOS 12."
            )
        case .legacyAppID:
            return make(
                "An entry uses appID instead of appIDs.",
                "iOS 12 and earlier read only appID; iOS 13 and later read appIDs.",
                "Add appIDs (merging entries with identical rules); keep appID only while supporting iOS 12.")
        case .fileTooLarge:
            return make(
                "The file is over 128 KB.", "iOS and Apple's CDN reject files over 128 KB uncompressed.",
                "Shrink it: merge entries with appIDs, use wildcards and substitution variables.")
        case Self.signatureRule:
            return make(
                "The signature does not verify.", "A device that checks the signature rejects the file.",
                "Stop signing: serve the JSON unsigned (`aasa extract --no-verify --lf` after checking its content).")
        case Self.weakSignatureRule:
            return make(
                diagnostic.message, "Verifiers that refuse SHA-1 or short keys reject the file.",
                "Stop signing: serve the JSON unsigned; if a signature is still needed, re-sign with SHA-256 and a 2048-bit key."
            )
        default:
            guard diagnostic.severity >= .warning else { return nil }
            return make(
                diagnostic.message,
                diagnostic.severity == .error ? "iOS rejects or ignores this part." : "Probably not what was meant.",
                "See docs/rules.md#\(diagnostic.rule.rawValue).")
        }
    }

    static func guidance(lint: LintReport, diagnostics: [Diagnostic]) -> [GuidancePoint] {
        func has(_ rule: RuleID) -> Bool { diagnostics.contains { $0.rule == rule } }
        let unparseable = lint.document == nil
        var points: [GuidancePoint] = []
        points.append(
            GuidancePoint(
                guidance: "Unsigned JSON",
                status: lint.kind.isSigned || lint.kind != .json && !lint.kind.isSigned ? .notMet : .met,
                detail: lint.kind.isSigned
                    ? "the file is PKCS#7 (\(lint.kind.rawValue))"
                    : lint.kind == .json ? nil : "the file is \(lint.kind.rawValue)"))
        points.append(
            GuidancePoint(guidance: "At most 128 KB", status: has(.fileTooLarge) ? .notMet : .met, detail: nil))
        let modern = !unparseable && !has(.legacyPaths) && !has(.legacyAppID) && !has(.legacyDetailsDictionary)
        points.append(
            GuidancePoint(
                guidance: "appIDs and components (iOS 13+)", status: unparseable ? .notMet : modern ? .met : .notMet,
                detail: unparseable ? "the JSON does not parse" : nil))
        points.append(
            GuidancePoint(
                guidance:
                    "Served at https://DOMAIN/.well-known/apple-app-site-association as application/json, with no redirect",
                status: .notCheckable,
                detail:
                    "a hosting question, not answerable from the file: fetch it as Apple does (no redirect followed) and check the status and Content-Type"
            ))
        return points
    }
}
