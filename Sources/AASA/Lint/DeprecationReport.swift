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
        /// What it is, for a person: the rule's title, the same for every place it applies.
        public var title: String
        /// The finding's own message, with the values it concerns.
        public var message: String
        /// Which systems still need it (for legacy parts) or what goes wrong (for broken ones).
        public var neededBy: String
        /// The concrete next step.
        public var nextStep: String

        enum CodingKeys: String, CodingKey {
            case rule, severity, location, title, message, neededBy, nextStep
        }
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

        /// The verdict of a set of findings: any error breaks the file; otherwise any
        /// deprecation makes it legacy (its warnings notwithstanding); otherwise any warning
        /// needs attention. `check` and `audit` decide through this one function.
        public init(severities: some Sequence<Severity>) {
            let present = Set(severities)
            if present.contains(.error) {
                self = .broken
            } else if present.contains(.deprecation) {
                self = .legacy
            } else if present.contains(.warning) {
                self = .needsAttention
            } else {
                self = .current
            }
        }
    }

    public var kind: FileKind
    public var verdict: Verdict
    /// What the file does (which apps get what), when its JSON could be read.
    public var effect: DocumentEffect?
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

    /// The rule for a signed file whose signature does not verify: the content or the
    /// signature was altered, or the file cannot be checked at all.
    public static let signatureRule: RuleID = "signature-not-valid"

    /// The rules for a signature that is intact but whose certificates fail the check: each
    /// names its true reason, so that an untrusted or expired chain never reads as tampering.
    public static let untrustedRule: RuleID = "certificate-untrusted"
    public static let expiredRule: RuleID = "certificate-expired"
    /// A chain that holds now but expires within `--min-days-valid` days: its own rule, so that
    /// a CI report tells "renew soon" from "already expired".
    public static let expiringSoonRule: RuleID = "certificate-expiring-soon"
    public static let notYetValidRule: RuleID = "certificate-not-yet-valid"
    public static let purposeRule: RuleID = "certificate-wrong-purpose"
    public static let hostRule: RuleID = "certificate-host-mismatch"

    /// The rule for a file that gives no app anything: a headline that says "works" for it
    /// would contradict what the file does.
    public static let noEffectRule: RuleID = "no-effect"

    /// The `no-effect` error of a file that gives no app anything, or nil: what `check` and
    /// `audit` report, and `lint` too, so that a gate and the report agree.
    public static func noEffectFinding(_ effect: DocumentEffect) -> Diagnostic? {
        effect.doesAnything ? nil : Diagnostic(noEffectRule, noEffectMessage(effect), at: .file, severity: .error)
    }

    /// `lint`'s ``noEffectFinding(_:)``: for a document that was read (none for a file that
    /// is not JSON, whose own error says why).
    public static func noEffectFinding(of lint: LintReport) -> Diagnostic? {
        lint.document.flatMap { noEffectFinding(DocumentEffect(document: $0)) }
    }

    static func noEffectMessage(_ effect: DocumentEffect) -> String {
        var why: [String] = []
        if !effect.universalLinks.isEmpty {
            why.append("no URL opens any of its applinks apps (every rule excludes, or none matches)")
        }
        if !effect.unusableAppIDs.isEmpty {
            why.append(
                "iOS cannot use the app identifiers \(effect.unusableAppIDs.map { "\"\($0)\"" }.joined(separator: ", ")) (no bundle part)"
            )
        }
        if effect.universalLinks.isEmpty && effect.unusableAppIDs.isEmpty { why.append("it names no app") }
        return "No app gets universal links, shared web credentials, Handoff or an App Clip from this file: "
            + why.joined(separator: "; ")
    }

    /// The rule and the message of a verification that failed.
    public static func finding(for verdict: VerificationVerdict) -> (rule: RuleID, message: String) {
        let reason = verdict.reason ?? verdict.code
        switch verdict {
        case .untrusted:
            return (untrustedRule, "the signature is intact, but its chain does not reach a trusted root: \(reason)")
        case .expired:
            return (expiredRule, "the signature is intact, but \(reason)")
        case .expiringSoon:
            return (expiringSoonRule, "the signature is intact and the chain valid now, but \(reason)")
        case .notYetValid:
            return (notYetValidRule, "the signature is intact, but \(reason)")
        case .wrongPurpose, .signerKeyUsage:
            return (purposeRule, "the signature is intact, but \(reason)")
        case .hostMismatch:
            return (hostRule, "the signature is intact, but \(reason)")
        case .weakAlgorithm:
            return (weakSignatureRule, "the verification policy refuses the signature: \(reason)")
        case .validThen:
            return (
                expiredRule,
                "the signature is intact and was \(reason). It fails today only because of time: a device that checks the signature now (iOS 8 required a signed file, for Handoff and shared web credentials) rejects it; from iOS 9 a plain JSON file served over HTTPS is enough, so serve the JSON unsigned"
            )
        case .valid, .notSigned, .malformed, .tampered, .unsupportedAlgorithm, .unsupportedCMS, .signerNotFound:
            return (signatureRule, "the signature does not verify (\(verdict.code)): \(reason)")
        }
    }

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
                // valid-then (`--historical`, asked for): the chain fails today only because of
                // time, which is a warning, not a broken file.
                let finding = Self.finding(for: verification.verdict)
                let severity: Severity = verification.verdict.isValidThen ? .warning : .error
                diagnostics.insert(Diagnostic(finding.rule, finding.message, at: .file, severity: severity), at: 0)
            }
            for warning in verification.warnings {
                diagnostics.append(Diagnostic(Self.weakSignatureRule, warning.message, at: .file, severity: .warning))
            }
        }
        if let document = lint.document {
            let effect = DocumentEffect(document: document)
            self.effect = effect
            if let noEffect = Self.noEffectFinding(effect) { diagnostics.append(noEffect) }
        }
        self.diagnostics = diagnostics
        var items = diagnostics.compactMap(Self.item)
        // A chain that stops because the file left its issuer out cannot be checked as of its
        // signing time either (`--historical` fails the same way): the step is to supply it.
        if let verification, case .missing(let issuer)? = SigningTimeCheck(verification)?.anchor {
            for index in items.indices where items[index].rule == Self.untrustedRule {
                items[index].nextStep = Self.missingIssuerStep(issuer)
            }
        }
        self.items = items
        guidance = Self.guidance(lint: lint, diagnostics: diagnostics)
        verdict = Verdict(severities: diagnostics.map(\.severity))
    }

    /// The next step of an untrusted chain whose issuer is not in the file: no command runs
    /// until the user has the certificate (or lets `--fetch-issuers` reach the network).
    static func missingIssuerStep(_ issuer: String) -> String {
        "The file embeds no certificate of its issuer, \"\(issuer)\": get it from an independent source "
            + "(a certificate-transparency log, an old CA bundle) and give it with --intermediates FILE, or let "
            + "--fetch-issuers fetch it from the signer's caIssuers URL; then check it as it was when signed "
            + "(--historical) and serve the JSON unsigned."
    }

    /// What to tell about a finding, or nil for findings that are not worth a line in the report.
    static func item(_ diagnostic: Diagnostic) -> Item? {
        let location = diagnostic.location.path.description
        func make(_ title: String, _ neededBy: String, _ nextStep: String) -> Item {
            Item(
                rule: diagnostic.rule, severity: diagnostic.severity, location: location, title: title,
                message: diagnostic.message, neededBy: neededBy, nextStep: nextStep)
        }
        if let guidance = RuleCatalogue.guidance(for: diagnostic.rule) {
            return make(guidance.title ?? diagnostic.message, guidance.neededBy, guidance.nextStep)
        }
        guard diagnostic.severity >= .warning else { return nil }
        return make(
            diagnostic.message,
            diagnostic.severity == .error ? "iOS rejects or ignores this part." : "Probably not what was meant.",
            "`aasa rules \(diagnostic.rule.rawValue)` says what it means and how to fix it.")
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

extension DeprecationReport.Item {
    /// Reads an item as `check` and `audit` write it. Items of aasa 0.2.0 have no `message`:
    /// theirs is the title.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rule = try container.decode(RuleID.self, forKey: .rule)
        severity = try container.decode(Severity.self, forKey: .severity)
        location = try container.decode(String.self, forKey: .location)
        title = try container.decode(String.self, forKey: .title)
        message = try container.decodeIfPresent(String.self, forKey: .message) ?? title
        neededBy = try container.decode(String.self, forKey: .neededBy)
        nextStep = try container.decode(String.self, forKey: .nextStep)
    }
}
