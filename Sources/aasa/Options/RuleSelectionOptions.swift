import AASA
import AASAReports
import ArgumentParser

/// `--disable`, `--enable`, `--severity`, `--config` and `--no-config` of lint and check: which
/// rules report and at which severity, from the configuration file (``ProjectConfiguration``) and
/// then the command line, which overrides it.
struct RuleSelectionOptions: ParsableArguments {
    @Option(
        name: .customLong("disable"),
        help: ArgumentHelp(
            "Drop the findings of RULE (repeatable; counted as suppressed in the summary).", valueName: "rule"))
    var disable: [String] = []

    @Option(
        name: .customLong("enable"),
        help: ArgumentHelp("Report RULE even though the configuration turns it off (repeatable).", valueName: "rule")
    )
    var enable: [String] = []

    @Option(
        name: .customLong("severity"),
        help: ArgumentHelp(
            "Report RULE at LEVEL: info, deprecation, warning or error (repeatable; counts for --fail-on).",
            valueName: "rule=level"))
    var severity: [String] = []

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "Read the configuration from FILE instead of ./\(ProjectConfiguration.defaultName) (\(InstalledDocs.page("configuration.md"))).",
            valueName: "file"))
    var config: String?

    @Flag(name: .customLong("no-config"), help: "Ignore ./\(ProjectConfiguration.defaultName).")
    var noConfig = false

    func validate() throws {
        if config != nil && noConfig { throw ValidationError("--config and --no-config: give one or the other") }
        let disabled = try disable.map { try Self.rule($0, option: "--disable") }
        let enabled = try enable.map { try Self.rule($0, option: "--enable") }
        if let both = disabled.first(where: enabled.contains) {
            throw ValidationError("--enable and --disable both name \(both): give one")
        }
        _ = try severities()
    }

    /// The rules `--severity` names, with their levels.
    func severities() throws -> [(RuleID, Severity)] {
        try severity.map { argument in
            guard let equals = argument.firstIndex(of: "=") else {
                throw ValidationError(
                    "--severity '\(argument)': expected RULE=LEVEL, such as legacy-paths=error")
            }
            let rule = try Self.rule(String(argument[..<equals]), option: "--severity")
            let text = String(argument[argument.index(after: equals)...])
            guard let level = Severity(rawValue: text) else {
                throw ValidationError(
                    "--severity \(rule)=\(text): the level is one of \(Severity.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            return (rule, level)
        }
    }

    /// A rule ID given on the command line; an unknown one is a usage error with a suggestion.
    static func rule(_ word: String, option: String) throws -> RuleID {
        let names = RuleList.knownRuleIDs.map(\.rawValue)
        guard names.contains(word) else {
            throw ValidationError(
                "\(option) '\(word)': no such rule\(ProjectConfiguration.hint(word, among: names)); aasa lint --list-rules lists them"
            )
        }
        return RuleID(rawValue: word)
    }

    /// What this run uses: the configuration, if any, with the command line's choices over it.
    struct Resolved {
        var selection = RuleSelection.everything
        var config: ProjectConfiguration?
    }

    /// Loads the configuration and applies the command line over it.
    /// - Throws: ``CLIFailure`` (status 2) for a configuration that cannot be read or used.
    func resolve() throws -> Resolved {
        var resolved = Resolved()
        resolved.config = try ProjectConfiguration.load(explicit: config, ignoreWorkingDirectory: noConfig)
        var selection = RuleSelection()
        for (rule, setting) in resolved.config?.rules ?? [] {
            switch setting {
            case .off:
                selection.disabled.insert(rule)
            case .on:
                selection.disabled.remove(rule)
            case .severity(let level):
                selection.disabled.remove(rule)
                selection.severities[rule] = level
            }
        }
        for (rule, level) in try severities() {
            selection.severities[rule] = level
            selection.disabled.remove(rule)
        }
        for word in enable { selection.disabled.remove(RuleID(rawValue: word)) }
        for word in disable { selection.disabled.insert(RuleID(rawValue: word)) }
        resolved.selection = selection
        return resolved
    }
}
