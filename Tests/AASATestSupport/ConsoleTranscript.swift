import Foundation

/// The ```console blocks of a Markdown page, as the page shows them: each `$ ` line a command
/// (with the lines that continue it after a trailing `\`), the lines under it what it prints.
/// A transcript test runs the commands and compares (``ConsoleTranscript/matches(_:_:)``), in
/// the manner of the trycmd/snapbox tests of Rust CLIs and Mercurial's cram tests.
public struct ConsoleTranscript: Sendable {
    /// One command of a block and the output the page gives for it.
    public struct Step: Sendable, Equatable {
        /// The command as the shell runs it (continuation lines joined as the page writes them).
        public let command: String
        /// The lines the page shows under it.
        public let expected: [String]
        /// The page's line of the command (from 1), for the failure message.
        public let line: Int
    }

    /// The blocks of the page, in order, each a list of steps.
    public let blocks: [[Step]]

    /// Reads the ```console blocks of `markdown`, indented ones (in a list item) included.
    public init(markdown: String) {
        var blocks: [[Step]] = []
        var current: [Step]?
        var command: (text: String, line: Int)?
        var expected: [String] = []
        var continues = false
        func closeStep() {
            if let command { current?.append(Step(command: command.text, expected: expected, line: command.line)) }
            command = nil
            expected = []
        }
        // A block inside a list item is indented; its lines are read without that indentation.
        var indent = 0
        for (index, raw) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil {
                if raw.trimmingCharacters(in: .whitespaces) == "```console" {
                    current = []
                    indent = raw.prefix { $0 == " " }.count
                }
                continue
            }
            let line = String(raw.dropFirst(min(indent, raw.prefix { $0 == " " }.count)))
            if line == "```" {
                closeStep()
                blocks.append(current ?? [])
                current = nil
                continues = false
                continue
            }
            if continues, let started = command {
                command = (started.text + "\n" + line, started.line)
                continues = line.hasSuffix("\\")
            } else if line.hasPrefix("$ ") {
                closeStep()
                command = (String(line.dropFirst(2)), index + 1)
                continues = line.hasSuffix("\\")
            } else {
                expected.append(line)
            }
        }
        self.blocks = blocks
    }

    /// Whether `actual` is what the page shows as `expected`: the same lines (trailing spaces
    /// ignored), where a line that is only `…` (indented or not) stands for any number of lines,
    /// none included, and `…` inside a line for any text.
    public static func matches(_ expected: [String], _ actual: [String]) -> Bool {
        let expected = expected.map(trimmedEnd)
        let actual = actual.map(trimmedEnd)
        var memo: [Int: Bool] = [:]
        func match(_ e: Int, _ a: Int) -> Bool {
            let key = e * (actual.count + 1) + a
            if let known = memo[key] { return known }
            let result: Bool
            if e == expected.count {
                result = a == actual.count
            } else if expected[e].trimmingCharacters(in: .whitespaces) == "…" {
                result = (a...actual.count).contains { match(e + 1, $0) }
            } else {
                result = a < actual.count && lineMatches(expected[e], actual[a]) && match(e + 1, a + 1)
            }
            memo[key] = result
            return result
        }
        return match(0, 0)
    }

    /// One line against its pattern: `…` stands for any text.
    public static func lineMatches(_ pattern: String, _ line: String) -> Bool {
        let parts = pattern.components(separatedBy: "…")
        guard parts.count > 1 else { return pattern == line }
        guard line.hasPrefix(parts[0]), line.dropFirst(parts[0].count).hasSuffix(parts[parts.count - 1]) else {
            return false
        }
        var rest = line.dropFirst(parts[0].count).dropLast(parts[parts.count - 1].count)
        for middle in parts.dropFirst().dropLast() where !middle.isEmpty {
            guard let found = rest.range(of: middle) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    public static func trimmedEnd(_ line: String) -> String {
        var line = Substring(line)
        while line.last == " " || line.last == "\t" { line = line.dropLast() }
        return String(line)
    }
}
