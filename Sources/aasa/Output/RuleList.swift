import AASA
import AASAAudit
import AASAReports
import Foundation

/// `aasa lint --list-rules`: every rule `aasa` knows (``RuleRegistry/all``, then the hosting
/// rules of `audit`, in docs/rules.md's order) as text columns, a JSON array, or one JSON
/// object per line.
enum RuleList {
    /// Every rule, with its metadata: the lint rules, the findings `check` and `audit` add,
    /// the hosting rules.
    static let rules: [RuleMetadata] = RuleRegistry.all + HostingRules.metadata

    /// Every rule ID that `--disable`, `--enable`, `--severity` and a configuration may name.
    static let knownRuleIDs: [RuleID] = rules.map(\.id)

    /// One rule, as `--list-rules --format json` writes it (docs/cli.md#lint---list-rules---format-json).
    struct Record: Encodable {
        var id: String
        var severity: String
        var category: String
        var summary: String
        var fullDescription: String
        var since: String
        /// The rule's section of a published docs/rules.md (`--rules-url`); null without one.
        var documentationURL: String?
        /// The command that fixes the rule's findings; null for none.
        var fix: RuleFix?
        /// What `check` and `audit` tell about a finding of the rule; null for their generic words.
        var guidance: Guidance?

        struct Guidance: Encodable {
            /// Null: the finding's own message names it.
            var title: String?
            var neededBy: String
            var nextStep: String

            enum CodingKeys: String, CodingKey { case title, neededBy, nextStep }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(title, forKey: .title)  // explicit null
                try container.encode(neededBy, forKey: .neededBy)
                try container.encode(nextStep, forKey: .nextStep)
            }
        }

        init(_ rule: RuleMetadata, base: String?) {
            id = rule.id.rawValue
            severity = rule.severity.rawValue
            category = rule.category.rawValue
            summary = rule.summary
            fullDescription = rule.fullDescription
            since = rule.since
            documentationURL = base.map { $0 + "#" + rule.id.rawValue }
            fix = rule.fix
            guidance = RuleCatalogue.guidance(for: rule.id).map {
                Guidance(title: $0.title, neededBy: $0.neededBy, nextStep: $0.nextStep)
            }
        }

        enum CodingKeys: String, CodingKey {
            case id, severity, category, summary, fullDescription, since, documentationURL, fix, guidance
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(severity, forKey: .severity)
            try container.encode(category, forKey: .category)
            try container.encode(summary, forKey: .summary)
            try container.encode(fullDescription, forKey: .fullDescription)
            try container.encode(since, forKey: .since)
            try container.encode(documentationURL, forKey: .documentationURL)  // explicit null
            try container.encode(fix, forKey: .fix)  // explicit null
            try container.encode(guidance, forKey: .guidance)  // explicit null
        }
    }

    static func records(_ rules: [RuleMetadata], base: String?) -> [Record] { rules.map { Record($0, base: base) } }

    /// Columns per rule: ID, severity, category, since, the fixing command (`-` for none), summary.
    static var textLines: [String] {
        rules.map { rule in
            [
                (rule.id.rawValue, 30), (rule.severity.rawValue, 12), (rule.category.rawValue, 16), (rule.since, 6),
                (rule.fix?.command ?? "-", 8),
            ].map { text, width in text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0) + " " }
                .joined() + rule.summary
        }
    }

    /// Writes the catalogue in `format` (text, json or jsonl; ``AASACommand/Lint`` refuses the
    /// report formats), with links under `base` in JSON when the user gave one.
    static func print(_ format: BatchFormat, base: String?) throws {
        try print(rules, format: format, base: base, text: textLines)
    }

    /// Writes `selected` rules' whole documentation (`aasa rules ID…`): in text, each rule's
    /// page (``page(_:base:)``); in JSON, their records.
    static func printDocumentation(of selected: [RuleMetadata], format: BatchFormat, base: String?) throws {
        let pages = selected.map { page($0, base: base) }.joined(separator: "\n\n")
        try print(selected, format: format, base: base, text: pages.components(separatedBy: "\n"))
    }

    private static func print(_ selected: [RuleMetadata], format: BatchFormat, base: String?, text: [String]) throws {
        switch format {
        case .text, .sarif, .junit, .gitlab, .markdown: StandardStreams.out(lines: text)
        case .json: try JSONOutput.print(records(selected, base: base).map { Stamped($0, .rules) })
        case .jsonl:
            var data = Data()
            for record in records(selected, base: base) { data += try JSONOutput.line(record, stamped: .rules) }
            StandardStreams.out(data)
        }
    }

    /// One rule's documentation as docs/rules.md gives it, for reading offline: the heading
    /// line, the full description, who needs what it concerns, the next step, the fixing command.
    static func page(_ rule: RuleMetadata, base: String?) -> String {
        var lines = [
            "\(rule.id.rawValue) (\(rule.severity.rawValue), \(rule.category.rawValue), since \(rule.since))",
            "", rule.summary, "", rule.fullDescription,
        ]
        if let guidance = RuleCatalogue.guidance(for: rule.id) {
            lines += ["", "Who it concerns: " + guidance.neededBy, "", "Next step: " + guidance.nextStep]
        }
        if let fix = rule.fix { lines += ["", "Fixed by: aasa \(fix.command) (\(fix.summary))"] }
        if let base { lines += ["", "Online: \(base)#\(rule.id.rawValue)"] }
        return lines.joined(separator: "\n")
    }

    /// The rule whose ID is `id`, or nil.
    static func rule(_ id: String) -> RuleMetadata? { rules.first { $0.id.rawValue == id } }
}
