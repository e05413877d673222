import AASATestSupport
import Foundation
import Testing

/// The GitHub Action (action.yml at the repository's root, entry point scripts/action.sh): its
/// metadata has what GitHub's metadata syntax requires of a composite action, and its step runs
/// as the runner runs it: the step's `run` line in bash, the inputs as `INPUT_*` variables,
/// `GITHUB_ACTION_PATH` and `GITHUB_OUTPUT` set.
@Suite("GitHub Action: metadata and entry point")
struct GitHubActionTests {
    /// action.yml as JSON.
    static func metadata() throws -> [String: Any] {
        try #require(try YAMLDocument.parse(contentsOf: CLI.repoRoot.child("action.yml")) as? [String: Any])
    }

    static let schema = Repository.fixtures.appendingPathComponent("action-metadata/action-metadata.schema.json")

    /// `document` as JSON, against the metadata schema written from GitHub's docs.
    static func validate(_ document: Any) throws -> SchemaValidation.Outcome {
        SchemaValidation.json(try JSONSerialization.data(withJSONObject: document), schema: schema)
    }

    @Test(
        "action.yml is valid against GitHub's metadata syntax (Tests/Fixtures/action-metadata), which refuses broken copies"
    )
    func metadataMatchesTheSchema() throws {
        #expect(SchemaValidation.schemas([Self.schema]).valid)
        let action = try Self.metadata()
        let outcome = try Self.validate(action)
        #expect(outcome.valid, "\(outcome)")
        // Each break of a rule the schema states is refused.
        var broken: [String: [String: Any]] = [:]
        var noRuns = action
        noRuns["runs"] = nil
        broken["no runs"] = noRuns
        var noShell = action
        var runs = try #require(action["runs"] as? [String: Any])
        var steps = try #require(runs["steps"] as? [[String: Any]])
        steps[0]["shell"] = nil
        runs["steps"] = steps
        noShell["runs"] = runs
        broken["a run step without shell"] = noShell
        var undescribed = action
        var inputs = try #require(action["inputs"] as? [String: [String: Any]])
        inputs["args"]?["description"] = nil
        undescribed["inputs"] = inputs
        broken["an input without a description"] = undescribed
        var valueless = action
        var outputs = try #require(action["outputs"] as? [String: [String: Any]])
        outputs["exit-code"]?["value"] = nil
        valueless["outputs"] = outputs
        broken["a composite output without value"] = valueless
        var misspelt = action
        misspelt["input"] = action["inputs"]
        broken["a misspelt key"] = misspelt
        #expect(broken.count == 5)
        for (what, document) in broken {
            #expect(try !Self.validate(document).valid, "\(what) passed the schema")
        }
    }

    @Test("action.yml: name, description, every input and output described, one composite step that passes each input")
    func metadataIsComplete() throws {
        let action = try Self.metadata()
        #expect((action["name"] as? String)?.isEmpty == false)
        #expect((action["description"] as? String)?.isEmpty == false)
        let inputs = try #require(action["inputs"] as? [String: [String: Any]], "\(action)")
        #expect(Set(inputs.keys) == ["args", "sarif", "deb", "fail-on-findings"], "\(inputs.keys)")
        for (name, input) in inputs {
            #expect((input["description"] as? String)?.isEmpty == false, "input \(name) has no description")
            #expect(input["required"] as? Bool != nil, "input \(name): required is not a boolean")
        }
        let outputs = try #require(action["outputs"] as? [String: [String: Any]], "\(action)")
        #expect(outputs["exit-code"]?["value"] as? String == "${{ steps.aasa.outputs.exit-code }}", "\(outputs)")
        #expect((outputs["exit-code"]?["description"] as? String)?.isEmpty == false)
        let runs = try #require(action["runs"] as? [String: Any], "\(action)")
        #expect(runs["using"] as? String == "composite")
        let steps = try #require(runs["steps"] as? [[String: Any]], "\(runs)")
        #expect(steps.count == 1)
        let step = try #require(steps.first)
        #expect(step["id"] as? String == "aasa")
        #expect(step["shell"] as? String == "bash", "a composite run step needs its shell")
        #expect(step["run"] as? String == "\"$GITHUB_ACTION_PATH/scripts/action.sh\"", "\(step)")
        #expect(FileManager.default.isExecutableFile(atPath: CLI.repoRoot.child("scripts/action.sh").path))
        // Each input reaches the entry point as INPUT_NAME (uppercase, '-' as '_').
        let environment = try #require(step["env"] as? [String: String], "\(step)")
        for name in inputs.keys {
            let variable = "INPUT_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
            #expect(environment[variable] == "${{ inputs.\(name) }}", "\(variable): \(environment)")
        }
    }

