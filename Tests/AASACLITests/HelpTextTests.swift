import AASATestSupport
import Foundation
import Testing

/// Help texts say each default and each list of values once: argument-parser appends
/// `(values: …)` and `(default: …)` to an option's help, so the text before them must not
/// list the values again or name the default.
@Suite("help texts: each default and value list once")
struct HelpTextTests {
    static let subcommands = [
        "lint", "rules", "check", "match", "verify", "extract", "sign", "detect", "inspect", "convert", "migrate",
        "diff", "audit",
    ]

    /// Each option's entry of `help`, its wrapped lines joined.
    static func optionEntries(_ help: String) -> [String] {
        var entries: [String] = []
        var current: String?
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  -") {
                if let current { entries.append(current) }
                current = line.trimmingCharacters(in: .whitespaces)
            } else if current != nil, line.hasPrefix("      ") {
                current! += " " + line.trimmingCharacters(in: .whitespaces)
            } else if let entry = current {
                entries.append(entry)
                current = nil
            }
        }
        if let current { entries.append(current) }
        return entries
    }

    /// Why `entry` says a default or a value list twice, or nil.
    static func repetition(in entry: String) -> String? {
        guard let suffix = entry.range(of: #"\((values|default): "#, options: .regularExpression) else { return nil }
        let before = entry[..<suffix.lowerBound]
        if entry[suffix.lowerBound...].contains("default: "),
            before.range(of: "default", options: .caseInsensitive) != nil
        {
            return "the default is named before argument-parser's (default: …)"
        }
        if let values = entry.range(of: #"\(values: [^;)]*"#, options: .regularExpression) {
            let names = entry[values].dropFirst("(values: ".count).components(separatedBy: ", ")
            // A list: three or more of the values, one after another, separated by ", " or " or ".
            let pattern = "(" + names.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|") + ")"
            let list = pattern + "(, | or |, or )" + pattern + "(, | or |, or )" + pattern
            if names.count >= 3, before.range(of: list, options: .regularExpression) != nil {
                return "the values are listed before argument-parser's (values: …)"
            }
        }
        return nil
    }

    @Test(
        "every USAGE line has one shape: aasa COMMAND [<options>] then the arguments",
        arguments: subcommands + ["audit summarize"])
    func usageLinesAreConsistent(command: String) {
        let help = CLI.run(command.split(separator: " ").map(String.init) + ["--help"])
        let usage = help.stdoutText.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }
        #expect(usage?.hasPrefix("USAGE: aasa \(command) [<options>]") == true, "\(command): \(usage ?? "none")")
        #expect(usage.map { !$0.contains("--") } == true, "\(command) lists its options: \(usage ?? "")")
    }

    @Test("no option's help names its default or lists its values twice", arguments: subcommands)
    func eachDefaultAndValueListOnce(subcommand: String) throws {
        let help = CLI.run([subcommand, "--help"])
        try #require(help.status == 0, "\(help)")
        let entries = Self.optionEntries(help.stdoutText)
        #expect(entries.count >= 3, "\(subcommand): \(entries.count) options found")
        for entry in entries {
            if let why = Self.repetition(in: entry) { Issue.record("aasa \(subcommand) --help: \(why): \(entry)") }
        }
    }

    /// The release installs the docs at `BINARY/../share/doc/aasa/docs` (scripts/release.sh;
    /// scripts/test-release.sh checks the installed .deb and tarball): the help names those
    /// files when they are there, the source's `docs/` when they are not.
    @Test("help texts name the installed pages beside the binary, else the source's docs/")
    func helpNamesTheInstalledDocs() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-docs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let bin = root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        // A hard link (a copy across file systems): /proc/self/exe is then this path, where a
        // symbolic link would resolve to the build folder.
        let binary = bin.appendingPathComponent("aasa")
        do {
            try FileManager.default.linkItem(at: CLI.executable, to: binary)
        } catch {
            try FileManager.default.copyItem(at: CLI.executable, to: binary)
        }
        func verifyHelp() -> String {
            // The wrapped lines joined, whatever the width.
            ProcessRunner.run(binary, ["verify", "--help"]).stdoutText.split(whereSeparator: \.isWhitespace)
                .joined(separator: " ")
        }
        #expect(verifyHelp().contains("See docs/performance.md in aasa's source."), "\(verifyHelp())")
        let docs = root.appendingPathComponent("share/doc/aasa/docs")
        try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
        try Data("# cli\n".utf8).write(to: docs.appendingPathComponent("cli.md"))
        #expect(verifyHelp().contains("See \(docs.standardizedFileURL.path)/performance.md."), "\(verifyHelp())")
    }

    @Test("the check finds what it looks for")
    func theCheckFindsRepetition() {
        #expect(Self.repetition(in: "--n <n>  Domains at once (default 16). (default: 16)") != nil)
        #expect(
            Self.repetition(
                in: "--format <f>  Output format: text, json or jsonl. (values: text, json, jsonl; default: text)")
                != nil)
        #expect(
            Self.repetition(
                in: "--format <f>  Output format (jsonl: one per line). (values: text, json, jsonl; default: text)")
                == nil)
    }
}
