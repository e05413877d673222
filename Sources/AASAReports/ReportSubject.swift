import AASA
import Foundation

/// One input of a report (a file, or an audited domain's file) and its findings: what every
/// report format is built from, whichever command found them.
public struct ReportSubject: Sendable {
    /// Where the positions of the findings are.
    public enum Positions: Sendable {
        /// Plain JSON: the lines and columns are the file's.
        case file
        /// A signed file: lines and columns in its embedded JSON, not in its bytes.
        case embedded
        /// Lines in the file at a URL, whose text is not at hand (audit): lines without columns.
        case linesOnly
        /// No position (verify).
        case none
    }

    public struct Finding: Sendable {
        public var diagnostic: Diagnostic
        /// The URL the finding is about (audit).
        public var url: String?
        /// The column in UTF-16 code units (``UTF16Column``), computed where the text is at hand.
        public var utf16Column: Int?

        public init(diagnostic: Diagnostic, url: String? = nil, utf16Column: Int? = nil) {
            self.diagnostic = diagnostic
            self.url = url
            self.utf16Column = utf16Column
        }
    }

    /// The name as the user gave it: what fingerprints and messages use.
    public var path: String
    /// The input as a URI (SARIF's `artifactLocation`).
    public var artifact: ArtifactURI
    public var mimeType: String?
    public var positions: Positions
    public var findings: [Finding]
    /// The verdict the command's text and JSON give the input (`valid`, `untrusted`,
    /// `legacy`, `broken`, …), which the Markdown table shows; nil for a command without one
    /// (`lint`, whose table says `ok`, `passed` or `failed`).
    public var verdict: String?

    public init(
        path: String, artifact: ArtifactURI? = nil, mimeType: String?, positions: Positions, findings: [Finding]
    ) {
        self.path = path
        self.artifact = artifact ?? ArtifactURI(path: path)
        self.mimeType = mimeType
        self.positions = positions
        self.findings = findings
    }

    /// A linted file: its kind decides whether the positions are the file's own. The UTF-16
    /// columns are computed here, from the JSON the linter read, so the text is not kept.
    public init(path: String, lint report: LintReport, diagnostics: [Diagnostic]) {
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

    /// The name a report shows: `<stdin>` for `-`.
    public var displayName: String { Self.displayName(path) }

    /// The name a report shows for `path`: `<stdin>` for `-`.
    public static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }
}
