import AASA
import ArgumentParser
import Foundation

extension AASACommand {
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lint",
            _superCommandName: AASACommand.name,
            abstract: "Check AASA files against Apple's format and current guidance, with stable rule IDs.",
            discussion: """
                Signed files are unwrapped (without verifying them) and their JSON is linted too; their \
                line and column numbers refer to the embedded JSON. Rules: docs/rules.md, or --list-rules.

                Directories are linted file by file (see --include), --jobs files at a time, the \
                output in input order; --format sarif holds every finding until the end (one document), \
                text and json stream. See docs/performance.md.

                Exit status: 0 no finding at or above --fail-on (default error; --strict is --fail-on \
                warning), 1 findings at that level (hidden ones too), 2 a file could not be read, 64 usage error.
                """
        )

        @Argument(help: ArgumentHelp("Files or directories to lint ('-' for standard input).", valueName: "file"))
        var files: [String] = []

        @Option(
            help:
                "Output format: \(BatchFormatOption<LintFormats>.listed) (jsonl: one file's report per line; sarif: SARIF 2.1.0, for GitHub code scanning)."
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
            help: "Show only findings at or above: info (default), deprecation, warning, error.")
        var minSeverity: Severity = .info

        @Flag(
            name: .customLong("list-rules"),
            help: "List every rule ID with its severity and summary and exit (--format text, json or jsonl).")
        var listRules = false

        @OptionGroup(title: "Batch")
        var batch: BatchOptions

        @OptionGroup(title: "Limits")
        var limits: LimitOptions

        func validate() throws {
            try batch.refuseListOnStandardInput(files)
            if !batch.hasInputs(files) && !listRules {
                throw ValidationError("give at least one file to lint ('-' for standard input), or --list-rules")
            }
            if listRules && format.value == .sarif {
                throw ValidationError(
                    "--list-rules prints text, json or jsonl; in SARIF the rules are the tool.driver.rules of every lint --format sarif log"
                )
            }
            if strict && failOn.level != nil {
                throw ValidationError("--strict is --fail-on warning: give one or the other")
            }
        }

        struct FileReport: Encodable {
            var path: String
            var kind: String
            var diagnostics: [DiagnosticReport]
        }

        struct DiagnosticReport: Encodable {
            var rule: String
            var severity: String
            var message: String
            var location: Location

            struct Location: Encodable {
                var path: String
                var line: Int?
                var column: Int?
            }

            init(_ diagnostic: Diagnostic) {
                rule = diagnostic.rule.rawValue
                severity = diagnostic.severity.rawValue
                message = diagnostic.message
                location = Location(
                    path: diagnostic.location.path.description, line: diagnostic.location.line,
                    column: diagnostic.location.column)
            }
        }

        func run() throws {
            if listRules { return try RuleList.print(format.value) }
            let expansion = batch.expand(files, what: "lint", streaming: true)
            var frontend = BatchFrontend("lint", expansion)
            var failed = false
            let (format, minSeverity, threshold, limits) = (
                format.value, minSeverity, failureThreshold, self.limits.values
            )
            // SARIF is one document: its artifacts come first
            var sarifFiles: [(path: String, report: LintReport)] = []
            var counts: [Severity: Int] = [:]
            let records = frontend.startOutput(format, single: false, layout: .member("files"))
            frontend.run(
                threads: batch.workerCount, output: \.output,
                work: { item -> FileResult in
                    var result = FileResult()
                    do {
                        let data = try limits.read(item.path)
                        let file = AASAFile.read(data, limits: limits.library)
                        // A directory's README or image is no AASA file: counted, not broken.
                        if !item.explicit && AASAFile.isNotAASA(data, detection: file.detection) {
                            result.output.emit(
                                item.path, .note, "skipped: not an AASA file (neither JSON nor PKCS#7)")
                            result.output.outcome = "skipped"
                            return result
                        }
                        let report = Linter.lint(file, size: data.count, options: LintOptions(limits: limits.library))
                        var shown = report
                        shown.diagnostics = report.diagnostics(atLeast: minSeverity)
                        result.output.write(
                            try records.render(
                                FileReport(
                                    path: item.path, kind: shown.kind.rawValue,
                                    diagnostics: shown.diagnostics.map(DiagnosticReport.init)),
                                text: shown.diagnostics.map { Self.text($0, path: item.path) }))
                        if format == .sarif { result.shown = shown }
                        // The verdict uses every finding, whatever --min-severity shows.
                        result.failed = Self.fails(report, at: threshold)
                        for diagnostic in report.diagnostics { result.counts[diagnostic.severity, default: 0] += 1 }
                        result.output.outcome = "linted"
                    } catch {
                        result.output.fail(CLIFailure(item.path, describing: error), outcome: "unreadable")
                    }
                    return result
                },
                then: { item, result, _ in
                    guard result.output.outcome == "linted" else { return }
                    if result.failed { failed = true }
                    for (severity, count) in result.counts { counts[severity, default: 0] += count }
                    if let shown = result.shown { sarifFiles.append((item.path, shown)) }
                })
            frontend.finishOutput()
            if format == .sarif { try JSONOutput.print(SARIFLog(files: sarifFiles, version: AASAVersion.current)) }
            if format == .text {
                let skipped = frontend.tally.count("skipped")
                let notes = [
                    skipped == 0 ? nil : "\(BatchTally.files(skipped)) skipped (not AASA files)", frontend.leftOutNote,
                ].compactMap { $0 }
                Self.summary(
                    counts, files: frontend.tally.count("linted"), shownFrom: minSeverity,
                    leftOut: notes.isEmpty ? nil : notes.joined(separator: "; "))
            }
            // Any file that could not be read (or output that could not be written) is status 2, whatever it said.
            if frontend.tally.count("unreadable") > 0 || frontend.printer.stdoutFailed { throw ExitStatus.badInput }
            if failed { throw ExitStatus.checkFailed }
        }

        /// What linting one file gave.
        struct FileResult: Sendable {
            var output = BatchOutput()
            var failed = false
            var counts: [Severity: Int] = [:]
            /// The report as shown, kept only for SARIF.
            var shown: LintReport?
        }

        /// The severity at or above which a finding fails: `warning` with --strict, else --fail-on
        /// (`error` by default). The two are never both given (``validate()``).
        var failureThreshold: Severity { strict ? .warning : failOn.threshold }

        static func fails(_ report: LintReport, at threshold: Severity) -> Bool {
            guard let highest = report.highestSeverity else { return false }
            return highest >= threshold
        }

        /// `PATH:LINE:COL: severity: [rule] message`, or `PATH: severity: [rule] message` without a position.
        static func text(_ diagnostic: Diagnostic, path: String) -> String {
            var location = Diagnostics.displayName(path)
            if let line = diagnostic.location.line {
                location += ":\(line)"
                if let column = diagnostic.location.column { location += ":\(column)" }
            }
            let at = diagnostic.location.path.components.isEmpty ? "" : " (at \(diagnostic.location.path))"
            return
                "\(location): \(diagnostic.severity.rawValue): [\(diagnostic.rule.rawValue)] \(diagnostic.message)\(at)"
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
