import AASA
import AASAAudit

/// What a report format tells about a rule beyond a finding's message: its summary, a full
/// description, help in text and Markdown, and the address of its section of docs/rules.md.
///
/// ``describe(_:base:)`` is the one place this is derived (from ``RuleCatalogue`` and
/// ``HostingRules``), so that a richer rule registry can later replace its body alone.
struct RuleHelp: Equatable {
    let id: RuleID
    let severity: Severity
    /// One line: when the rule fires.
    let summary: String
    /// The summary, who needs (or rejects) what it concerns, and the next step.
    let fullDescription: String
    /// The full description and the link, as plain text.
    let text: String
    /// The same in Markdown.
    let markdown: String
    /// The absolute address of the rule's section of docs/rules.md.
    let url: String
    /// What the rule is about: `format` (lint), `signature`, `effect` or `hosting`.
    let category: String

    /// The published docs/rules.md that `--rules-url` replaces (docs/cli.md#sarif-output);
    /// each rule's section is its ID as the fragment.
    static let defaultBase = "https://github.com/OWNER/aasa/blob/main/docs/rules.md"

    /// The project's home page (SARIF's `informationUri`): the base without the page.
    static func home(base: String) -> String {
        base.hasSuffix("/blob/main/docs/rules.md") ? String(base.dropLast("/blob/main/docs/rules.md".count)) : base
    }

    /// The rules a command can report, in docs/rules.md order.
    enum Scope {
        case lint, check, verify, audit

        /// The command's name.
        var command: String { "\(self)" }

        var ids: [RuleID] {
            let lint = RuleCatalogue.all.map(\.id)
            let signature = RuleCatalogue.verificationRules.map(\.id)
            let effect = RuleCatalogue.effectRules.map(\.id)
            switch self {
            case .lint: return lint
            case .check: return lint + signature + effect
            case .verify: return signature
            case .audit: return lint + signature + effect + HostingRules.all.map(\.id)
            }
        }
    }

    /// The help for `id`, with links under `base` (the docs/rules.md address).
    static func describe(_ id: RuleID, base: String) -> RuleHelp {
        let url = base + "#" + id.rawValue
        let lint = RuleCatalogue.entries[id]
        let signature = RuleCatalogue.verificationRules.first { $0.id == id }
        let effect = RuleCatalogue.effectRules.first { $0.id == id }
        let hosting = HostingRules.entries[id]
        let entry = lint ?? signature ?? effect
        let severity = entry?.severity ?? hosting?.severity ?? id.severity
        let summary = entry?.summary ?? hosting?.summary ?? "A finding of rule \(id.rawValue)."
        var parts = [summary]
        if let guidance = entry?.guidance {
            parts.append(guidance.neededBy)
            parts.append("Next step: " + guidance.nextStep)
        } else if let hosting {
            parts.append("Next step: " + hosting.fix)
        }
        let category =
            hosting != nil ? "hosting" : signature != nil ? "signature" : effect != nil ? "effect" : "format"
        let full = parts.joined(separator: " ")
        let markdown =
            "**\(id.rawValue)** (\(severity.rawValue)): "
            + parts.joined(separator: "\n\n") + "\n\nSee [docs/rules.md](\(url))."
        return RuleHelp(
            id: id, severity: severity, summary: summary, fullDescription: full,
            text: full + " See " + url, markdown: markdown, url: url, category: category)
    }
}
