import AASA
import Foundation

/// One input of a report (a file, or an audited domain's file) and its findings: what every
/// report format is built from, whichever command found them.
struct ReportSubject: Sendable {
    /// Where the positions of the findings are.
    enum Positions: Sendable {
        /// Plain JSON: the lines and columns are the file's.
        case file
        /// A signed file: lines and columns in its embedded JSON, not in its bytes.
        case embedded
        /// Lines in the file at a URL, whose text is not at hand (audit): lines without columns.
        case linesOnly
        /// No position (verify).
        case none
    }

    struct Finding: Sendable {
        var diagnostic: Diagnostic
        /// The URL the finding is about (audit).
        var url: String? = nil
        /// The column in UTF-16 code units (``UTF16Column``), computed where the text is at hand.
        var utf16Column: Int? = nil
    }

    /// The name as the user gave it: what fingerprints and messages use.
    var path: String
    var artifact: ArtifactURI
    var mimeType: String?
    var positions: Positions
    var findings: [Finding]

    init(path: String, artifact: ArtifactURI? = nil, mimeType: String?, positions: Positions, findings: [Finding]) {
        self.path = path
        self.artifact = artifact ?? ArtifactURI(path: path)
        self.mimeType = mimeType
        self.positions = positions
        self.findings = findings
    }

    /// A linted file: its kind decides whether the positions are the file's own. The UTF-16
    /// columns are computed here, from the JSON the linter read, so the text is not kept.
    init(path: String, lint report: LintReport, diagnostics: [Diagnostic]) {
        let json = report.json ?? Data()
        self.init(
            path: path, mimeType: report.kind.isSigned ? "application/pkcs7-mime" : "application/json",
            positions: report.kind.isSigned ? .embedded : .file,
            findings: diagnostics.map { diagnostic in
                let location = diagnostic.location
                let column = location.line.flatMap { line in
                    location.column.flatMap { UTF16Column.of(line: line, byteColumn: $0, in: json) }
                }
                return Finding(diagnostic: diagnostic, utf16Column: column)
            })
    }
}
