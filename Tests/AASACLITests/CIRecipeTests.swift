import AASATestSupport
import Foundation
import Testing

/// docs/ci.md's recipes: every `aasa` command on the page is one of ``commands``, and each is
/// run in a repository laid out as the page says, through a shell as a CI job runs it, with its
/// report validated against its schema. A command edited on the page without this table fails
/// ``everyCommandOnThePageIsTested``.
@Suite("docs/ci.md recipes")
struct CIRecipeTests {
    /// What a recipe's command must give.
    enum Report {
        case sarif(String), junit(String), gitlab(String), markdown(String), baseline(String), none
    }

    struct Command: Sendable {
        /// The command as the page spells it, from `aasa` to the end of its line.
        let text: String
        /// The shell line run for it (the same, or with what pre-commit appends).
        let run: String
        let status: Int32
        let report: Report
        /// How many times the page gives it.
        let occurrences: Int
    }

    static let verifyJUnit =
        "aasa verify legacy/ --include '*.p7m' --ca-file ci/signing-root.pem --no-system-roots --format junit > aasa-verify.xml"

    /// In the page's order (the baseline is written before it is read).
    static let commands: [Command] = [
        Command(
            text: "aasa lint site/ --format sarif > aasa-lint.sarif",
            run: "aasa lint site/ --format sarif > aasa-lint.sarif",
            status: 0, report: .sarif("aasa-lint.sarif"), occurrences: 1),
        Command(text: verifyJUnit, run: verifyJUnit, status: 0, report: .junit("aasa-verify.xml"), occurrences: 2),
        Command(
            text: #"aasa lint site/ --format markdown >> "$GITHUB_STEP_SUMMARY""#,
            run: #"aasa lint site/ --format markdown >> "$GITHUB_STEP_SUMMARY""#, status: 0,
            report: .markdown("summary.md"), occurrences: 1),
        Command(
            text:
                "aasa check legacy/apple-app-site-association.p7m --ca-file ci/signing-root.pem --no-system-roots --format sarif > aasa-check.sarif",
            run:
                "aasa check legacy/apple-app-site-association.p7m --ca-file ci/signing-root.pem --no-system-roots --format sarif > aasa-check.sarif",
            status: 0, report: .sarif("aasa-check.sarif"), occurrences: 1),
        Command(
            text: "aasa lint site/ --format gitlab > gl-code-quality-report.json",
            run: "aasa lint site/ --format gitlab > gl-code-quality-report.json", status: 0,
            report: .gitlab("gl-code-quality-report.json"), occurrences: 1),
        // pre-commit appends the staged files that match `files:`.
        Command(
            text: "aasa lint --fail-on warning",
            run: "aasa lint --fail-on warning site/.well-known/apple-app-site-association",
            status: 0, report: .none, occurrences: 1),
        Command(
            text: "aasa lint site/ --write-baseline .aasa-baseline.json",
            run: "aasa lint site/ --write-baseline .aasa-baseline.json", status: 0,
            report: .baseline(".aasa-baseline.json"), occurrences: 1),
        Command(
            text: "aasa lint site/ --baseline .aasa-baseline.json --format sarif > aasa-lint.sarif",
            run: "aasa lint site/ --baseline .aasa-baseline.json --format sarif > aasa-lint.sarif", status: 0,
            report: .sarif("aasa-lint.sarif"), occurrences: 1),
    ]

    static let page = CIRecipeRepository.page

