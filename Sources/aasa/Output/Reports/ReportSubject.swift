import AASA
import Foundation

/// One input of a report (a file, or an audited domain's file) and its findings: what every
/// report format is built from, whichever command found them.
struct ReportSubject: Sendable {
    /// Where the positions of the findings are.
    enum Positions: Sendable {
        /// Plain JSON: lines and byte columns in this text, which is the file's.
        case file(Data)
        /// A signed file: lines and columns in its embedded JSON (this text), not in its bytes.
        case embedded(Data?)
        /// Lines in the file at a URL, whose text is not at hand (audit): lines without columns.
        case linesOnly
        /// No position (verify).
        case none
    }

    struct Finding: Sendable {
        var diagnostic: Diagnostic
        /// The URL the finding is about (audit).
        var url: String? = nil
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

    /// A linted file: its kind decides whether the positions are the file's own.
    init(path: String, lint report: LintReport, diagnostics: [Diagnostic]) {
        self.init(
            path: path, mimeType: report.kind.isSigned ? "application/pkcs7-mime" : "application/json",
            positions: report.kind.isSigned ? .embedded(report.json) : .file(report.json ?? Data()),
            findings: diagnostics.map { Finding(diagnostic: $0) })
    }
}
