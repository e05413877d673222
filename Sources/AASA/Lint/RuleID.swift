/// The identifier of a lint rule. These strings are a public contract (docs/rules.md): a rule
/// keeps its ID for ever; new rules get new IDs.
public struct RuleID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    /// The rule's default severity.
    public var severity: Severity { RuleCatalogue.entries[self]?.severity ?? .warning }

    /// A one-line summary of when the rule fires.
    public var summary: String { RuleCatalogue.entries[self]?.summary ?? "" }

    // MARK: File
    public static let invalidJSON: RuleID = "invalid-json"
    public static let rootNotObject: RuleID = "root-not-object"
    public static let byteOrderMark: RuleID = "byte-order-mark"
    public static let fileTooLarge: RuleID = "file-too-large"
    public static let signedFile: RuleID = "signed-file"
    public static let unreadableSignedFile: RuleID = "unreadable-signed-file"
    public static let noKnownService: RuleID = "no-known-service"
    public static let unknownTopLevelKey: RuleID = "unknown-top-level-key"
    public static let unknownKey: RuleID = "unknown-key"
    public static let wrongType: RuleID = "wrong-type"
    public static let duplicateKey: RuleID = "duplicate-key"
    // MARK: applinks structure
    public static let emptyDetails: RuleID = "empty-details"
    public static let missingDetails: RuleID = "missing-details"
    public static let legacyAppsKey: RuleID = "legacy-apps-key"
    public static let appsNotEmpty: RuleID = "apps-not-empty"
    public static let legacyDetailsDictionary: RuleID = "legacy-details-dictionary"
    public static let legacyPaths: RuleID = "legacy-paths"
    public static let pathsIgnoredWithComponents: RuleID = "paths-ignored-with-components"
    public static let legacyAppID: RuleID = "legacy-appid"
    public static let appIDAndAppIDs: RuleID = "appid-and-appids"
    public static let notPrefixInComponents: RuleID = "not-prefix-in-components"
    // MARK: App identifiers
    public static let missingAppID: RuleID = "missing-appid"
    public static let emptyAppID: RuleID = "empty-appid"
    public static let appIDWithoutBundle: RuleID = "appid-without-bundle"
    public static let appIDPrefixFormat: RuleID = "appid-prefix-format"
    public static let duplicateAppID: RuleID = "duplicate-appid"
    // MARK: Rules
    public static let noRules: RuleID = "no-rules"
    public static let catchAllRule: RuleID = "catch-all-rule"
    public static let unreachableRule: RuleID = "unreachable-rule"
    public static let unknownComponentKey: RuleID = "unknown-component-key"
    public static let queryValueNotString: RuleID = "query-value-not-string"
    public static let patternInDefaults: RuleID = "pattern-in-defaults"
    // MARK: Substitution variables
    public static let invalidVariableName: RuleID = "invalid-variable-name"
    public static let nestedVariable: RuleID = "nested-variable"
    public static let undefinedVariable: RuleID = "undefined-variable"
    public static let emptyVariable: RuleID = "empty-variable"
    public static let variableShadowsBuiltin: RuleID = "variable-shadows-builtin"
    public static let unterminatedVariable: RuleID = "unterminated-variable"
    public static let emptyVariableValue: RuleID = "empty-variable-value"
}

/// Every rule with its severity and summary: the source for `docs/rules.md`, SARIF rule
/// metadata, and `aasa lint --list-rules`.
public enum RuleCatalogue {
    public struct Entry: Sendable {
        public let id: RuleID
        public let severity: Severity
        public let summary: String
        /// What `check` and `audit` tell about a finding of this rule; nil for the generic words.
        public let guidance: RuleGuidance?

        init(id: RuleID, severity: Severity, summary: String, guidance: RuleGuidance? = nil) {
            self.id = id
            self.severity = severity
            self.summary = summary
            self.guidance = guidance
        }
    }

    /// The guidance of a rule: a lint rule's, or one of ``verificationRules``.
    public static func guidance(for rule: RuleID) -> RuleGuidance? {
        guidanceByRule[rule]
    }

