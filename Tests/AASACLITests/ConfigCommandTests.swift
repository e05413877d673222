import AASA
import AASATestSupport
import Foundation
import Testing

/// `.aasa.json` and `--config` (docs/configuration.md#configuration).
@Suite("aasa lint and check: configuration file")
struct ConfigCommandTests {
    static let schema = CLI.repoRoot.appendingPathComponent("docs/schemas/config.schema.json")

    /// `LintFixture.warnings` as a.json in `directory`: `duplicate-appid` (warning) and `unknown-key` (info).
    func setUp(_ directory: URL, config: String?) throws {
        try LintFixture.warnings.write(to: directory.child("a.json"))
        if let config { try Data(config.utf8).write(to: directory.child(".aasa.json")) }
    }

    func lint(_ args: [String], in directory: URL) -> CLI.Result {
        CLI.run(["lint", "a.json"] + args, in: directory)
    }

    @Test("./.aasa.json is read: rules off and failOn; --no-config ignores it; the command line overrides it")
    func workingDirectory() throws {
        try withTemporaryDirectory { dir in
            try setUp(dir, config: #"{"rules": {"unknown-key": "off"}, "failOn": "warning"}"#)
            let configured = lint([], in: dir)
            #expect(configured.status == 1, "failOn warning: \(configured)")
            #expect(!configured.stdoutText.contains("[unknown-key]"), "\(configured)")
            #expect(configured.stderr.contains("1 suppressed (rule selection)"), "\(configured)")

            let ignored = lint(["--no-config"], in: dir)
            #expect(ignored.status == 0 && ignored.stdoutText.contains("[unknown-key]"), "\(ignored)")

            let failOn = lint(["--fail-on", "error"], in: dir)
            #expect(failOn.status == 0, "--fail-on over failOn: \(failOn)")
            let enabled = lint(["--enable", "unknown-key"], in: dir)
            #expect(enabled.stdoutText.contains("[unknown-key]"), "--enable over off: \(enabled)")
            let severity = lint(["--severity", "duplicate-appid=info"], in: dir)
            #expect(severity.status == 0, "--severity over the rule's own: \(severity)")

            let check = CLI.run(["check", "a.json"], in: dir)
            #expect(check.status == 1, "check reads it too (failOn warning): \(check)")
        }
    }

    @Test("--config FILE: its baseline is relative to its directory; a missing --config is an error")
    func explicitFile() throws {
        try withTemporaryDirectory { dir in
            try setUp(dir, config: nil)
            let settings = dir.child("settings")
            try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
            let write = CLI.run(["lint", "a.json", "--no-config", "--write-baseline", "settings/base.json"], in: dir)
            #expect(write.status == 0, "\(write)")
            try Data(#"{"baseline": "base.json", "failOn": "info"}"#.utf8).write(to: settings.child("aasa.json"))
            let result = lint(["--config", "settings/aasa.json"], in: dir)
            #expect(result.status == 0, "every finding is baselined: \(result)")
            #expect(result.stdout.isEmpty && result.stderr.contains("2 baselined"), "\(result)")

            let missing = lint(["--config", "nope.json"], in: dir)
            #expect(missing.status == 2 && missing.stdout.isEmpty, "\(missing)")
            #expect(missing.stderr.hasPrefix("nope.json: error: cannot read configuration"), "\(missing)")
        }
    }

    @Test(
        "a bad configuration: one line naming the file and the key, exit 2, nothing on stdout",
        arguments: [
            (#"{"rules": {"unknown-kye": "off"}}"#, "rules.unknown-kye: no such rule (did you mean 'unknown-key'?)"),
            (
                #"{"rules": {"legacy-paths": "of"}}"#,
                "rules.legacy-paths: expected one of off, on, info, deprecation, warning, error"
            ),
            (#"{"rules": {"legacy-paths": "off", "legacy-paths": "on"}}"#, "rules.legacy-paths: given twice"),
            (#"{"failOn": "never"}"#, "failOn: expected one of info, deprecation, warning, error"),
            (#"{"failon": "error"}"#, "failon: unknown key (did you mean 'failOn'?)"),
            (#"{"rules": []}"#, "rules: expected an object of rule IDs, found array"),
            (#"{"baseline": ""}"#, "baseline: expected the baseline file's name"),
            (#"{"rules": {},}"#, "$: not JSON: 1:"),
            ("[]", "$: expected an object, found array"),
        ])
    func badConfig(config: String, message: String) throws {
        try withTemporaryDirectory { dir in
            try setUp(dir, config: config)
            for command in ["lint", "check"] {
                let result = CLI.run([command, "a.json"], in: dir)
                #expect(result.status == 2, "\(command): \(result)")
                #expect(result.stdout.isEmpty, "\(command): \(result)")
                #expect(result.stderrLines.count == 1, "\(command): \(result)")
                #expect(result.stderr.hasPrefix(".aasa.json: error: " + message), "\(command): \(result)")
                if !message.hasPrefix("$: not JSON") {
                    #expect(result.stderrLines == [".aasa.json: error: " + message], "\(command): \(result)")
                }
            }
        }
    }

    @Test("keys and values of a configuration reach the terminal escaped")
    func hostileConfig() throws {
        try withTemporaryDirectory { dir in
            try setUp(dir, config: "{\"rules\": {\"x\\u001b[2J\\u202e\": \"off\"}}")
            let result = lint([], in: dir)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{202E}"), "\(result)")
            #expect(result.stderr.contains("no such rule"), "\(result)")
        }
    }

    /// The example of docs/configuration.md: its first ```json block.
    static func documentedExample() throws -> String {
        let text = try String(
            contentsOf: CLI.repoRoot.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let start = try #require(text.range(of: "```json\n"))
        let end = try #require(text[start.upperBound...].range(of: "```"))
        return String(text[start.upperBound..<end.lowerBound])
    }

    @Test("docs/schemas/config.schema.json accepts the documented example and refuses bad ones; aasa agrees")
    func schema() throws {
        let example = try Self.documentedExample()
        #expect(example.contains("\"rules\""))
        let outcome = SchemaValidation.json(Data(example.utf8), schema: Self.schema)
        #expect(outcome.valid, "\(outcome)")
        try withTemporaryDirectory { dir in
            try setUp(dir, config: example)
            try Data(#"{"schemaVersion": 1, "findings": []}"#.utf8).write(to: dir.child("aasa-baseline.json"))
            let result = lint([], in: dir)
            #expect(result.status == 1, "the example is accepted (failOn warning): \(result)")
        }
        for bad in [
            #"{"rules": {"unknown-kye": "off"}}"#, #"{"rules": {"legacy-paths": "of"}}"#, #"{"failOn": "never"}"#,
            #"{"failon": "error"}"#, #"{"baseline": ""}"#,
        ] {
            let refused = SchemaValidation.json(Data(bad.utf8), schema: Self.schema)
            #expect(!refused.valid, "the schema accepts \(bad)")
        }
    }

    @Test("the schema's rule IDs are exactly the rules of --list-rules")
    func schemaRules() throws {
        let schema = try #require(
            try JSONSerialization.jsonObject(with: try Data(contentsOf: Self.schema)) as? [String: Any])
        let rules = try #require((schema["properties"] as? [String: Any])?["rules"] as? [String: Any])
        let names = try #require((rules["propertyNames"] as? [String: Any])?["enum"] as? [String])
        let listed = CLI.run(["lint", "--list-rules", "--format", "json"])
        let ids = try #require(try listed.json() as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(ids.count >= 60)
        #expect(names == ids)
    }
}
