import AASA
import AASAReports
import ArgumentParser
import Foundation

/// `--rules-url URL` of the commands with report formats (lint, check, verify, audit, rules):
/// the address of a published docs/rules.md that each rule's help link points into
/// (`URL#rule-id`). The environment variable `AASA_RULES_URL` sets it for a whole CI job; the
/// option wins. Without either there is no link: the project has no public address to default
/// to, and a rule's help names `aasa rules ID` instead.
struct ReportOptions: ParsableArguments {
    @Option(
        name: .customLong("rules-url"),
        help: ArgumentHelp(
            "Where your copy of the rules' documentation (rules.md) is published, for rule links in SARIF and other reports (default: $AASA_RULES_URL, else no links; 'aasa rules ID' shows a rule offline).",
            valueName: "url"))
    var rulesURL: String?

    static let environmentVariable = "AASA_RULES_URL"

    /// The environment variable's value, when set and not empty.
    private var environmentValue: String? {
        // getenv, not ProcessInfo's environment, which copies every variable into a dictionary:
        // every verify, check and lint pays for it at start-up.
        guard let value = getenv(Self.environmentVariable) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// The base to use: the option, else the environment variable when it is usable, else
    /// none.
    var base: String? {
        if let rulesURL { return rulesURL }
        if let value = environmentValue, Self.problem(value) == nil { return value }
        return nil
    }

    /// Why the environment variable is not used, when it is set but unusable: a warning for
    /// the report formats (a text run does not read it, so it is no usage error).
    var environmentWarning: String? {
        guard rulesURL == nil, let value = environmentValue, let problem = Self.problem(value) else { return nil }
        return "$\(Self.environmentVariable) \(problem); the rules are given without links"
    }

    func validate() throws {
        if let rulesURL, let problem = Self.problem(rulesURL) { throw ValidationError("--rules-url \(problem)") }
    }

    /// Why `base` is not a usable absolute address, or nil: SARIF's helpUri must be an
    /// absolute URI, and the rule ID is added as the fragment.
    static func problem(_ base: String) -> String? {
        guard let components = URLComponents(string: base), let scheme = components.scheme,
            ["http", "https", "file"].contains(scheme.lowercased()), components.host != nil || scheme == "file"
        else {
            return "must be an absolute http, https or file URL (where rules.md is published)"
        }
        if components.fragment != nil { return "must not have a fragment: the rule ID is added as '#rule-id'" }
        return nil
    }
}

extension ReportCollector {
    /// A collector whose rule links follow `--rules-url` (or `$AASA_RULES_URL`).
    init(_ format: BatchFormat, scope: ReportScope, rules: ReportOptions, failOn: Severity) {
        self.init(format, scope: scope, rulesURL: rules.base, rulesWarning: rules.environmentWarning, failOn: failOn)
    }
}
