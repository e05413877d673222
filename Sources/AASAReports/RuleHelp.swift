import AASA

/// What a report format tells about a rule beyond a finding's message: its summary, a full
/// description, help in text and Markdown, and the address of its section of docs/rules.md when
/// the user gave one (``RuleBook/base``).
/// A ``RuleBook`` describes each rule from the registry.
public struct RuleHelp: Equatable, Sendable {
    public let id: RuleID
    public let severity: Severity
    /// One line: when the rule fires.
    public let summary: String
    /// When it fires and why it matters (docs/rules.md's words).
    public let fullDescription: String
    /// The full description, who needs what it concerns, the next step and the link, as plain text.
    public let text: String
    /// The same in Markdown.
    public let markdown: String
    /// The absolute address of the rule's section of a published docs/rules.md; nil when none
    /// was given (the help then names `aasa rules ID`).
    public let url: String?
    /// The registry's category (``RuleCategory``): `file`, `structure`, …, `signature`, `effect`, `hosting`.
    public let category: String

    /// The help for `id` from its registry entry, who needs what it concerns and its next step,
    /// with links under `base` (the docs/rules.md address) when there is one.
    init(_ id: RuleID, entry: RuleMetadata?, neededBy: String?, nextStep: String?, base: String?) {
        let url = base.map { $0 + "#" + id.rawValue }
        let offline = "aasa rules \(id.rawValue)"
        let severity = entry?.severity ?? id.severity
        let summary = entry?.summary ?? "A finding of rule \(id.rawValue)."
        let full = entry?.fullDescription ?? summary
        var parts = [full]
        if let neededBy { parts.append(neededBy) }
        if let nextStep { parts.append("Next step: " + nextStep) }
        if let fix = entry?.fix { parts.append("`aasa \(fix.command)` fixes it: \(fix.summary)") }
        self.id = id
        self.severity = severity
        self.summary = summary
        self.fullDescription = full
        self.text =
            parts.joined(separator: " ") + " Documentation: `\(offline)`" + (url.map { " or " + $0 } ?? "") + "."
        self.markdown =
            "**\(id.rawValue)** (\(severity.rawValue)): " + parts.joined(separator: "\n\n")
            + "\n\nDocumentation: `\(offline)`" + (url.map { " or [docs/rules.md](\($0))" } ?? "") + "."
        self.url = url
        self.category = entry?.category.rawValue ?? "file"
    }
}
