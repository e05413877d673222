import AASA
import AASAReports
import Foundation

/// What a command's end-of-run report formats (SARIF, JUnit, GitLab, Markdown) need: every input with its
/// findings, and the inputs that could not be read, in input order. The command adds them as
/// it goes (on the main thread) and calls ``finish()`` once; the format's ``ReportWriter``
/// makes the document and this writes it to standard output.
struct ReportCollector {
    let format: BatchFormat
    private let scope: ReportScope
    private let rulesURL: String?
    private let failOn: Severity
    private var subjects: [ReportSubject] = []
    private var unreadable: [UnreadableInput] = []

    /// Why `$AASA_RULES_URL` was not used (reported once, when a report is written).
    private let rulesWarning: String?

    /// - Parameters:
    ///   - rulesURL: the docs/rules.md address of the rule links (`--rules-url`), nil for none.
    ///   - rulesWarning: why `$AASA_RULES_URL` was not used, if it was not.
    init(_ format: BatchFormat, scope: ReportScope, rulesURL: String?, rulesWarning: String?, failOn: Severity) {
        self.format = format
        self.rulesWarning = rulesWarning
        self.scope = scope
        self.rulesURL = rulesURL
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
        if collects { unreadable.append(UnreadableInput(path: failure.path, message: failure.message)) }
    }

    /// The writer of `format`, nil for the per-file formats.
    static func writer(_ format: BatchFormat) -> (any ReportWriter)? {
        switch format {
        case .sarif: return SARIFWriter()
        case .junit: return JUnitWriter()
        case .gitlab: return GitLabCodeQualityWriter()
        case .markdown: return MarkdownWriter()
        case .text, .json, .jsonl: return nil
        }
    }

    /// Writes the report to standard output (nothing for a per-file format).
    /// - Throws: ``CLIFailure`` when standard output cannot be written; ``ExitStatus`` 2
    ///   when the report cannot be made (a fingerprint's digest failed; reported on standard error).
    func finish() throws {
        guard collects, let writer = Self.writer(format) else { return }
        if let rulesWarning { Diagnostics.emit("aasa", .warning, rulesWarning) }
        // The rule book is built here, for a report only: a text or JSON run never pays for it.
        let report = Report(
            context: ReportContext(command: scope.command, rules: scope.rules(base: rulesURL), failOn: failOn),
            subjects: subjects, unreadable: unreadable)
        try reportingFailures(path: "aasa") {
            StandardStreams.out(try writer.write(report))
        }
    }
}
