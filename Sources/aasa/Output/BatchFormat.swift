/// The output formats of the batch commands (verify, detect, lint), in one place.
///
/// A new per-file format for every batch command is a case here, listed in ``perFile``, and a
/// branch in ``RecordPrinter``; nothing else changes.
enum BatchFormat: String, CaseIterable, Sendable {
    /// For people: the command's lines for each file.
    case text
    /// For machines: one document (an array of the files' records for several files).
    case json
    /// One compact JSON record per line, per file, in input order as each is printed.
    case jsonl
    /// SARIF 2.1.0, for GitHub code scanning: one document at the end (lint, verify, check, audit).
    case sarif
    /// JUnit XML, a test case per file or domain (lint, verify, audit).
    case junit
    /// A GitLab Code Quality report (lint, check).
    case gitlab
    /// A Markdown summary, for a job summary or a pull request comment (lint, verify, check, audit).
    case markdown

    /// What every batch command offers: the formats that print one record per file.
    static let perFile: [BatchFormat] = [.text, .json, .jsonl]

    /// A report written once at the end from every input's findings (``ReportCollector``).
    var isReport: Bool { !Self.perFile.contains(self) }
}