    private static let guidanceByRule: [RuleID: RuleGuidance] = Dictionary(
        (all + verificationRules + effectRules).compactMap { entry in entry.guidance.map { (entry.id, $0) } },
        uniquingKeysWith: { first, _ in first })

    /// The findings `check` and `audit` add from verifying a signed file (the linter never
    /// verifies, so they are not in ``all``).
    public static let verificationRules: [Entry] = [
        Entry(
            id: DeprecationReport.signatureRule, severity: .error,
            summary:
                "A signed file whose signature does not verify: the content or the signature was altered, or it cannot be checked.",
            guidance: RuleGuidance(
                title: "The signature does not verify: the content or the signature was altered.",
                neededBy: "A device that checks the signature rejects the file.",
                nextStep:
                    "Do not trust its content: get the file from its source again, or stop signing and serve JSON you have checked."
            )),
        Entry(
            id: DeprecationReport.untrustedRule, severity: .error,
            summary: "The signature is intact, but its certificate chain does not reach a trusted root.",
            guidance: RuleGuidance(
                title: "The signature is intact, but its certificate chain does not reach a trusted root.",
                neededBy: "A device that checks the signature rejects the file; the content was not altered.",
                nextStep:
                    "Check it as it was when signed, against Mozilla's root store of the time: `aasa verify FILE --historical` (valid-then: only time fails it). Then serve the JSON unsigned (`aasa convert FILE --historical -o apple-app-site-association`)."
            )),
        Entry(
            id: DeprecationReport.expiredRule, severity: .error,
            summary: "The signature is intact, but a certificate of its chain has expired.",
            guidance: RuleGuidance(
                title: "The signature is intact, but a certificate of its chain has expired.",
                neededBy: "A device that checks the signature rejects the file; the content was not altered.",
                nextStep:
                    "Check it as it was when signed, against Mozilla's root store of the time: `aasa verify FILE --historical` (valid-then: only time fails it). Then serve the JSON unsigned (`aasa convert FILE --historical -o apple-app-site-association`)."
            )),
        Entry(
            id: DeprecationReport.expiringSoonRule, severity: .error,
            summary:
                "The signature is intact and the chain valid now, but a certificate expires within --min-days-valid days.",
            guidance: RuleGuidance(
                title: "The chain is valid now, but a certificate of it expires soon.",
                neededBy:
                    "Devices that check the signature accept the file until the certificate expires, then reject it.",
                nextStep:
                    "Before that date, serve the JSON unsigned (`aasa convert FILE -o apple-app-site-association`), or re-sign with a renewed certificate (`aasa sign`)."
            )),
        Entry(
            id: DeprecationReport.notYetValidRule, severity: .error,
            summary: "The signature is intact, but a certificate of its chain is not valid yet.",
            guidance: RuleGuidance(
                title: "The signature is intact, but a certificate of its chain is not valid yet.",
                neededBy: "A device that checks the signature rejects the file until then.",
                nextStep:
                    "Check the clock of the machine that checks it, and the certificate's dates: `aasa verify FILE`."
            )),
        Entry(
            id: DeprecationReport.purposeRule, severity: .error,
            summary:
                "The signature is intact, but the signer certificate is not for this purpose (extendedKeyUsage or keyUsage).",
            guidance: RuleGuidance(
                title: "The signature is intact, but the signer certificate is not for this purpose.",
                neededBy: "A device that checks the signature rejects the file.",
                nextStep: "Serve the JSON unsigned, or re-sign with a TLS server certificate (`aasa sign`)."
            )),
        Entry(
            id: DeprecationReport.hostRule, severity: .error,
            summary: "The signature is intact, but the signer certificate does not name the domain (--domain).",
            guidance: RuleGuidance(
                title: "The signature is intact, but the signer certificate does not name this domain.",
                neededBy: "A device that checks the signature for this domain rejects the file.",
                nextStep: "Serve the JSON unsigned, or re-sign with a certificate for the domain (`aasa sign`)."
            )),
        Entry(
            id: DeprecationReport.weakSignatureRule, severity: .warning,
            summary: "A signature the verification policy accepts with a warning (SHA-1, a key under 2,048 bits).",
            guidance: RuleGuidance(
                title: nil, neededBy: "Verifiers that refuse SHA-1 or short keys reject the file.",
                nextStep:
                    "Stop signing: serve the JSON unsigned; if a signature is still needed, re-sign with SHA-256 and a 2048-bit key."
            )),
    ]

