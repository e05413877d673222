import AASA
import AASAReports
import ArgumentParser
import Foundation

extension AASACommand {
    struct Lint: AASASubcommand {
        static let name = "lint"

        static let configuration = CommandConfiguration(
            commandName: name,
            _superCommandName: AASACommand.name,
            abstract: "Check AASA files against Apple's format and current guidance, with stable rule IDs.",
            discussion: """
                Signed files are unwrapped (without verifying them) and their JSON is linted too; their \
                line and column numbers refer to the embedded JSON. Rules: aasa rules (aasa rules RULE prints one).

                Directories are linted file by file (see --include), --jobs files at a time, the \
                output in input order; --format sarif, junit, gitlab and markdown hold every finding until \
                the end (one document), text and json stream. See \(InstalledDocs.page("performance.md")).

                Exit status: 0 no finding at or above --fail-on (default error; --strict is --fail-on \
                warning), 1 findings at that level (hidden ones too), 2 a file could not be read, 64 usage error.

                EXAMPLES (at the root of a clone of the repository):
                  aasa lint examples/apple-app-site-association.json
                  aasa lint examples/apple-app-site-association.p7m --format sarif
                  aasa lint examples/ --strict
                """
        )

        @Argument(help: ArgumentHelp("Files or directories to lint ('-' for standard input).", valueName: "file"))
        var files: [String] = []

        @Option(
            help:
                "Output format (jsonl: one file's report per line; sarif: SARIF 2.1.0, for GitHub code scanning; junit, gitlab (Code Quality), markdown: CI reports)."
        )
        var format = BatchFormatOption<LintFormats>(.text)

        @OptionGroup
        var failOn: FailOnOption

        @Flag(
            help:
                "Fail (exit 1) on warnings too, not only errors: the same as --fail-on warning (give one or the other)."
        )
        var strict = false

        @Option(
            name: .customLong("min-severity"),
            help: "Show only findings at or above this level (the exit status still counts every finding).")
        var minSeverity: Severity = .info

        @Flag(
            name: .customLong("explain"),
            help:
                "Print each finding's whole message (what is wrong, why it matters, the fix), not only its first sentence; the rule's documentation: aasa rules RULE."
        )
        var explain = false

        @Flag(
            name: .customLong("list-rules"),
            help:
                "List every rule with its severity, category, version, fixing command and summary, and exit (--format text, json or jsonl)."
        )
        var listRules = false

        @OptionGroup(title: "Reports")
        var report: ReportOptions

        @OptionGroup(title: "Rules")
        var rules: RuleSelectionOptions

        @OptionGroup(title: "Baseline")
        var baselineOptions: BaselineOptions

        @OptionGroup(title: "Batch")
        var batch: BatchOptions

        @OptionGroup(title: "Display")
        var display: DisplayOptions

        @OptionGroup(title: "Limits")
        var limits: LimitOptions

        func validate() throws {
            try batch.refuseListOnStandardInput(files)
            if !batch.hasInputs(files) && !listRules {
                throw ValidationError("give at least one file to lint ('-' for standard input), or --list-rules")
            }
            if listRules && format.value.isReport {
                throw ValidationError(
                    "--list-rules prints text, json or jsonl; in SARIF the rules are the tool.driver.rules of every lint --format sarif log"
                )
            }
            if strict && failOn.level != nil {
                throw ValidationError("--strict is --fail-on warning: give one or the other")
            }
        }

        /// One file's record (`--format json` element, `--format jsonl` line): docs/cli.md#lint---format-json.
        struct FileReport: Encodable {
            var path: String
            var kind: String
            /// In the shared JSON form of a finding (``Diagnostic/encode(to:url:)``).
            var diagnostics: [Diagnostic]
            /// Findings of rules that --disable or the configuration turned off.
            var suppressed: Int
            /// Findings the baseline accepts (left out of diagnostics).
            var baselined: Int
            /// The baseline's entries for this file that no longer occur.
            var staleBaseline: [Baseline.Entry]
        }

