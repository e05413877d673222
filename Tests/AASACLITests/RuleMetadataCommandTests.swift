import AASA
import AASATestSupport
import Foundation
import Testing

/// The metadata `lint --list-rules` publishes: each fix it names works, and docs/rules.md's
/// tables say the same.
@Suite("rule metadata: fixes and docs/rules.md")
struct RuleMetadataCommandTests {
    /// The first ```json example of each `## `id`` section of docs/rules.md, by rule ID.
    static func documentedExamples() throws -> [String: String] {
        let text = try String(contentsOf: CLI.repoRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        var result: [String: String] = [:]
        var rule: String?
        var block: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## `") && line.hasSuffix("`") {
                rule = String(line.dropFirst(4).dropLast())
            } else if line == "```json" {
                block = []
            } else if line == "```", let lines = block {
                if let rule, result[rule] == nil { result[rule] = lines.joined(separator: "\n") }
                block = nil
            } else if block != nil {
                block?.append(line)
            }
        }
        return result
    }

    /// The rule IDs `aasa lint FILE` reports.
    func rules(in path: String) throws -> Set<String> {
        let result = CLI.run(["lint", "--no-config", path, "--format", "json"])
        try #require(result.status == 0 || result.status == 1, "\(result)")
        let files = try #require(try result.jsonObject()["files"] as? [[String: Any]])
        let diagnostics = files.flatMap { $0["diagnostics"] as? [[String: Any]] ?? [] }
        return Set(diagnostics.compactMap { $0["rule"] as? String })
    }

    @Test(
        "aasa rules ID: every rule's whole documentation offline, the paragraphs of docs/rules.md; an unknown ID is a usage error with a suggestion"
    )
    func ruleDocumentationOffline() throws {
        let listed = try #require(try CLI.run(["rules", "--format", "json"]).json() as? [[String: Any]])
        let ids = listed.compactMap { $0["id"] as? String }
        try #require(ids.count == RuleRegistry.all.count + 17, "\(ids.count) rules")
        let rulesPage = try String(contentsOf: CLI.repoRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        let all = CLI.run(["rules"] + ids)
        #expect(all.status == 0 && all.stderr.isEmpty, "\(all.stderr)")
        for rule in listed {
            let id = try #require(rule["id"] as? String)
            let shown = CLI.run(["rules", id])
            #expect(shown.status == 0, "\(id): \(shown)")
            let text = shown.stdoutText
            #expect(text.hasPrefix("\(id) (\(rule["severity"] as? String ?? "?"), "), "\(id): \(text)")
            #expect(text.contains(rule["fullDescription"] as? String ?? "?"), "\(id): the full description")
            #expect(all.stdoutText.contains(text.trimmingCharacters(in: .newlines)), "\(id) in the page of all rules")
            #expect(!text.contains("Online:"), "\(id): no address without --rules-url")
            #expect(rulesPage.contains("`\(id)`") || rulesPage.contains("### \(id)"), "\(id) documented")
        }
        let linked = CLI.run(["rules", "invalid-json", "--rules-url", "https://docs.example.com/rules.md"])
        #expect(linked.stdoutText.hasSuffix("\nOnline: https://docs.example.com/rules.md#invalid-json\n"), "\(linked)")
        let json = try #require(try CLI.run(["rules", "invalid-json", "--format", "json"]).json() as? [[String: Any]])
        #expect(
            json.count == 1 && json.first?["id"] as? String == "invalid-json"
                && json.first?["documentationURL"] is NSNull)
        let unknown = CLI.run(["rules", "invalid-jsn"])
        #expect(unknown.status == 64 && unknown.stdout.isEmpty, "\(unknown)")
        #expect(unknown.stderr.contains("no such rule") && unknown.stderr.contains("invalid-json"), "\(unknown.stderr)")
        let hostile = CLI.run(["rules", "x\u{1B}[31m\u{202E}"])
        #expect(
            hostile.status == 64 && !hostile.stderr.contains("\u{1B}") && !hostile.stderr.contains("\u{202E}"),
            "\(hostile.stderr)")
    }

    @Test("the EXAMPLES of every subcommand's help run as printed, by a shell at the repository's root, and exit 0")
    func helpExamplesRun() throws {
        var ran = 0
        let commands = [
            "rules", "lint", "check", "verify", "extract", "sign", "detect", "inspect", "match", "convert", "migrate",
            "diff",
        ]
        try withTemporaryDirectory { bin in
            try FileManager.default.createSymbolicLink(at: bin.child("aasa"), withDestinationURL: CLI.executable)
            for command in commands {
                let help = CLI.run([command, "--help"]).stdoutText
                let start = try #require(help.range(of: "EXAMPLES"), "aasa \(command) --help has no EXAMPLES")
                let section = help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
                    .dropFirst().prefix { $0.hasPrefix("  ") }
                // A line ending in a backslash goes on, as in a shell.
                let examples = section.joined(separator: "\n").replacingOccurrences(of: "\\\n", with: " ")
                    .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                for example in examples {
                    try #require(example.hasPrefix("aasa "), "\(command): \(example)")
                    let result = ProcessRunner.run(
                        URL(fileURLWithPath: "/bin/bash"), ["-c", example],
                        environment: ["PATH": bin.path + ":/usr/bin:/bin"], in: Repository.root)
                    #expect(result.status == 0, "aasa \(command) --help: `\(example)`: \(result)")
                    ran += 1
                }
            }
        }
        #expect(ran >= commands.count, "\(ran) examples run")
    }

    @Test("audit's help has EXAMPLES too, which say that they contact the domains they name (not run here)")
    func auditHelpExamples() {
        let help = CLI.run(["audit", "--help"]).stdoutText
        #expect(help.contains("EXAMPLES (these contact the domains they name):"), "\(help)")
        #expect(help.contains("  aasa audit summarize results.jsonl"), "\(help)")
    }

    @Test("every rule marked fixable: its finding is there before the command and gone after it")
    func fixesWork() throws {
        let listed = CLI.run(["lint", "--list-rules", "--format", "json"])
        let rules = try #require(try listed.json() as? [[String: Any]], "\(listed)")
        let fixable = rules.compactMap { rule -> (id: String, command: String)? in
            guard let id = rule["id"] as? String, let fix = rule["fix"] as? [String: Any],
                let command = fix["command"] as? String
            else { return nil }
            return (id, command)
        }
        #expect(fixable.count == 9, "\(fixable)")
        let examples = try Self.documentedExamples()
        try withTemporaryDirectory { dir in
            for (id, command) in fixable {
                let input: String
                switch id {
                case RuleID.signedFile.rawValue:
                    input = LintFixture.exampleSigned
                case RuleID.byteOrderMark.rawValue:
                    input = dir.child("bom.json").path
                    try (Data([0xEF, 0xBB, 0xBF]) + LintFixture.modern).write(to: URL(fileURLWithPath: input))
                default:
                    let example = try #require(examples[id], "docs/rules.md has no example for \(id)")
                    input = dir.child("\(id).json").path
                    try Data(example.utf8).write(to: URL(fileURLWithPath: input))
                }
                #expect(try self.rules(in: input).contains(id), "the input of \(id) does not fire it")
                let output = dir.child("\(id).fixed.json").path
                let arguments =
                    command == "convert"
                    ? ["convert", input, "--no-verify", "-o", output] : [command, input, "-o", output]
                let run = CLI.run(arguments)
                #expect(run.status == 0, "\(id): aasa \(arguments.joined(separator: " ")): \(run)")
                guard run.status == 0 else { continue }
                let after = try self.rules(in: output)
                #expect(!after.contains(id), "\(id) still fires after aasa \(command): \(after.sorted())")
            }
        }
    }

    @Test("docs/rules.md's tables give every rule's severity, category, since and fix as --list-rules does")
    func documentedTables() throws {
        let text = try String(contentsOf: CLI.repoRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        let listed = CLI.run(["lint", "--list-rules", "--format", "json"])
        let rules = try #require(try listed.json() as? [[String: Any]], "\(listed)")
        #expect(rules.count >= 62)
        for rule in rules {
            let id = try #require(rule["id"] as? String)
            let fix = ((rule["fix"] as? [String: Any])?["command"] as? String).map { "`\($0)`" } ?? "–"
            let fields = [rule["severity"], rule["category"], rule["since"]].compactMap { $0 as? String } + [fix]
            let row = "| [`\(id)`](#\(id)) | " + fields.joined(separator: " | ") + " |"
            #expect(text.contains(row), "docs/rules.md has no row \(row)")
        }
    }

    @Test("aasa rules prints what lint --list-rules prints, in each format", arguments: ["text", "json", "jsonl"])
    func rulesSubcommand(format: String) {
        let rules = CLI.run(["rules", "--format", format])
        let listed = CLI.run(["lint", "--list-rules", "--format", format])
        #expect(rules.status == 0 && listed.status == 0, "\(rules)")
        #expect(rules.stdout.count > 1000 && rules.stdout == listed.stdout)
        #expect(rules.stderr.isEmpty, "\(rules)")
        #expect(CLI.run(["rules", "--format", "sarif"]).status == 64)
    }
}
