import ArgumentParser
import Foundation

/// Colour for what a person reads on a terminal: severities, verdicts and `check`'s
/// `[ok]`/`[no]` marks. It is added to lines that are already escaped (``TerminalText``), so
/// the only escape sequences that reach the terminal are these; it is decided once per stream,
/// before any work starts (``configure(_:environment:)``), and never added to a pipe, a file or
/// a machine format (JSON, SARIF, …: those never go through the text writers).
enum TerminalColor {
    /// `--color`.
    enum Mode: String, CaseIterable, ExpressibleByArgument, Sendable {
        /// Colour when the stream is a terminal that can show it, unless `NO_COLOR` is set;
        /// `CLICOLOR_FORCE` (not `0`) asks for it when the stream is not a terminal.
        case auto
        case always, never
    }

    // Written once by `configure`, on the main thread before any worker starts; read after.
    nonisolated(unsafe) private(set) static var standardOutput = false
    nonisolated(unsafe) private(set) static var standardError = false

    /// Decides colour for standard output and standard error.
    static func configure(_ mode: Mode, environment: [String: String] = ProcessInfo.processInfo.environment) {
        standardOutput = isEnabled(mode, descriptor: STDOUT_FILENO, environment: environment)
        standardError = isEnabled(mode, descriptor: STDERR_FILENO, environment: environment)
    }

    /// `--color always|never` as asked; `auto`: never when `NO_COLOR` is set and not empty
    /// (no-color.org: the user's "no" wins over `CLICOLOR_FORCE`), always when
    /// `CLICOLOR_FORCE` is set and not `0`, else when `descriptor` is a capable terminal.
    static func isEnabled(_ mode: Mode, descriptor: Int32, environment: [String: String]) -> Bool {
        switch mode {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return true }
            return Terminal.isCapable(descriptor, environment: environment)
        }
    }

    /// An SGR colour.
    enum Style: String {
        case red = "31", green = "32", yellow = "33", magenta = "35", cyan = "36"
        case boldRed = "1;31", dim = "2"
    }

    static func paint(_ text: Substring, _ style: Style) -> String {
        "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
    }

    /// `line` (escaped, without its newline) with its severity, verdict or mark coloured:
    /// - `PATH[:LINE:COL]: severity: [rule] message`: the severity;
    /// - `PATH: verdict` and `PATH: verdict: …` (verify, check, audit, detect): the verdict;
    /// - `  [ok] …`, `  [no] …`, `  [n/a] …` (check's comparison with Apple's guidance): the mark.
    static func highlight(_ line: String) -> String {
        if let marked = mark(line) { return marked }
        if let range = firstWord(in: line, among: severities.keys) {
            return line[..<range.lowerBound] + paint(line[range], severities[String(line[range])]!)
                + line[range.upperBound...]
        }
        if let range = firstWord(in: line, among: verdicts.keys) {
            return line[..<range.lowerBound] + paint(line[range], verdicts[String(line[range])]!)
                + line[range.upperBound...]
        }
        return line
    }

    static let severities: [String: Style] = [
        "error": .boldRed, "warning": .yellow, "deprecation": .magenta, "info": .cyan, "note": .cyan,
    ]

    /// The verdict words of verify, check and audit: green passes, yellow passes with a
    /// caveat, red fails.
    static let verdicts: [String: Style] = {
        var styles: [String: Style] = ["valid": .green, "current": .green]
        for word in ["valid-then", "legacy", "needs attention", "needs-attention", "expiring-soon", "not-audited"] {
            styles[word] = .yellow
        }
        for word in [
            "invalid", "broken", "untrusted", "tampered", "expired", "not-yet-valid", "malformed", "not-signed",
            "unsupported-algorithm", "unsupported-cms", "weak-algorithm", "signer-not-found", "wrong-purpose",
            "host-mismatch", "unreadable",
        ] {
            styles[word] = .red
        }
        return styles
    }()

    private static let marks: [(String, Style)] = [("[ok]", .green), ("[no]", .red), ("[n/a]", .dim)]

    private static func mark(_ line: String) -> String? {
        let indent = line.prefix(while: { $0 == " " })
        let rest = line[indent.endIndex...]
        for (mark, style) in marks where rest.hasPrefix(mark) {
            return indent + paint(rest.prefix(mark.count), style) + rest.dropFirst(mark.count)
        }
        return nil
    }

    /// The first `": WORD"` of `line` followed by the end, `:` or `;`, for a word of `words`:
    /// the range of WORD. Only the text after the path can hold it (a path with such a part
    /// gets a colour it did not need, nothing worse).
    private static func firstWord(in line: String, among words: Dictionary<String, Style>.Keys) -> Range<String.Index>?
    {
        var searchStart = line.startIndex
        while let separator = line.range(of: ": ", range: searchStart..<line.endIndex) {
            let rest = line[separator.upperBound...]
            for word in words where rest.hasPrefix(word) {
                let end = rest.index(rest.startIndex, offsetBy: word.count)
                if end == line.endIndex || line[end] == ":" || line[end] == ";" {
                    return rest.startIndex..<end
                }
            }
            searchStart = separator.upperBound
        }
        return nil
    }
}
