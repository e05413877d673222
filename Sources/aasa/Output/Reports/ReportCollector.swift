import AASA
import Foundation

/// What a command's end-of-run report formats (SARIF, JUnit, GitLab, Markdown) need: every input with its
/// findings, and the inputs that could not be read, in input order. The command adds them as
/// it goes (on the main thread) and calls ``finish()`` once; every format is written from here.
struct ReportCollector {
    let format: BatchFormat
    let scope: RuleHelp.Scope
    let rulesURL: String
    /// The lowest severity that fails an input (JUnit failures, Markdown's result column).
    let failOn: Severity
    private(set) var subjects: [ReportSubject] = []
    private(set) var unreadable: [CLIFailure] = []

    /// Why `$AASA_RULES_URL` was not used (reported once, when a report is written).
    private let rulesWarning: String?

    init(_ format: BatchFormat, scope: RuleHelp.Scope, rules: ReportOptions, failOn: Severity) {
        self.format = format
        self.scope = scope
        self.rulesURL = rules.base
        self.rulesWarning = rules.environmentWarning
        self.failOn = failOn
    }

    /// Whether `format` is written at the end from what is collected (so the workers must keep
    /// each input's findings); false for the per-file formats.
    var collects: Bool { format.isReport }

    mutating func add(_ subject: ReportSubject) {
        if collects { subjects.append(subject) }
    }

    /// An input that could not be read (already reported on standard error).
    mutating func unreadable(_ failure: CLIFailure) {
        if collects { unreadable.append(failure) }
    }

    /// Writes the report to standard output (nothing for a per-file format).
    /// - Throws: ``CLIFailure`` when standard output cannot be written; ``ExitStatus`` 2
    ///   when a fingerprint cannot be computed (reported on standard error).
    func finish() throws {
        guard collects else { return }
        if let rulesWarning { Diagnostics.emit("aasa", .warning, rulesWarning) }
        try reportingFailures(path: "aasa") {
            switch format {
            case .sarif:
                var builder = SARIFRunBuilder(scope, rulesURL: rulesURL)
                for subject in subjects { try builder.add(subject) }
                for failure in unreadable { builder.unreadable(failure.path, message: failure.message) }
                try builder.print()
            case .junit:
                StandardStreams.out(
                    Data(
                        JUnitReport.render(subjects, unreadable: unreadable, command: scope.command, failOn: failOn)
                            .utf8))
            case .gitlab:
                try JSONOutput.print(try GitLabCodeQuality.issues(subjects))
            case .markdown:
                StandardStreams.out(
                    Data(
                        MarkdownReport.render(
                            subjects, unreadable: unreadable, command: scope.command, failOn: failOn,
                            rulesURL: rulesURL
                        ).utf8))
            case .text, .json, .jsonl:
                break
            }
        }
    }
}
