import AASA
import AASAReports
import ArgumentParser
import Foundation

extension AASACommand {
    struct Diff: AASASubcommand {
        static let name = "diff"

        static let configuration = CommandConfiguration(
            commandName: name,
            _superCommandName: AASACommand.name,
            abstract:
                "Compare what two AASA files mean: apps per service, rules per app, probe URLs whose verdict changes.",
            usage: "aasa diff [<options>] <old> <new>",
            discussion: """
                Per service, the apps gained and lost; per applinks app, the rules of the entry that decides \
                for it (the first naming it) added, removed, changed (another rule at the same place) or \
                reordered, compared by meaning (a legacy path is the rule it stands for; settings after \
                defaults); substitution variables whose values changed; and the probe URLs, derived from \
                every pattern of both files (plus --urls-file), whose verdict changes for some app. A signed \
                file's embedded JSON is used without verifying it. See \(InstalledDocs.page("convert-and-migrate.md")).

                Exit status: 0 the files mean the same, 1 they differ, 2 a file is unreadable or not JSON, \
                64 usage error.

                EXAMPLES (at the root of a clone of the repository):
                  aasa diff examples/apple-app-site-association.json \\
                    examples/apple-app-site-association.p7m
                """
        )

        @Argument(help: ArgumentHelp("The old file (plain or signed; '-' for standard input).", valueName: "old"))
        var old: String

        @Argument(help: ArgumentHelp("The new file (plain or signed; '-' for standard input).", valueName: "new"))
        var new: String

        @Option(
            name: .customLong("urls-file"),
            help: ArgumentHelp(
                "Also compare these URLs: one a line, or an access log ('-' for standard input).", valueName: "file"))
        var urlsFile: String?

        @Option(help: "Output format.")
        var format: TextOrJSONFormat = .text

        @OptionGroup(title: "Display")
        var display: DisplayOptions

        @OptionGroup(title: "Limits")
        var limits: LimitOptions

        @OptionGroup(title: "Limits")
        var urlLength: URLLengthOption

        /// Verdict changes listed at most (all are counted).
        static let listedChanges = 1000
        static let printedChanges = 20

        func validate() throws {
            if [old, new, urlsFile].filter({ $0 == "-" }).count > 1 {
                throw ValidationError("standard input ('-') can be read only once")
            }
        }

        func run() throws {
            try reportingFailures(path: old) {
                let limits = self.limits.values(maximumURLLength: urlLength.maxURLLength)
                let before = try readDocument(old, limits: limits)
                let after = try readDocument(new, limits: limits)
                let extra =
                    try urlsFile.map { try URLList.open($0, maximumURLLength: limits.library.maximumURLLength) }
                    ?? AnySequence([])
                let diff = SemanticDiff.compare(old: before, new: after, extraURLs: extra, keeping: Self.listedChanges)
                let effect = Report.Effect(old: DocumentEffect(document: before), new: DocumentEffect(document: after))
                switch format {
                case .json: try JSONOutput.print(Report(old: old, new: new, diff: diff, effect: effect), stamped: .diff)
                case .text: StandardStreams.out(lines: text(diff, effect: effect))
                }
                if !diff.isSame { throw ExitStatus.checkFailed }
            }
        }

        /// The document in a file: plain JSON, or a signed file's embedded JSON (not verified).
        private func readDocument(_ path: String, limits: LimitOptions.Values) throws -> AASADocument {
            let file = AASAFile.read(try limits.read(path), limits: limits.library)
            let root: JSONNode
            do {
                root = try file.object()
            } catch {
                throw CLIFailure(path, "\(error)")
            }
            if file.kind.isSigned {
                Diagnostics.emit(
                    path, .note, "signed file: comparing its embedded JSON, which was not verified (use aasa verify)")
            }
            let (clean, duplicates) = root.deduplicatingKeys()
            for duplicate in duplicates {
                Diagnostics.emit(
                    path, .warning,
                    "duplicate key: \(duplicate); that is the value Apple's parser uses, and the comparison too")
            }
            return AASADocument(root: clean)
        }

