import AASA
import Foundation

/// What a command's end-of-run report formats (SARIF today) need: every input with its
/// findings, and the inputs that could not be read, in input order. The command adds them as
/// it goes (on the main thread) and calls ``finish()`` once; every format is written from here.
struct ReportCollector {
    let format: BatchFormat
    let scope: RuleHelp.Scope
    let rulesURL: String
    private(set) var subjects: [ReportSubject] = []
    private(set) var unreadable: [CLIFailure] = []

    init(_ format: BatchFormat, scope: RuleHelp.Scope, rulesURL: String) {
        self.format = format
        self.scope = scope
        self.rulesURL = rulesURL
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
        try reportingFailures(path: "aasa") {
            switch format {
            case .sarif:
                var builder = SARIFRunBuilder(scope, rulesURL: rulesURL)
                for subject in subjects { try builder.add(subject) }
                for failure in unreadable { builder.unreadable(failure.path, message: failure.message) }
                try builder.print()
            case .text, .json, .jsonl:
                break
            }
        }
    }
}