    /// The lines of the page's code blocks that run `aasa SUBCOMMAND` (not YAML `name:` fields).
    static func commandLines() throws -> [String] {
        let text = try String(contentsOf: page, encoding: .utf8)
        var inBlock = false
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard inBlock, !trimmed.hasPrefix("name:"), !trimmed.hasPrefix("- name:") else { continue }
            if line.contains(
                /\baasa (lint|check|verify|extract|detect|inspect|sign|audit|convert|migrate|diff|match|rules)\b/)
            {
                lines.append(String(line))
            }
        }
        return lines
    }

    @Test("every aasa command on the page is one this suite runs, as often as the page gives it")
    func everyCommandOnThePageIsTested() throws {
        let lines = try Self.commandLines()
        try #require(lines.count == Self.commands.reduce(0) { $0 + $1.occurrences } + 1, "\(lines)")
        var unmatched: [String] = []
        var seen: [String: Int] = [:]
        for line in lines {
            // The hook's pipeline (``gitHook()`` runs it) ends as the pre-commit entry does.
            if line.hasSuffix("xargs -0 -r aasa lint --fail-on warning") {
                seen["hook", default: 0] += 1
            } else if let command = Self.commands.first(where: { line.hasSuffix($0.text) }) {
                seen[command.text, default: 0] += 1
            } else {
                unmatched.append(line)
            }
        }
        #expect(unmatched.isEmpty, "commands on the page that no test runs: \(unmatched)")
        for command in Self.commands {
            #expect(
                seen[command.text] == command.occurrences, "\(command.text): \(seen[command.text] ?? 0) on the page")
        }
        #expect(seen["hook"] == 1)
    }

    @Test("each recipe's command succeeds in the repository the page describes, and writes a valid report")
    func commandsRunAndReportsValidate() throws {
        try withTemporaryDirectory { repository in
            try CIRecipeRepository.layOut(repository)
            let summary = repository.child("summary.md")
            var ran = 0
            for command in Self.commands {
                let result = Self.shell(command.run, in: repository, environment: ["GITHUB_STEP_SUMMARY": summary.path])
                #expect(result.status == command.status, "\(command.run): \(result)")
                try Self.check(command.report, in: repository)
                ran += 1
            }
            #expect(ran == 8)
            // After the baseline, the SARIF log has no result: every finding is accepted.
            let log = try JSONSerialization.jsonObject(with: Data(contentsOf: repository.child("aasa-lint.sarif")))
            let results = ((log as? [String: Any])?["runs"] as? [[String: Any]])?.first?["results"] as? [Any]
            #expect(results?.isEmpty == true, "results after the baseline: \(results ?? [])")
        }
    }

    @Test("the plain git hook: nothing staged passes, a staged file with a warning stops the commit")
    func gitHook() throws {
        let hook = try String(contentsOf: Self.page, encoding: .utf8).components(separatedBy: "```sh\n#!/bin/sh\n")
        try #require(hook.count == 2, "the page has one hook script")
        let script = "#!/bin/sh\n" + (hook[1].components(separatedBy: "```").first ?? "")
        try withTemporaryDirectory { repository in
            try CIRecipeRepository.layOut(repository)
            let git = ["git init -q .", "git config user.email ci@example.com", "git config user.name ci"]
            for line in git { #expect(Self.shell(line, in: repository).status == 0, "\(line)") }
            try script.write(to: repository.child("hook.sh"), atomically: true, encoding: .utf8)
            let nothing = Self.shell("sh hook.sh", in: repository)
            #expect(nothing.status == 0, "nothing staged: \(nothing)")
            #expect(Self.shell("git add site", in: repository).status == 0)
            let deprecations = Self.shell("sh hook.sh", in: repository)
            #expect(deprecations.status == 0, "deprecations only: \(deprecations)")
            // An empty details array is a warning (docs/rules.md#empty-details).
            let warned = #"{"applinks":{"details":[]}}"#
            try Data(warned.utf8).write(to: repository.child("site/.well-known/apple-app-site-association"))
            #expect(Self.shell("git add site", in: repository).status == 0)
            let stopped = Self.shell("sh hook.sh", in: repository)
            #expect(stopped.status != 0, "a warning must stop the commit: \(stopped)")
            #expect(stopped.stdoutText.contains("[empty-details]"), "\(stopped)")
        }
    }

    /// Runs `line` with bash in `directory`, the `aasa` under test first on PATH.
    static func shell(_ line: String, in directory: URL, environment: [String: String] = [:]) -> ProcessResult {
        let bin = Executables.aasa.deletingLastPathComponent().path
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return ProcessRunner.run(
            Executables.onPath("bash", otherwise: "/bin/bash"), ["-c", "set -o pipefail; " + line],
            environment: environment.merging(["PATH": path]) { $1 }, in: directory)
    }

    static func check(_ report: Report, in repository: URL) throws {
        let schemas = Repository.fixtures.appendingPathComponent("schemas")
        switch report {
        case .sarif(let name):
            let outcome = SchemaValidation.json(
                try Data(contentsOf: repository.child(name)),
                schema: schemas.appendingPathComponent("sarif-schema-2.1.0.json"))
            #expect(outcome.valid, "\(name): \(outcome)")
        case .junit(let name):
            let outcome = SchemaValidation.xml(
                try Data(contentsOf: repository.child(name)), schema: schemas.appendingPathComponent("JUnit.xsd"))
            #expect(outcome.valid, "\(name): \(outcome)")
        case .gitlab(let name):
            let issues =
                try JSONSerialization.jsonObject(with: Data(contentsOf: repository.child(name))) as? [[String: Any]]
            let list = try #require(issues, "\(name) is a JSON array")
            #expect(!list.isEmpty && list.allSatisfy { $0["fingerprint"] is String && $0["check_name"] is String })
        case .markdown(let name):
            let text = try String(contentsOf: repository.child(name), encoding: .utf8)
            #expect(text.hasPrefix("## aasa lint"), "\(text)")
        case .baseline(let name):
            let outcome = SchemaValidation.json(
                try Data(contentsOf: repository.child(name)),
                schema: Repository.root.appendingPathComponent("docs/schemas/baseline.schema.json"))
            #expect(outcome.valid, "\(name): \(outcome)")
        case .none: break
        }
    }
}
