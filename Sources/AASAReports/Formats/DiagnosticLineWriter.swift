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
        let at = diagnostic.location.path.components.isEmpty ? "" : " (at \(diagnostic.location.path))"
        return line(
            path: path, line: diagnostic.location.line, column: diagnostic.location.column,
            severity: diagnostic.severity.rawValue, tag: diagnostic.rule.rawValue,
            message: (explained ? diagnostic.message : diagnostic.summary) + at)
    }

    /// The one shape of a diagnostic line, the CLI's own messages (`PATH: error: [code] …`)
    /// and lint's findings alike: `PATH[:LINE[:COL]]: severity: [tag] message`, the path as
    /// ``ReportSubject/displayName(_:)`` writes it, without the `[tag]` when there is none.
    public static func line(
        path: String, line: Int? = nil, column: Int? = nil, severity: String, tag: String?, message: String
    ) -> String {
        var location = ReportSubject.displayName(path)
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        return "\(location): \(severity): \(tag.map { "[\($0)] " } ?? "")\(message)"
    }
}
