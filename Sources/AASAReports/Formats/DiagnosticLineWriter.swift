import AASA
import Foundation

/// The text format of `lint`: a line per finding, as compilers and linters print them, so
/// editors and CI annotations pick them up: `PATH:LINE:COL: severity: [rule] message (at
/// json.path)`, or `PATH: severity: [rule] message` without a position. The message is the
/// finding's first sentence (``Diagnostic/summary``), as compilers and ESLint keep theirs short,
/// or its whole text when `explained` (`lint --explain`). The caller escapes the line for a
/// terminal (``TerminalText``).
public struct DiagnosticLineWriter: ReportRecordWriter {
    /// Whether each line carries the whole message rather than its first sentence.
    public var explained: Bool

    public init(explained: Bool = false) {
        self.explained = explained
    }

    public func record(_ subject: ReportSubject) -> Data {
        Data(
            subject.findings.map { Self.line($0.diagnostic, path: subject.path, explained: explained) + "\n" }
                .joined().utf8)
    }

    /// The line of one finding in the file at `path`, without its newline: with the message's
    /// first sentence, or all of it when `explained`.
    public static func line(_ diagnostic: Diagnostic, path: String, explained: Bool = false) -> String {
        var location = ReportSubject.displayName(path)
        if let line = diagnostic.location.line {
            location += ":\(line)"
            if let column = diagnostic.location.column { location += ":\(column)" }
        }
        let at = diagnostic.location.path.components.isEmpty ? "" : " (at \(diagnostic.location.path))"
        return
            "\(location): \(diagnostic.severity.rawValue): [\(diagnostic.rule.rawValue)] \(explained ? diagnostic.message : diagnostic.summary)\(at)"
    }
}
