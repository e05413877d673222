import AASA
import ArgumentParser
import Foundation

extension AASACommand {
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check AASA files against Apple's format and current guidance, with stable rule IDs.",
            discussion: """
                Signed files are unwrapped (without verifying them) and their JSON is linted too; their \
                line and column numbers refer to the embedded JSON. Rules: docs/rules.md, or --list-rules.

                Exit status: 0 no error (no warning either with --strict), 1 findings at the failing level, \
                2 a file could not be read, 64 usage error.
                """
        )

        @Argument(help: ArgumentHelp("Files to lint ('-' for standard input).", valueName: "file"))
        var files: [String] = []

        @Option(help: "Output format: text, json or sarif (SARIF 2.1.0, for GitHub code scanning).")
        var format: LintFormat = .text

        @Flag(help: "Fail (exit 1) on warnings too, not only errors.")
        var strict = false

        @Option(name: .customLong("min-severity"), help: "Show only findings at or above: info (default), deprecation, warning, error.")
        var minSeverity: Severity = .info

        @Flag(name: .customLong("list-rules"), help: "List every rule ID with its severity and exit.")
        var listRules = false

        enum LintFormat: String, ExpressibleByArgument, CaseIterable {
            case text, json, sarif
        }

        func validate() throws {
            if files.isEmpty && !listRules {
                throw ValidationError("give at least one file to lint ('-' for standard input), or --list-rules")
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
            if listRules {
                for entry in RuleCatalogue.all {
                    printOut("\(entry.id.rawValue.padding(toLength: 30, withPad: " ", startingAt: 0)) \(entry.severity.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) \(entry.summary)")
                }
                return
            }
            var reports: [(path: String, report: LintReport)] = []
            var complete: [LintReport] = []
            var unreadable = false
            var failed = false
            for file in files {
                do {
                    let report = Linter.lint(try InputFile.read(file))
                    complete.append(report)
                    var shown = report
                    shown.diagnostics = report.diagnostics(atLeast: minSeverity)
                    reports.append((file, shown))
                    if format == .text {
                        for diagnostic in shown.diagnostics { printOut(Self.text(diagnostic, path: file)) }
                    }
                    // The verdict uses every finding, whatever --min-severity shows.
                    if Self.fails(report, strict: strict) { failed = true }
                } catch let failure as CLIFailure {
                    Diagnostics.emit(failure.path, .error, failure.message)
                    unreadable = true
                }
            }
            switch format {
            case .text: break
            case .json:
                try JSONOutput.print(
                    ["files": reports.map { FileReport(path: $0.path, kind: $0.report.kind.rawValue, diagnostics: $0.report.diagnostics.map(DiagnosticReport.init)) }])
            case .sarif:
                try JSONOutput.print(SARIFLog(files: reports, version: AASAVersion.current))
            }
            if format == .text { Self.summary(complete, shownFrom: minSeverity) }
            if unreadable { throw ExitStatus.badInput }
            if failed { throw ExitStatus.checkFailed }
        }

        static func fails(_ report: LintReport, strict: Bool) -> Bool {
            guard let highest = report.highestSeverity else { return false }
            return highest >= (strict ? .warning : .error)
        }

        /// `PATH:LINE:COL: severity: [rule] message`, or `PATH: severity: [rule] message` without a position.
        static func text(_ diagnostic: Diagnostic, path: String) -> String {
            var location = Diagnostics.displayName(path)
            if let line = diagnostic.location.line {
                location += ":\(line)"
                if let column = diagnostic.location.column { location += ":\(column)" }
            }
            let at = diagnostic.location.path.components.isEmpty ? "" : " (at \(diagnostic.location.path))"
            return "\(location): \(diagnostic.severity.rawValue): [\(diagnostic.rule.rawValue)] \(diagnostic.message)\(at)"
        }

        /// "3 errors, 1 warning, 2 deprecations in 4 files" on stderr, only when there are findings;
        /// findings hidden by --min-severity are counted and said to be hidden (they still count
        /// for the exit status).
        static func summary(_ reports: [LintReport], shownFrom threshold: Severity) {
            var counts: [Severity: Int] = [:]
            for report in reports { for diagnostic in report.diagnostics { counts[diagnostic.severity, default: 0] += 1 } }
            guard !counts.isEmpty else { return }
            let parts = Severity.allCases.reversed().compactMap { severity -> String? in
                guard let count = counts[severity] else { return nil }
                let noun = severity == .info ? "info" : severity.rawValue + (count == 1 ? "" : "s")
                return "\(count) \(noun)" + (severity < threshold ? " (hidden by --min-severity)" : "")
            }
            FileHandle.standardError.write(Data("\(parts.joined(separator: ", ")) in \(reports.count) file\(reports.count == 1 ? "" : "s")\n".utf8))
        }
    }
}

extension Severity: ExpressibleByArgument {}
