import AASA
import AASATestSupport
import Foundation
import Testing

@Suite("Lint: RuleRegistry")
struct RuleRegistryTests {
    static let rulesText: String = {
        do {
            return try String(
                contentsOf: Repository.root.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        } catch {
            return "docs/rules.md cannot be read: \(error)"
        }
    }()

    /// Each rule section of docs/rules.md (`## `id`` or `### id`), by ID: its text up to the
    /// next heading.
    static let sections: [String: String] = {
        var result: [String: String] = [:]
        var current: String?
        var lines: [String] = []
        func close() { if let current { result[current] = lines.joined(separator: "\n") } }
        for line in rulesText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            guard line.hasPrefix("## ") || line.hasPrefix("### ") else {
                lines.append(line)
                continue
            }
            close()
            lines = []
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let id = title.hasPrefix("`") && title.hasSuffix("`") ? String(title.dropFirst().dropLast()) : title
            current = id.contains(" ") ? nil : id
        }
        close()
        return result
    }()

    /// Markdown as plain text: links as their text, no bold marks, white space collapsed.
    static func plain(_ markdown: String) -> String {
        var text = markdown.replacingOccurrences(of: "**", with: "")
        while let open = text.range(of: "]("), let close = text[open.upperBound...].firstIndex(of: ")"),
            let start = text[..<open.lowerBound].lastIndex(of: "[")
        {
            let label = text[text.index(after: start)..<open.lowerBound]
            text.replaceSubrange(start...close, with: label)
        }
        return text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    @Test("every rule (lint, verification, effect) is in the registry once, in catalogue order")
    func everyRule() {
        let catalogue = RuleCatalogue.all + RuleCatalogue.verificationRules + RuleCatalogue.effectRules
        #expect(catalogue.count == 48)
        #expect(RuleRegistry.all.map(\.id) == catalogue.map(\.id))
        #expect(RuleRegistry.lintRules.map(\.id) == RuleCatalogue.all.map(\.id))
        for (metadata, entry) in zip(RuleRegistry.all, catalogue) {
            #expect(metadata.severity == entry.severity && metadata.summary == entry.summary, "\(entry.id)")
            #expect(RuleRegistry.metadata(for: entry.id) == metadata)
        }
        #expect(RuleRegistry.metadata(for: "no-such-rule") == nil)
    }

    @Test("categories: lint rules in docs/rules.md's groups (contiguous, in order), check's findings apart")
    func categories() {
        // The lint rules run through the categories in order, each category one run.
        let lintCategories = RuleRegistry.lintRules.map(\.category)
        var runs: [RuleCategory] = []
        for category in lintCategories where runs.last != category { runs.append(category) }
        #expect(runs == [.file, .structure, .appIdentifiers, .urlRules, .variables])
        #expect(RuleRegistry.metadata(for: .legacyPaths)?.category == .structure)
        #expect(RuleRegistry.metadata(for: .undefinedVariable)?.category == .variables)
        for rule in RuleCatalogue.verificationRules {
            #expect(RuleRegistry.metadata(for: rule.id)?.category == .signature, "\(rule.id)")
        }
        #expect(RuleRegistry.metadata(for: DeprecationReport.noEffectRule)?.category == .effect)
    }

    @Test("each full description is the text of the rule's section in docs/rules.md")
    func fullDescriptions() {
        #expect(Self.sections.count >= 62, "rule sections found: \(Self.sections.count)")
        for rule in RuleRegistry.all {
            let section = Self.sections[rule.id.rawValue]
            #expect(section != nil, "no section for \(rule.id)")
            guard let section else { continue }
            let paragraphs = rule.fullDescription.components(separatedBy: "\n\n")
            #expect(rule.fullDescription != rule.summary && !paragraphs.isEmpty, "\(rule.id)")
            #expect(paragraphs.first?.hasPrefix("Fires when") == true, "\(rule.id)")
            for paragraph in paragraphs {
                #expect(Self.plain(section).contains(paragraph), "\(rule.id): \(paragraph)")
            }
        }
    }

    @Test("documentation anchors: each rule's ID is a heading of docs/rules.md (the fragment of --rules-url links)")
    func documentationAnchors() throws {
        for rule in RuleRegistry.all {
            // GitHub's anchor of "## `id`" and "### id" is the ID itself.
            #expect(Self.sections[rule.id.rawValue] != nil, "no heading for the anchor #\(rule.id)")
        }
    }

    @Test("since: 0.1.0 unless CHANGELOG.md adds the rule later; the unreleased ones are named under Unreleased")
    func since() throws {
        let changelog = try String(
            contentsOf: Repository.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let unreleased = try #require(changelog.range(of: "## [Unreleased]"))
        let released = try #require(changelog.range(of: "## [0.2.0]"))
        let unreleasedText = changelog[unreleased.upperBound..<released.lowerBound]
        #expect(changelog.contains("## [0.1.0]"))
        for rule in RuleRegistry.all {
            #expect(["0.1.0", "0.2.0", "0.3.0"].contains(rule.since), "\(rule.id): \(rule.since)")
            if rule.since == "0.3.0" {
                #expect(unreleasedText.contains("`\(rule.id)`"), "\(rule.id) is new but not in Unreleased")
            }
        }
        #expect(RuleRegistry.metadata(for: DeprecationReport.weakSignatureRule)?.since == "0.2.0")
        #expect(RuleRegistry.all.filter { $0.since == "0.1.0" }.count == 40)
    }

    @Test("fixes: only convert and migrate, only for rules whose section says how to fix")
    func fixes() {
        let fixable = RuleRegistry.all.filter { $0.fix != nil }
        #expect(fixable.count == 9)
        for rule in fixable {
            #expect(["convert", "migrate"].contains(rule.fix?.command ?? ""), "\(rule.id)")
            #expect(rule.category != .signature && rule.category != .effect)
        }
        #expect(RuleRegistry.metadata(for: .signedFile)?.fix?.command == "convert")
        #expect(RuleRegistry.metadata(for: .legacyPaths)?.fix?.command == "migrate")
        #expect(RuleRegistry.metadata(for: .invalidJSON)?.fix == nil)
    }
}

@Suite("Lint: RuleSelection")
struct RuleSelectionTests {
    static let legacy = Data(
        #"{"applinks":{"apps":[],"details":[{"appID":"ABCDE12345.com.example.app","paths":["/a/*"]}]}}"#.utf8)

    @Test("disabled rules are dropped and counted; a selected severity replaces the rule's own")
    func apply() {
        let report = Linter.lint(Self.legacy)
        #expect(Set(report.diagnostics.map(\.rule)) == [.legacyAppsKey, .legacyAppID, .legacyPaths])
        let selection = RuleSelection(disabled: [.legacyPaths], severities: [.legacyAppID: .error])
        let (kept, suppressed) = selection.apply(report.diagnostics)
        #expect(suppressed == 1)
        #expect(kept.map(\.rule) == report.diagnostics.map(\.rule).filter { $0 != .legacyPaths })
        #expect(kept.first { $0.rule == .legacyAppID }?.severity == .error)
        #expect(kept.first { $0.rule == .legacyAppsKey }?.severity == .deprecation)
        #expect(RuleSelection.everything.apply(report.diagnostics).kept == report.diagnostics)
    }

    @Test("check's report: the verdict follows the selection; the guidance still describes the file")
    func deprecationReport() {
        let report = DeprecationReport(lint: Linter.lint(Self.legacy))
        #expect(report.verdict == .legacy)
        let off = report.selecting(RuleSelection(disabled: [.legacyAppsKey, .legacyAppID, .legacyPaths]))
        #expect(off.suppressed == 3 && off.report.diagnostics.isEmpty && off.report.items.isEmpty)
        #expect(off.report.verdict == .current)
        #expect(off.report.guidance == report.guidance)
        let raised = report.selecting(RuleSelection(severities: [.legacyPaths: .error]))
        #expect(raised.suppressed == 0 && raised.report.verdict == .broken)
        #expect(raised.report.items.first { $0.rule == .legacyPaths }?.severity == .error)
    }
}
