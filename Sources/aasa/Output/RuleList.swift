import AASA
import Foundation

/// `aasa lint --list-rules`: the rule catalogue (``RuleCatalogue/all``, in docs/rules.md's
/// order) as text columns, a JSON array, or one JSON object per line.
enum RuleList {
    /// One rule, as `--list-rules --format json` writes it (docs/cli.md#lint---list-rules---format-json).
    struct Record: Encodable {
        var id: String
        var severity: String
        var summary: String
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

        init(_ entry: RuleCatalogue.Entry) {
            id = entry.id.rawValue
            severity = entry.severity.rawValue
            summary = entry.summary
            guidance = entry.guidance.map {
                Guidance(title: $0.title, neededBy: $0.neededBy, nextStep: $0.nextStep)
            }
        }

        enum CodingKeys: String, CodingKey { case id, severity, summary, guidance }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(severity, forKey: .severity)
            try container.encode(summary, forKey: .summary)
            try container.encode(guidance, forKey: .guidance)  // explicit null
        }
    }

    static var records: [Record] { RuleCatalogue.all.map(Record.init) }

    /// Three columns per rule: ID, severity, summary.
    static var textLines: [String] {
        RuleCatalogue.all.map { entry in
            entry.id.rawValue.padding(toLength: 30, withPad: " ", startingAt: 0) + " "
                + entry.severity.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0) + " " + entry.summary
        }
    }

    /// Writes the catalogue in `format` (text, json or jsonl; ``AASACommand/Lint`` refuses the report formats).
    static func print(_ format: BatchFormat) throws {
        switch format {
        case .text, .sarif, .junit, .gitlab, .markdown: StandardStreams.out(lines: textLines)
        case .json: try JSONOutput.print(records.map { Stamped($0, .rules) })
        case .jsonl:
            var data = Data()
            for record in records { data += try JSONOutput.line(record, stamped: .rules) }
            StandardStreams.out(data)
        }
    }
}