        func run() throws {
            if listRules { return try RuleList.print(format.value, base: report.base) }
            var resolved = RuleSelectionOptions.Resolved()
            var accepted: Baseline?
            try reportingFailures(path: "lint") {
                resolved = try rules.resolve()
                if let path = baselineOptions.baseline ?? resolved.config?.baseline {
                    accepted = try BaselineOptions.read(path)
                }
            }
            let (selection, writeBaseline, baseline) = (resolved.selection, baselineOptions.writeBaseline, accepted)
            let expansion = batch.expand(files, what: "lint", streaming: true)
            var frontend = BatchFrontend("lint", expansion)
            var failed = false
            let (format, minSeverity, threshold, limits, explain) = (
                format.value, minSeverity, failureThreshold(config: resolved.config), self.limits.values, explain
            )
            // SARIF and the other reports are one document, written at the end.
            var reports = ReportCollector(format, scope: .lint, rules: report, failOn: threshold)
            expansion.failures.forEach { reports.unreadable($0) }
            let collects = reports.collects
            var tally = SelectionTally()
            var counts: [Severity: Int] = [:]
            let records = frontend.startOutput(format, .lint, single: false, layout: .member("files"))
            frontend.run(
                threads: batch.workerCount, output: \.output,
                work: { item -> FileResult in
                    var result = FileResult()
                    do {
                        let data = try limits.read(item)
                        let file = AASAFile.read(data, limits: limits.library)
                        // A directory's README or image is no AASA file: counted, not broken.
                        if !item.explicit && AASAFile.isNotAASA(data, detection: file.detection) {
                            result.output.emit(
                                item.path, .note, "skipped: not an AASA file (neither JSON nor PKCS#7)")
                            result.output.outcome = "skipped"
                            return result
                        }
                        var report = Linter.lint(file, size: data.count, options: LintOptions(limits: limits.library))
                        // What the file does, as check and audit report it: a file no app gets
                        // anything from fails the gate too (no-effect).
                        if let noEffect = DeprecationReport.noEffectFinding(of: report) {
                            report.diagnostics.append(noEffect)
                        }
                        let selected = selection.apply(report.diagnostics)
                        if writeBaseline != nil { result.findings = selected.kept }
                        let match = try baseline?.match(selected.kept, path: item.path)
                        report.diagnostics = match?.new ?? selected.kept
                        (result.suppressed, result.baselined) = (selected.suppressed, match?.absorbed ?? 0)
                        result.stale = match?.stale.reduce(0) { Baseline.cappedSum($0, $1.count) } ?? 0
                        for entry in match?.stale ?? [] {
                            result.output.emit(
                                item.path, .note,
                                "baseline entry no longer occurs" + (entry.count > 1 ? " (\(entry.count) times)" : "")
                                    + ": \(entry.message)", code: entry.rule.rawValue)
                        }
                        var shown = report
                        shown.diagnostics = report.diagnostics(atLeast: minSeverity)
                        result.output.write(
                            try records.render(
                                FileReport(
                                    path: item.path, kind: shown.kind.rawValue,
                                    diagnostics: shown.diagnostics,
                                    suppressed: selected.suppressed, baselined: match?.absorbed ?? 0,
                                    staleBaseline: match?.stale ?? []),
                                text: (Display.quiet ? shown.diagnostics(atLeast: threshold) : shown.diagnostics).map {
                                    DiagnosticLineWriter.line($0, path: item.path, explained: explain)
                                }))
                        if collects {
                            result.subject = ReportSubject(
                                path: item.path, lint: report, diagnostics: shown.diagnostics)
                        }
                        // The verdict uses every new finding, whatever --min-severity shows.
                        result.failed = Self.fails(report, at: threshold)
                        // A file that fails the gate is a problem (--quiet prints it); one that passes is not.
                        if result.failed { result.output.status = ExitStatus.checkFailed }
                        for diagnostic in report.diagnostics { result.counts[diagnostic.severity, default: 0] += 1 }
                        result.output.outcome = "linted"
                    } catch {
                        result.output.fail(CLIFailure(item.path, describing: error), outcome: "unreadable")
                    }
                    return result
                },
                then: { item, result, _ in
                    if result.output.outcome == "unreadable", let failure = result.output.failure {
                        reports.unreadable(failure)
                    }
                    guard result.output.outcome == "linted" else { return }
                    if result.failed { failed = true }
                    for (severity, count) in result.counts { counts[severity, default: 0] += count }
                    if let subject = result.subject { reports.add(subject) }
                    tally.add(result, path: item.path)
                }, failed: { reports.unreadable($0) })
            frontend.finishOutput()
            try reports.finish()
            if format == .text {
                let skipped = frontend.tally.count("skipped")
                let notes =
                    [
                        skipped == 0 ? nil : "\(Counted.files(skipped)) skipped (not AASA files)",
                        frontend.leftOutNote,
                    ].compactMap { $0 } + tally.notes(baseline: baseline)
                Self.summary(
                    counts, files: frontend.tally.count("linted"), shownFrom: minSeverity,
                    leftOut: notes.isEmpty ? nil : notes.joined(separator: "; "))
            }
            // Any file that could not be read (or output that could not be written) is status 2, whatever it said.
            var unreadable = frontend.tally.count("unreadable") > 0
            // A gate over a directory that holds no AASA file any more (moved, renamed) must not
            // pass as "no finding": nothing was linted.
            let skipped = frontend.tally.count("skipped")
            if frontend.tally.count("linted") == 0 && skipped > 0 {
                Diagnostics.emit(
                    "lint", .error,
                    "no AASA file to lint: \(Counted.files(skipped)) skipped (neither JSON nor PKCS#7); name a file to lint it anyway"
                )
                unreadable = true
            }
            if let writeBaseline {
                try reportingFailures(path: writeBaseline) {
                    // A baseline of some of the files would accept too little: none is written.
                    guard !unreadable else {
                        throw CLIFailure(writeBaseline, "baseline not written: some files could not be linted")
                    }
                    try BaselineOptions.write(try Baseline(findings: tally.findings), to: writeBaseline)
                }
            }
            // Findings, a summary or notes that could not all be written (a full standard error):
            // not a success, whatever was found (issue #24).
            if unreadable || frontend.printer.stdoutFailed || StandardStreams.errorFailed {
                throw ExitStatus.badInput
            }
            if failed { throw ExitStatus.checkFailed }
        }

