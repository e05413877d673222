import AASA
import AASATestSupport
import Foundation
import Testing

/// `--disable`, `--enable`, `--severity` on lint and check (docs/configuration.md#rule-selection).
@Suite("aasa lint and check: rule selection")
struct RuleSelectionCommandTests {
    /// `LintFixture.warnings`: `duplicate-appid` (warning) at 5:50 and `unknown-key` (info) at 7:9.
    func lint(_ args: [String], stdin: Data? = LintFixture.warnings) -> CLI.Result {
        CLI.run(["lint", "--no-config"] + args + ["-"], stdin: stdin)
    }

    @Test("--disable drops the rule's findings, counts them as suppressed, and they no longer fail")
    func disable() throws {
        let plain = lint(["--fail-on", "info"])
        #expect(plain.status == 1 && plain.stdoutText.contains("[unknown-key]"), "\(plain)")
        let result = lint(["--fail-on", "info", "--disable", "unknown-key", "--disable", "duplicate-appid"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("no finding in 1 file; 2 suppressed (rule selection)"), "\(result)")
        let json = lint(["--disable", "unknown-key", "--format", "json"])
        let file = try #require((try json.jsonObject()["files"] as? [[String: Any]])?.first)
        #expect(file["suppressed"] as? Int == 1)
        #expect((file["diagnostics"] as? [[String: Any]])?.map { $0["rule"] as? String } == ["duplicate-appid"])
    }

    @Test("--severity changes the text, the JSON, --min-severity, --fail-on and the exit status")
    func severity() throws {
        let raised = lint(["--severity", "unknown-key=error"])
        #expect(raised.status == 1, "an info raised to error fails by default: \(raised)")
        #expect(raised.stdoutText.contains("<stdin>:7:9: error: [unknown-key]"), "\(raised)")
        let json = lint(["--severity", "unknown-key=error", "--format", "json"])
        let file = try #require((try json.jsonObject()["files"] as? [[String: Any]])?.first)
        let severities = (file["diagnostics"] as? [[String: Any]])?.map { $0["severity"] as? String }
        #expect(severities == ["warning", "error"], "\(json)")

        // The boundary: a warning lowered to info no longer fails at --fail-on warning.
        #expect(lint(["--fail-on", "warning"]).status == 1)
        let lowered = lint(["--fail-on", "warning", "--severity", "duplicate-appid=info"])
        #expect(lowered.status == 0, "\(lowered)")
        let hidden = lint(["--min-severity", "warning", "--severity", "duplicate-appid=info"])
        #expect(hidden.stdout.isEmpty, "\(hidden)")
    }

    @Test(
        "an unknown rule or level is a usage error (64) with a suggestion",
        arguments: [
            (["--disable", "unknown-kye"], "--disable 'unknown-kye': no such rule (did you mean 'unknown-key'?)"),
            (["--enable", "legacy-path"], "--enable 'legacy-path': no such rule (did you mean 'legacy-paths'?)"),
            (
                ["--severity", "legacy-path=error"],
                "--severity 'legacy-path': no such rule (did you mean 'legacy-paths'?)"
            ),
            (["--severity", "legacy-paths=fatal"], "--severity legacy-paths=fatal: the level is one of"),
            (["--severity", "legacy-paths"], "expected RULE=LEVEL"),
            (["--disable", "zzzz"], "--disable 'zzzz': no such rule; aasa lint --list-rules lists them"),
            (
                ["--enable", "legacy-paths", "--disable", "legacy-paths"],
                "--enable and --disable both name legacy-paths"
            ),
            (["--config", "x.json", "--no-config"], "--config and --no-config"),
        ])
    func usageErrors(args: [String], message: String) {
        let result = CLI.run(["lint"] + args + ["-"], stdin: LintFixture.warnings)
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
    }

    @Test("a rule name from the command line reaches the terminal escaped")
    func hostileRuleName() {
        let result = lint(["--disable", "legacy-paths\u{1B}[2J"])
        #expect(result.status == 64, "\(result)")
        #expect(!result.stderr.contains("\u{1B}"), "\(result)")
        #expect(result.stderr.contains("\\u{1B}"), "\(result)")
    }

    @Test("hosting and check rules may be named too (one configuration serves every command)")
    func reportRules() {
        #expect(lint(["--disable", "no-effect", "--disable", "redirect"]).status == 0)
    }

    @Test("check: a disabled rule leaves the report, the verdict and the exit status; --severity raises one")
    func check() throws {
        let legacy = Data(
            #"{"applinks":{"apps":[],"details":[{"appID":"ABCDE12345.com.example.app","paths":["/a/*"]}]}}"#.utf8)
        let plain = CLI.run(["check", "--no-config", "-", "--format", "json"], stdin: legacy)
        #expect(plain.status == 0, "\(plain)")
        #expect((try plain.jsonObject()["report"] as? [String: Any])?["verdict"] as? String == "legacy")

        let raised = CLI.run(["check", "--no-config", "-", "--severity", "legacy-paths=error"], stdin: legacy)
        #expect(raised.status == 1, "\(raised)")
        #expect(raised.stdoutText.contains("<stdin>: broken:"), "\(raised)")

        let off = CLI.run(
            [
                "check", "--no-config", "-", "--format", "json", "--disable", "legacy-paths", "--disable",
                "legacy-appid", "--disable", "legacy-apps-key",
            ], stdin: legacy)
        #expect(off.status == 0, "\(off)")
        let document = try off.jsonObject()
        #expect(document["suppressed"] as? Int == 3)
        let report = try #require(document["report"] as? [String: Any])
        #expect(report["verdict"] as? String == "current", "\(off)")
        #expect((report["diagnostics"] as? [Any])?.isEmpty == true)
        let text = CLI.run(["check", "--no-config", "-", "--disable", "legacy-paths"], stdin: legacy)
        #expect(text.stdoutText.contains("; 1 suppressed (rule selection)"), "\(text)")
    }
}
