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