        /// The `diff --format json` document (a stable contract: docs/convert-and-migrate.md).
        struct Report: Encodable {
            var old: String
            var new: String
            var same: Bool
            var services: [SemanticDiff.ServiceChange]
            var apps: [SemanticDiff.AppChanges]
            var variables: [SemanticDiff.VariableChange]
            var probes: SemanticDiff.ProbeSummary
            /// What each file does (``DocumentEffect``), as `check`'s headline says it.
            var effect: Effect

            struct Effect: Encodable {
                var old: DocumentEffect
                var new: DocumentEffect
            }

            init(old: String, new: String, diff: SemanticDiff, effect: Effect) {
                self.old = old
                self.new = new
                same = diff.isSame
                services = diff.services
                apps = diff.apps
                variables = diff.variables
                probes = diff.probes
                self.effect = effect
            }
        }

        private func text(_ diff: SemanticDiff, effect: Report.Effect) -> [String] {
            var lines = ["--- \(Diagnostics.displayName(old))", "+++ \(Diagnostics.displayName(new))"]
            // What each file does, when that differs (check's headline words).
            if effect.old.summary != effect.new.summary {
                lines.append("does: \(effect.old.summary)")
                lines.append("  → \(effect.new.summary)")
            }
            for service in diff.services {
                if !service.gained.isEmpty {
                    lines.append("\(service.service): gained \(service.gained.joined(separator: ", "))")
                }
                if !service.lost.isEmpty {
                    lines.append("\(service.service): lost \(service.lost.joined(separator: ", "))")
                }
            }
            // Apps with the same changes in the same entries (an appIDs list) are shown together.
            var groups: [(apps: [String], changes: SemanticDiff.AppChanges)] = []
            for app in diff.apps {
                var key = app
                key.appID = ""
                if let index = groups.firstIndex(where: { $0.changes == key }) {
                    groups[index].apps.append(app.appID)
                } else {
                    groups.append(([app.appID], key))
                }
            }
            for (apps, app) in groups {
                let entries =
                    app.entryBefore == app.entryAfter ? app.entryBefore : "\(app.entryBefore) → \(app.entryAfter)"
                lines.append("\(apps.joined(separator: ", ")) (\(entries)):")
                for rule in app.removed { lines.append("  removed  [\(rule.index)] \(rule.rule)") }
                for rule in app.added { lines.append("  added    [\(rule.index)] \(rule.rule)") }
                for rule in app.changed { lines.append("  changed  [\(rule.index)] \(rule.before) → \(rule.after)") }
                for rule in app.reordered {
                    let effect =
                        rule.changesVerdicts
                        ? "passes a rule of the other verdict: can change verdicts"
                        : "same verdict as the rules it passes: no verdict changes"
                    lines.append("  moved    [\(rule.before) → \(rule.after)] \(rule.rule) (\(effect))")
                }
            }
            for variable in diff.variables {
                func list(_ values: [String]?) -> String {
                    values.map { "[" + $0.map { "\"\($0)\"" }.joined(separator: ", ") + "]" } ?? "(undefined)"
                }
                lines.append(
                    "substitution variable \(variable.name): \(list(variable.before)) → \(list(variable.after))\(variable.used ? "" : " (not used by any pattern)")"
                )
            }
            let probes = diff.probes
            var sources = "\(probes.generated) generated from the patterns of both files"
            if probes.truncated { sources += ", capped" }
            if let urlsFile {
                sources += ", \(probes.fromFile) from \(Diagnostics.displayName(urlsFile))"
                if probes.fromFileTruncated { sources += " (the rest of the list not compared: the proof's budget)" }
            }
            if probes.changedCount == 0 {
                lines.append("probe URLs: \(probes.compared) compared (\(sources)); none changes verdict")
            } else {
                lines.append(
                    "probe URLs: \(probes.compared) compared (\(sources)); \(probes.changedCount) change verdict:")
                for change in probes.changes.prefix(Self.printedChanges) { lines.append("  \(change.summary)") }
                if probes.changedCount > Self.printedChanges {
                    lines.append(
                        "  … and \(probes.changedCount - Self.printedChanges) more (--format json lists up to \(Self.listedChanges))"
                    )
                }
            }
            lines.append(diff.isSame ? "result: the files mean the same" : "result: the files differ")
            return lines
        }
    }
}
