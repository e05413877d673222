import ArgumentParser
import Foundation

/// `--rules-url URL` of the commands with report formats (lint, check, verify, audit): the
/// address of docs/rules.md that each rule's help link points into (`URL#rule-id`). The
/// environment variable `AASA_RULES_URL` sets it for a whole CI job; the option wins.
struct ReportOptions: ParsableArguments {
    @Option(
        name: .customLong("rules-url"),
        help: ArgumentHelp(
            "The address of docs/rules.md for rule links in SARIF and other reports (default: $AASA_RULES_URL, else \(RuleHelp.defaultBase)).",
            valueName: "url"))
    var rulesURL: String?

    static let environmentVariable = "AASA_RULES_URL"

    /// The base to use: the option, the environment variable, or ``RuleHelp/defaultBase``.
    var base: String {
        if let rulesURL { return rulesURL }
        if let value = ProcessInfo.processInfo.environment[Self.environmentVariable], !value.isEmpty { return value }
        return RuleHelp.defaultBase
    }

    func validate() throws {
        if let problem = Self.problem(base) {
            let source = rulesURL != nil ? "--rules-url" : "$\(Self.environmentVariable)"
            throw ValidationError("\(source) \(problem)")
        }
    }

    /// Why `base` is not a usable absolute address, or nil: SARIF's helpUri must be an
    /// absolute URI, and the rule ID is added as the fragment.
    static func problem(_ base: String) -> String? {
        guard let components = URLComponents(string: base), let scheme = components.scheme,
            ["http", "https", "file"].contains(scheme.lowercased()), components.host != nil || scheme == "file"
        else {
            return "must be an absolute http, https or file URL, such as \(RuleHelp.defaultBase)"
        }
        if components.fragment != nil { return "must not have a fragment: the rule ID is added as '#rule-id'" }
        return nil
    }
}
