/// A group of rules, as docs/rules.md groups them: the lint rules by what they look at, then
/// the findings only `check` and `audit` add.
public enum RuleCategory: String, Sendable, Codable, CaseIterable {
    /// The file as a whole: JSON, size, signing, services, keys.
    case file
    /// The shape of `applinks`: apps, details, legacy forms.
    case structure
    /// App identifiers.
    case appIdentifiers = "app-identifiers"
    /// The URL rules of an entry: components, paths, defaults.
    case urlRules = "url-rules"
    /// Substitution variables.
    case variables
    /// A signed file's signature and chain (`check`, `audit`).
    case signature
    /// What the whole file does (`check`, `audit`).
    case effect
    /// How a live domain serves the file (`audit`).
    case hosting

    /// The heading docs/rules.md and `--list-rules` use.
    public var title: String {
        switch self {
        case .file: return "File"
        case .structure: return "applinks structure"
        case .appIdentifiers: return "App identifiers"
        case .urlRules: return "URL rules"
        case .variables: return "Substitution variables"
        case .signature: return "Signature (check, audit)"
        case .effect: return "What the file does (check, audit)"
        case .hosting: return "Hosting (audit)"
        }
    }
}

/// An `aasa` command that rewrites a file so that a rule no longer fires.
public struct RuleFix: Sendable, Hashable, Codable {
    /// The subcommand: `convert` or `migrate`.
    public let command: String
    /// What it does about the finding, in one line.
    public let summary: String

    public init(command: String, summary: String) {
        self.command = command
        self.summary = summary
    }
}

/// Everything `aasa` publishes about one rule: for `lint --list-rules`, SARIF's
/// `tool.driver.rules` and docs/rules.md.
public struct RuleMetadata: Sendable, Hashable {
    public let id: RuleID
    /// The default severity (a configuration or `--severity` may change it).
    public let severity: Severity
    public let category: RuleCategory
    /// When it fires, in one line.
    public let summary: String
    /// When it fires and why it matters, in a few sentences (paragraphs separated by a blank line).
    public let fullDescription: String
    /// The version of `aasa` that introduced the rule.
    public let since: String
    /// The command that fixes its findings automatically, if any.
    public let fix: RuleFix?

    public init(
        id: RuleID, severity: Severity, category: RuleCategory, summary: String, fullDescription: String,
        since: String, fix: RuleFix?
    ) {
        self.id = id
        self.severity = severity
        self.category = category
        self.summary = summary
        self.fullDescription = fullDescription
        self.since = since
        self.fix = fix
    }
}

/// The metadata of every rule the `AASA` library knows: the lint rules (``RuleCatalogue/all``)
/// and the findings `check` and `audit` add (verification, effect). `AASAAudit` adds its
/// hosting rules (`HostingRules.metadata`).
public enum RuleRegistry {
    /// The lint rules, in documentation order.
    public static let lintRules: [RuleMetadata] = RuleCatalogue.all.map(metadata(of:))

    /// The findings only `check` and `audit` add: verification, then effect.
    public static let reportRules: [RuleMetadata] = (RuleCatalogue.verificationRules + RuleCatalogue.effectRules)
        .map(metadata(of:))

    /// ``lintRules`` then ``reportRules``.
    public static let all: [RuleMetadata] = lintRules + reportRules

    private static let byID: [RuleID: RuleMetadata] = Dictionary(
        all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

    /// The metadata of a rule of ``all`` (nil for other IDs, such as `AASAAudit`'s hosting rules).
    public static func metadata(for rule: RuleID) -> RuleMetadata? { byID[rule] }

    private static func metadata(of entry: RuleCatalogue.Entry) -> RuleMetadata {
        RuleMetadata(
            id: entry.id, severity: entry.severity, category: category[entry.id] ?? .file, summary: entry.summary,
            fullDescription: fullDescriptions[entry.id] ?? entry.summary, since: introduced[entry.id] ?? "0.1.0",
            fix: fixes[entry.id])
    }

    /// Each rule's category (a test checks that every rule has one, once).
    static let category: [RuleID: RuleCategory] = {
        let groups: [RuleCategory: [RuleID]] = [
            .file: [
                .invalidJSON, .rootNotObject, .byteOrderMark, .fileTooLarge, .signedFile, .unreadableSignedFile,
                .noKnownService, .unknownTopLevelKey, .unknownKey, .wrongType, .duplicateKey,
            ],
            .structure: [
                .emptyDetails, .missingDetails, .legacyAppsKey, .appsNotEmpty, .legacyDetailsDictionary, .legacyPaths,
                .pathsIgnoredWithComponents, .legacyAppID, .appIDAndAppIDs, .notPrefixInComponents,
            ],
            .appIdentifiers: [.missingAppID, .emptyAppID, .appIDWithoutBundle, .appIDPrefixFormat, .duplicateAppID],
            .urlRules: [
                .noRules, .catchAllRule, .unreachableRule, .unknownComponentKey, .queryValueNotString,
                .patternInDefaults,
            ],
            .variables: [
                .invalidVariableName, .nestedVariable, .undefinedVariable, .emptyVariable, .variableShadowsBuiltin,
                .unterminatedVariable, .emptyVariableValue,
            ],
            .signature: RuleCatalogue.verificationRules.map(\.id),
            .effect: RuleCatalogue.effectRules.map(\.id),
        ]
        return Dictionary(
            groups.flatMap { category, rules in rules.map { ($0, category) } }, uniquingKeysWith: { first, _ in first })
    }()

    /// The rules added after 0.1.0, with the version that added them (CHANGELOG.md; the
    /// unreleased ones with the next version).
    static let introduced: [RuleID: String] = [
        DeprecationReport.weakSignatureRule: "0.2.0",
        DeprecationReport.untrustedRule: "0.3.0",
        DeprecationReport.expiredRule: "0.3.0",
        DeprecationReport.expiringSoonRule: "0.3.0",
        DeprecationReport.notYetValidRule: "0.3.0",
        DeprecationReport.purposeRule: "0.3.0",
        DeprecationReport.hostRule: "0.3.0",
        DeprecationReport.noEffectRule: "0.3.0",
    ]

    /// The rules whose findings a command removes (each claim is tested: RuleFixTests).
    static let fixes: [RuleID: RuleFix] = {
        let convert = "convert"
        let migrate = "migrate"
        return [
            .signedFile: RuleFix(
                command: convert, summary: "Writes the embedded JSON as plain JSON (after verifying the signature)."),
            .byteOrderMark: RuleFix(command: convert, summary: "Writes the JSON without the byte-order mark."),
            .duplicateKey: RuleFix(
                command: convert, summary: "Keeps only the last value of a duplicate key, the one iOS reads."),
            .legacyAppsKey: RuleFix(command: migrate, summary: "Removes applinks.apps (--keep-legacy keeps it)."),
            .legacyDetailsDictionary: RuleFix(
                command: migrate, summary: "Rewrites details as an array of entries, in the same order."),
            .legacyPaths: RuleFix(
                command: migrate, summary: "Rewrites paths as components with the same meaning, proven on probe URLs."),
            .legacyAppID: RuleFix(command: migrate, summary: "Rewrites appID as appIDs."),
            .pathsIgnoredWithComponents: RuleFix(
                command: migrate, summary: "Drops the paths iOS 13 and later ignore (--keep-legacy keeps them)."),
            .appIDAndAppIDs: RuleFix(command: migrate, summary: "Drops the appID iOS 13 and later ignore."),
        ]
    }()
}
