import AASA
import Foundation

/// The text format of `lint`: a line per finding, as compilers and linters print them, so
/// editors and CI annotations pick them up: `PATH:LINE:COL: severity: [rule] message (at
/// json.path)`, or `PATH: severity: [rule] message` without a position. The caller escapes the
/// line for a terminal (``TerminalText``).
public struct DiagnosticLineWriter: ReportRecordWriter {
    public init() {}

    public func record(_ subject: ReportSubject) -> Data {
        Data(subject.findings.map { Self.line($0.diagnostic, path: subject.path) + "\n" }.joined().utf8)
    }

    /// The line of one finding in the file at `path`, without its newline.
    public static func line(_ diagnostic: Diagnostic, path: String) -> String {
        var location = ReportSubject.displayName(path)
        if let line = diagnostic.location.line {
            location += ":\(line)"
            if let column = diagnostic.location.column { location += ":\(column)" }
        }
        let at = diagnostic.location.path.components.isEmpty ? "" : " (at \(diagnostic.location.path))"
        return "\(location): \(diagnostic.severity.rawValue): [\(diagnostic.rule.rawValue)] \(diagnostic.message)\(at)"
    }
}