        /// What linting one file gave.
        struct FileResult: Sendable {
            var output = BatchOutput()
            var failed = false
            var counts: [Severity: Int] = [:]
            /// The findings as shown, kept only for the end-of-run reports (SARIF).
            var subject: ReportSubject?
            /// Findings dropped by the rule selection, accepted by the baseline, and accepted
            /// but no longer occurring.
            var suppressed = 0
            var baselined = 0
            var stale = 0
            /// Every finding after the rule selection, kept only for --write-baseline.
            var findings: [Diagnostic] = []
        }

        /// The severity at or above which a finding fails: `warning` with --strict, else --fail-on,
        /// else the configuration's `failOn` (`error` by default). --strict and --fail-on are
        /// never both given (``validate()``).
        func failureThreshold(config: ProjectConfiguration?) -> Severity {
            strict ? .warning : failOn.level ?? config?.failOn ?? .error
        }

        static func fails(_ report: LintReport, at threshold: Severity) -> Bool {
            guard let highest = report.highestSeverity else { return false }
            return highest >= threshold
        }

        /// "3 errors, 1 warning, 2 deprecations in 4 files" on stderr, only when there are findings;
        /// findings hidden by --min-severity are counted and said to be hidden (they still count
        /// for the exit status).
        static func summary(_ counts: [Severity: Int], files: Int, shownFrom threshold: Severity, leftOut: String?) {
            guard counts.values.contains(where: { $0 > 0 }) || leftOut != nil else { return }
            let parts = Severity.allCases.reversed().compactMap { severity -> String? in
                guard let count = counts[severity], count > 0 else { return nil }
                let noun = severity == .info ? "info" : severity.rawValue + (count == 1 ? "" : "s")
                return "\(count) \(noun)" + (severity < threshold ? " (hidden by --min-severity)" : "")
            }
            let found = parts.isEmpty ? "no finding" : parts.joined(separator: ", ")
            StandardStreams.err(
                "\(found) in \(files) file\(files == 1 ? "" : "s")" + (leftOut.map { "; \($0)" } ?? "") + "\n")
        }
    }
}