    /// The step's `run` line in bash, as the runner runs it, with `inputs` as INPUT_* variables.
    static func runStep(_ inputs: [String: String], in directory: URL, bin: URL) throws -> (ProcessResult, String) {
        let run = try #require((try metadata()["runs"] as? [String: Any])?["steps"] as? [[String: Any]])[0]["run"]
        let output = directory.child("github-output-\(UUID().uuidString)")
        try Data().write(to: output)
        var environment = [
            "PATH": bin.path + ":/usr/bin:/bin", "GITHUB_ACTION_PATH": CLI.repoRoot.path,
            "GITHUB_OUTPUT": output.path, "INPUT_SARIF": "", "INPUT_DEB": "", "INPUT_FAIL_ON_FINDINGS": "true",
        ]
        for (name, value) in inputs { environment["INPUT_" + name] = value }
        let result = ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"), ["-e", "-c", try #require(run as? String)], environment: environment,
            in: directory)
        return (result, try String(contentsOf: output, encoding: .utf8))
    }

    @Test("the entry point runs aasa as the inputs say: SARIF to a file, exit-code out, findings fail the step or not")
    func entryPointRuns() throws {
        try withTemporaryDirectory { directory in
            let bin = try CLI.binDirectory(in: directory)
            let site = directory.child("site")
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: CLI.repoRoot.child("examples/apple-app-site-association.json"),
                to: site.child("apple-app-site-association"))
            try FileManager.default.copyItem(
                at: CLI.repoRoot.child("examples/apple-app-site-association.p7m"), to: site.child("legacy one.p7m"))

            // A clean lint with its SARIF log written where asked.
            let (lint, lintOutput) = try Self.runStep(
                ["ARGS": "lint site/", "SARIF": "aasa.sarif"], in: directory, bin: bin)
            #expect(lint.status == 0, "\(lint)")
            #expect(lintOutput == "exit-code=0\n")
            let sarif = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.child("aasa.sarif")))
            #expect((sarif as? [String: Any])?["version"] as? String == "2.1.0", "\(sarif)")

            // Quotes as in a shell, nothing expanded: the glob reaches aasa as written.
            let verifyArgs =
                "verify 'site/legacy one.p7m' site --include '*.p7m' --ca-file '\(CLI.cert("ca-bundle.pem"))' --no-system-roots"
            let (verify, verifyOutput) = try Self.runStep(["ARGS": verifyArgs], in: directory, bin: bin)
            #expect(verify.status == 0, "\(verify)")
            #expect(verify.stdoutText.contains("site/legacy one.p7m: valid"), "\(verify)")
            #expect(verifyOutput == "exit-code=0\n")

            // Findings: the step fails, unless fail-on-findings is false; exit-code says 1 both times.
            try Data(#"{"applinks": {"details": "not an array"}}"#.utf8).write(
                to: site.child("apple-app-site-association"))
            let (failing, failingOutput) = try Self.runStep(["ARGS": "lint site/"], in: directory, bin: bin)
            #expect(failing.status == 1, "\(failing)")
            #expect(failingOutput == "exit-code=1\n")
            let (tolerated, toleratedOutput) = try Self.runStep(
                ["ARGS": "lint site/", "FAIL_ON_FINDINGS": "false"], in: directory, bin: bin)
            #expect(tolerated.status == 0, "\(tolerated)")
            #expect(toleratedOutput == "exit-code=1\n")

            // Inputs it cannot use: one line, exit 2.
            for (inputs, message) in [
                (["ARGS": ""], "args is empty"), (["ARGS": "lint 'unclosed"], "cannot split"),
                (["ARGS": "lint site/", "DEB": "no-such.deb"], "deb: no such file: no-such.deb"),
            ] {
                let (refused, _) = try Self.runStep(inputs, in: directory, bin: bin)
                #expect(refused.status == 2, "\(inputs): \(refused)")
                #expect(
                    refused.stderrLines.count == 1 && refused.stderr.hasPrefix("aasa action: error: "), "\(refused)")
                #expect(refused.stderr.contains(message), "\(inputs): \(refused)")
            }
        }
    }

    @Test("docs/ci.md's action step runs with its inputs: SARIF written, exit-code out")
    func documentedStepRuns() throws {
        let page = try String(contentsOf: CLI.repoRoot.child("docs/ci.md"), encoding: .utf8)
        let block = try #require(
            page.components(separatedBy: "```yaml\n").first { $0.contains("uses: ./.github/actions/aasa") }?
                .components(separatedBy: "```").first, "docs/ci.md has no step that uses the action")
        // The `with:` of the step that uses the action: the lines after it, up to the next step.
        let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let uses = try #require(lines.firstIndex { $0.hasPrefix("uses: ./.github/actions/aasa") })
        let step = lines[(uses + 1)...].prefix { !$0.hasPrefix("- ") }
        var inputs: [String: String] = [:]
        for line in step.drop(while: { $0 != "with:" }).dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].uppercased().replacingOccurrences(of: "-", with: "_")
            inputs[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        #expect(inputs["ARGS"] == "lint site/" && inputs["SARIF"] == "aasa-lint.sarif", "\(inputs)")
        #expect(inputs["DEB"] == "tools/aasa_0.2.0_amd64.deb", "\(inputs)")
        // The .deb is the release's (scripts/test-release.sh installs it); here aasa is on PATH.
        inputs["DEB"] = ""
        try withTemporaryDirectory { directory in
            let bin = try CLI.binDirectory(in: directory)
            let wellKnown = directory.child("site/.well-known")
            try FileManager.default.createDirectory(at: wellKnown, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: CLI.repoRoot.child("examples/apple-app-site-association.json"),
                to: wellKnown.child("apple-app-site-association"))
            let (result, output) = try Self.runStep(inputs, in: directory, bin: bin)
            #expect(result.status == 0, "\(result)")
            #expect(output == "exit-code=0\n")
            let sarif = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.child("aasa-lint.sarif")))
            #expect((sarif as? [String: Any])?["version"] as? String == "2.1.0")
        }
    }
}
