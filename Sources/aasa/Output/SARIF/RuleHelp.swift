import AASA
import AASAAudit

/// What a report format tells about a rule beyond a finding's message: its summary, a full
/// description, help in text and Markdown, and the address of its section of docs/rules.md.
///
/// ``describe(_:base:)`` derives it from the rule registry (``RuleRegistry`` and
/// ``HostingRules/metadata``) and the guidance `check` gives (``RuleCatalogue/guidance(for:)``).
struct RuleHelp: Equatable {
    let id: RuleID
    let severity: Severity
    /// One line: when the rule fires.
    let summary: String
    /// When it fires and why it matters (docs/rules.md's words).
    let fullDescription: String
    /// The full description, who needs what it concerns, the next step and the link, as plain text.
    let text: String
    /// The same in Markdown.
    let markdown: String
    /// The absolute address of the rule's section of docs/rules.md.
    let url: String
    /// The registry's category (``RuleCategory``): `file`, `structure`, …, `signature`, `effect`, `hosting`.
    let category: String

    /// The published docs/rules.md that `--rules-url` replaces (docs/cli.md#sarif-output);
    /// each rule's section is its ID as the fragment.
    static let defaultBase = RuleRegistry.documentationBase

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

    /// Every rule's registry entry: the library's rules and the audit's hosting rules.
    private static let metadata: [RuleID: RuleMetadata] = Dictionary(
        (RuleRegistry.all + HostingRules.metadata).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

    /// The help for `id`, with links under `base` (the docs/rules.md address).
    static func describe(_ id: RuleID, base: String) -> RuleHelp {
        let url = base + "#" + id.rawValue
        let entry = metadata[id]
        let severity = entry?.severity ?? id.severity
        let summary = entry?.summary ?? "A finding of rule \(id.rawValue)."
        let full = entry?.fullDescription ?? summary
        var parts = [full]
        if let guidance = RuleCatalogue.guidance(for: id) {
            parts.append(guidance.neededBy)
            parts.append("Next step: " + guidance.nextStep)
        } else if let hosting = HostingRules.entries[id] {
            parts.append("Next step: " + hosting.fix)
        }
        if let fix = entry?.fix { parts.append("`aasa \(fix.command)` fixes it: \(fix.summary)") }
        let markdown =
            "**\(id.rawValue)** (\(severity.rawValue)): "
            + parts.joined(separator: "\n\n") + "\n\nSee [docs/rules.md](\(url))."
        return RuleHelp(
            id: id, severity: severity, summary: summary, fullDescription: full,
            text: parts.joined(separator: " ") + " See " + url, markdown: markdown, url: url,
            category: entry?.category.rawValue ?? "file")
    }
}
