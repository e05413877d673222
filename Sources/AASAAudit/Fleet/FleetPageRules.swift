import AASA
import AASAReports
import Foundation

/// Each rule's documentation as the HTML fleet report shows it: the text of docs/rules.md's
/// section (``RuleMetadata/fullDescription``), offline, one click from the rule's row.
enum FleetPageRules {
    /// Every rule aasa documents: the library's and the audit's own.
    static let metadata: [RuleID: RuleMetadata] = Dictionary(
        (RuleRegistry.all + HostingRules.metadata).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

    /// `rule`'s description as paragraphs (`code` spans kept), or a line saying it is not one
    /// this aasa documents (a record of another version).
    static func description(of rule: String) -> String {
        guard let entry = metadata[RuleID(rawValue: rule)] else {
            return "<p>Not a rule this version of aasa documents.</p>"
        }
        let paragraphs = entry.fullDescription.components(separatedBy: "\n\n").map { paragraph in
            "<p>" + codeSpans(ReportText.xml(paragraph)) + "</p>"
        }
        return "<p><strong>" + ReportText.xml(entry.summary) + "</strong></p>" + paragraphs.joined()
            + (fix(of: rule).map { "<p>Next step: " + codeSpans(ReportText.xml($0)) + "</p>" } ?? "")
    }

    /// The command that fixes `rule`'s findings, as a next step ("`aasa migrate`: …"); nil when
    /// none does.
    static func fix(of rule: String) -> String? {
        metadata[RuleID(rawValue: rule)]?.fix.map { "`aasa \($0.command)`: \($0.summary)" }
    }

    /// Markdown's `code` spans of escaped text as `<code>` elements.
    private static func codeSpans(_ escaped: String) -> String {
        let parts = escaped.components(separatedBy: "`")
        guard parts.count > 2 else { return escaped }
        return parts.enumerated().map { index, part in
            index % 2 == 1 && index < parts.count - 1 ? "<code>" + part + "</code>" : part
        }.joined()
    }
}
