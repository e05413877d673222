import AASA
import Foundation

/// A report format written once, at the end of a run, from every input (SARIF, JUnit, GitLab
/// Code Quality, Markdown). Writers return the document's bytes; where they go is the
/// caller's business (the CLI writes them to standard output).
public protocol ReportWriter: Sendable {
    /// The whole document for `report`.
    /// - Throws: ``AASAError`` when the document cannot be made (a fingerprint's digest failed,
    ///   a value could not be encoded).
    func write(_ report: Report) throws(AASAError) -> Data
}

/// A format written input by input as the run goes, with nothing to say at the end: each
/// input's part is final when the input is (``DiagnosticLineWriter``).
public protocol ReportRecordWriter: Sendable {
    /// What the format writes for `subject`.
    func record(_ subject: ReportSubject) -> Data
}