    /// The findings `check` and `audit` add from what the whole file does (``DocumentEffect``).
    public static let effectRules: [Entry] = [
        Entry(
            id: DeprecationReport.noEffectRule, severity: .error,
            summary: "No app gets universal links, shared web credentials, Handoff or an App Clip from the file.",
            guidance: RuleGuidance(
                title: "No app gets anything from this file.",
                neededBy: "No universal link opens an app; no other service works for this domain.",
                nextStep:
                    "Name each app as <App ID prefix>.<bundle ID> in appIDs, with at least one rule that is not excluded: `aasa lint FILE` lists the parts."
            ))
    ]

    /// In documentation order.
    public static let all: [Entry] = [
        Entry(
            id: .invalidJSON, severity: .error,
            summary: "The file is not valid JSON (comments and trailing commas included)."),
        Entry(id: .rootNotObject, severity: .error, summary: "The top level is not an object."),
        Entry(
            id: .byteOrderMark, severity: .warning, summary: "The file starts with a UTF-8 byte-order mark (U+FEFF)."),
        Entry(
            id: .fileTooLarge, severity: .error,
            summary: "The file is over 128 KB (131,072 bytes) uncompressed, signed or not.",
            guidance: RuleGuidance(
                title: "The file is over 128 KB.",
                neededBy: "iOS and Apple's CDN reject files over 128 KB uncompressed.",
                nextStep: "Shrink it: merge entries with appIDs, use wildcards and substitution variables.")),
        Entry(
            id: .signedFile, severity: .deprecation,
            summary: "The file is PKCS#7 SignedData; only iOS 8 and plain-HTTP serving ever needed that.",
            guidance: RuleGuidance(
                title: "The file is signed (PKCS#7, served as application/pkcs7-mime).",
                neededBy:
                    "Only iOS 8, and serving over plain HTTP, ever needed a signature. iOS 9 and later read unsigned JSON over HTTPS.",
                nextStep:
                    "Take the JSON out (`aasa convert FILE --historical -o apple-app-site-association`: verified as it was when signed, which a file valid today also passes) and serve it unsigned as application/json."
            )),
        Entry(
            id: .unreadableSignedFile, severity: .error,
            summary: "PKCS#7 whose JSON cannot be read: damaged, detached, not SignedData, or content that is not JSON."
        ),
        Entry(
            id: .noKnownService, severity: .warning,
            summary: "None of applinks, webcredentials, appclips, activitycontinuation is present."),
        Entry(id: .unknownTopLevelKey, severity: .info, summary: "A top-level key other than the four services."),
        Entry(
            id: .unknownKey, severity: .info,
            summary: "A key the format does not define, below the top level (outside components)."),
        Entry(id: .wrongType, severity: .error, summary: "A known field has the wrong JSON type."),
        Entry(
            id: .duplicateKey, severity: .warning,
            summary: "The same key twice in one JSON object (only one of the values is used)."),
        Entry(id: .emptyDetails, severity: .warning, summary: "applinks.details is empty."),
        Entry(id: .missingDetails, severity: .error, summary: "applinks has no details key."),
        Entry(
            id: .legacyAppsKey, severity: .deprecation,
            summary: "applinks.apps is present (only iOS 12 and earlier need it).",
            guidance: RuleGuidance(
                title: "applinks.apps is present.",
                neededBy: "Only iOS 12 and earlier require \"apps\": []; later versions ignore it.",
                nextStep: "Keep it while the app supports iOS 12 or earlier; remove it after.")),
        Entry(id: .appsNotEmpty, severity: .error, summary: "applinks.apps is a non-empty array."),
        Entry(
            id: .legacyDetailsDictionary, severity: .deprecation, summary: "details is an object keyed by app ID.",
            guidance: RuleGuidance(
                title: "applinks.details is an object keyed by app ID (the iOS 9 beta form).",
                neededBy: "No current iOS needs this form; every iOS since 9 reads the array form.",
                nextStep: "Rewrite details as an array of entries, each with appIDs and components.")),
        Entry(
            id: .legacyPaths, severity: .deprecation, summary: "An entry has paths and no components.",
            guidance: RuleGuidance(
                title: "An entry uses paths instead of components.",
                neededBy:
                    "iOS 12 and earlier read only paths; iOS 13 and later read components and ignore paths when both are present.",
                nextStep:
                    "Add components with the same meaning (`NOT ` becomes exclude: true); keep paths only while supporting iOS 12."
            )),
        Entry(
            id: .pathsIgnoredWithComponents, severity: .warning,
            summary: "An entry has both paths and components (iOS 13+ ignores paths)."),
        Entry(
            id: .legacyAppID, severity: .deprecation, summary: "An entry has appID and no appIDs.",
            guidance: RuleGuidance(
                title: "An entry uses appID instead of appIDs.",
                neededBy: "iOS 12 and earlier read only appID; iOS 13 and later read appIDs.",
                nextStep: "Add appIDs (merging entries with identical rules); keep appID only while supporting iOS 12.")
        ),
        Entry(id: .appIDAndAppIDs, severity: .warning, summary: "An entry has both appID and appIDs."),
        Entry(
            id: .notPrefixInComponents, severity: .error,
            summary: "A components \"/\" pattern starts with \"NOT \" (literal text there; use exclude)."),
        Entry(id: .missingAppID, severity: .error, summary: "An entry has neither appID nor appIDs."),
        Entry(id: .emptyAppID, severity: .error, summary: "An empty app identifier."),
        Entry(id: .appIDWithoutBundle, severity: .warning, summary: "An app identifier without a \".\"."),
        Entry(
            id: .appIDPrefixFormat, severity: .warning,
            summary: "The part before the first \".\" is not exactly 10 ASCII letters or digits (any service)."),
        Entry(
            id: .duplicateAppID, severity: .warning,
            summary: "The same app identifier twice (across entries or inside one appIDs)."),
        Entry(id: .noRules, severity: .warning, summary: "An entry has neither components nor paths."),
        Entry(
            id: .catchAllRule, severity: .warning,
            summary: "A components rule that matches every URL; a legacy \"*\" path is exempt."),
        Entry(id: .unreachableRule, severity: .warning, summary: "A rule after a catch-all in the same entry."),
        Entry(
            id: .unknownComponentKey, severity: .warning,
            summary: "A components key other than / ? # exclude comment caseSensitive percentEncoded."),
        Entry(
            id: .queryValueNotString, severity: .error,
            summary: "A \"?\" dictionary value is not a string (iOS then ignores the whole dictionary)."),
        Entry(id: .patternInDefaults, severity: .info, summary: "defaults holds /, ?, # or exclude."),
        Entry(id: .invalidVariableName, severity: .error, summary: "A substitution variable name contains $, ( or )."),
        Entry(id: .nestedVariable, severity: .error, summary: "A variable's value contains $(."),
        Entry(
            id: .undefinedVariable, severity: .error,
            summary: "A pattern uses $(name) that is neither defined nor built in."),
        Entry(id: .emptyVariable, severity: .warning, summary: "A variable with an empty list."),
        Entry(id: .variableShadowsBuiltin, severity: .warning, summary: "A custom variable named like a built-in one."),
        Entry(id: .unterminatedVariable, severity: .error, summary: "$( without )."),
        Entry(id: .emptyVariableValue, severity: .warning, summary: "\"\" among a variable's values."),
    ]

    /// Entries by ID.
    public static let entries: [RuleID: Entry] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
}
