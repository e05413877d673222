import Foundation
import Testing

/// `aasa check`: the verdict (current, legacy, broken), the signature, the guidance list,
/// `--fail-on`, `--format json` and the exit statuses.
@Suite("aasa check")
struct CheckCommandTests {
    private func check(_ args: [String], stdin: Data? = nil) -> CLI.Result {
        CLI.run(["check"] + args, stdin: stdin)
    }

    private var stdoutLines: (CLI.Result) -> [String] {
        { $0.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }

    // MARK: - Verdicts

    @Test("the example signed file with the test trust: legacy, valid signature, exit 0")
    func legacySignedTrusted() {
        let file = LintFixture.exampleSigned
        let result = check([file] + Fixture.testTrust)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let lines = stdoutLines(result)
        #expect(
            lines.first
                == "\(file): legacy: universal links for 2 apps; shared web credentials for 1 app; Handoff for 1 app; legacy parts to retire",
            "\(result)")
        #expect(lines.contains("  universal links: ABCDE12345.com.example.app: opens URLs such as /help/"), "\(result)")
        #expect(lines.contains("  universal links: ABCDE12345.com.example.legacy: opens URLs such as /legacy/"))
        #expect(lines.contains("  shared web credentials: ABCDE12345.com.example.app"), "\(result)")
        #expect(lines.contains("  kind: pkcs7-der"))
        #expect(lines.contains("  signature: valid"))
        #expect(lines.contains("  signer: CN=example.com"))
        #expect(lines.contains("Legacy parts:"))
        #expect(!lines.contains("Problems:"), "\(result)")
        for rule in ["signed-file", "legacy-apps-key", "legacy-appid", "legacy-paths"] {
            #expect(lines.contains { $0.hasPrefix("  - [\(rule)] ") }, "no item for \(rule): \(result)")
        }
        #expect(lines.contains("Apple's current guidance:"))
        #expect(lines.contains("  [no]  Unsigned JSON: the file is PKCS#7 (pkcs7-der)"), "\(result)")
        #expect(lines.contains("  [ok]  At most 128 KB"))
        #expect(lines.contains("  [no]  appIDs and components (iOS 13+)"))
        #expect(
            lines.contains { $0.hasPrefix("  [n/a] Served at https://DOMAIN/.well-known/apple-app-site-association") })
        #expect(result.stdoutText.contains("Findings: 0 errors, 0 warnings, 4 deprecations, 0 info"), "\(result)")
    }

    @Test(
        "the example signed file with the system roots only: certificate-untrusted (not signature-not-valid), broken, exit 1"
    )
    func legacySignedUntrusted() {
        let file = LintFixture.exampleSigned
        let result = check([file])
        #expect(result.status == 1, "\(result)")
        let lines = stdoutLines(result)
        #expect(
            lines.first
                == "\(file): broken: universal links for 2 apps; shared web credentials for 1 app; Handoff for 1 app; errors: iOS rejects or ignores all or part of it",
            "\(result)")
        #expect(lines.contains { $0.hasPrefix("  signature: untrusted (") }, "\(result)")
        #expect(lines.contains("Problems:"))
        // The signature is intact: an untrusted chain must not read as tampering (issue #13).
        #expect(
            lines.contains(
                "  - [certificate-untrusted] The signature is intact, but its certificate chain does not reach a trusted root."
            ), "\(result)")
        #expect(!result.stdoutText.contains("signature-not-valid"), "\(result)")
        #expect(
            lines.contains(
                "      effect:       A device that checks the signature rejects the file; the content was not altered."),
            "\(result)")
        #expect(
            lines.contains { $0.contains("`aasa verify \(file) --historical`") },
            "the next step names the file and the historical mode: \(result)")
        #expect(lines.contains { $0.hasPrefix("  - [signed-file] ") })
        #expect(result.stdoutText.contains("Findings: 1 error, 0 warnings, 4 deprecations, 0 info"), "\(result)")
        // The report is the only output: no diagnostic line on stderr (unlike verify).
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("a modern clean file: current, every checkable guidance point [ok], exit 0")
    func modernCurrent() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(LintFixture.modern, to: dir, as: "modern.json")
            let result = check([file.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            let lines = stdoutLines(result)
            #expect(
                lines.first == "\(file.path): current: universal links for 1 app; follows Apple's current guidance",
                "\(result)")
            #expect(lines.contains("  kind: json"))
            #expect(!lines.contains { $0.hasPrefix("  signature:") }, "no signature for plain JSON")
            #expect(!lines.contains("Problems:") && !lines.contains("Legacy parts:"), "\(result)")
            #expect(lines.contains("  [ok]  Unsigned JSON"))
            #expect(lines.contains("  [ok]  At most 128 KB"))
            #expect(lines.contains("  [ok]  appIDs and components (iOS 13+)"))
            #expect(!lines.contains { $0.hasPrefix("  [no]") }, "\(result)")
            #expect(result.stdoutText.contains("Findings: 0 errors, 0 warnings, 0 deprecations, 0 info"))
        }
    }

    @Test("the example plain file: legacy, exit 0; standard input is <stdin>")
    func legacyPlain() throws {
        let result = check([LintFixture.examplePlain])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.hasPrefix("\(LintFixture.examplePlain): legacy: "), "\(result)")
        #expect(result.stdoutText.contains("  [ok]  Unsigned JSON\n"))

        let stdin = check(["-"], stdin: try contents(URL(fileURLWithPath: LintFixture.examplePlain)))
        #expect(stdin.status == 0, "\(stdin)")
        #expect(stdin.stdoutText.hasPrefix("<stdin>: legacy: "), "\(stdin)")
    }

    @Test("invalid JSON: broken, [invalid-json] among the problems, exit 1")
    func invalidJSON() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(LintFixture.invalidJSON, to: dir, as: "bad.json")
            let result = check([file.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdoutText.hasPrefix("\(file.path): broken: "), "\(result)")
            #expect(result.stdoutText.contains("  - [invalid-json] "), "\(result)")
            #expect(result.stdoutText.contains("  [no]  appIDs and components (iOS 13+): the JSON does not parse"))
        }
    }

    // MARK: - --fail-on

    @Test("--fail-on deprecation: a legacy file exits 1 (the report is the same)")
    func failOnDeprecation() {
        let file = LintFixture.exampleSigned
        let base = check([file] + Fixture.testTrust)
        let result = check([file, "--fail-on", "deprecation"] + Fixture.testTrust)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == base.stdout)
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(check([file, "--fail-on", "warning"] + Fixture.testTrust).status == 0, "no warning in the example")
        #expect(check([LintFixture.examplePlain, "--fail-on", "deprecation"]).status == 1)
    }

    @Test("--fail-on warning: a file with a warning (and no deprecation) exits 1; by default 0")
    func failOnWarning() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(LintFixture.warnings, to: dir, as: "warn.json")
            let result = check([file.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutText.contains("Problems:\n  - [duplicate-appid] "), "\(result)")
            // A warning does not make the verdict legacy or broken, nor current.
            #expect(result.stdoutText.hasPrefix("\(file.path): needs attention: "), "\(result)")
            #expect(check([file.path, "--fail-on", "warning"]).status == 1)
            #expect(check([file.path, "--fail-on", "deprecation"]).status == 1)
            #expect(check([file.path, "--fail-on", "error"]).status == 0)
        }
    }

    // MARK: - JSON

    @Test("--format json: {path, suppressed, report: {kind, verdict, signature, items, guidance, diagnostics}}")
    func jsonSigned() throws {
        let file = LintFixture.exampleSigned
        let result = check([file, "--format", "json"] + Fixture.testTrust)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let root = try result.jsonObject()
        #expect(Set(root.keys) == ["schemaVersion", "aasaVersion", "path", "report", "suppressed"])
        #expect(root["path"] as? String == file)
        #expect(root["suppressed"] as? Int == 0)
        let report = try #require(root["report"] as? [String: Any])
        #expect(
            Set(report.keys) == ["kind", "verdict", "effect", "signature", "items", "guidance", "diagnostics"],
            "\(report.keys)")
        let effect = try #require(report["effect"] as? [String: Any])
        #expect(
            (effect["universalLinks"] as? [[String: Any]])?.first?["appID"] as? String == "ABCDE12345.com.example.app")
        #expect(report["kind"] as? String == "pkcs7-der")
        #expect(report["verdict"] as? String == "legacy")

        let signature = try #require(report["signature"] as? [String: Any])
        #expect(signature["valid"] as? Bool == true)
        #expect(signature["verdict"] as? String == "valid")
        #expect(signature["signer"] as? String == "CN=example.com")
        #expect(signature["signerNotAfter"] as? String == "2099-12-31T23:59:59Z")

        let items = try #require(report["items"] as? [[String: Any]])
        #expect(
            items.map { $0["rule"] as? String } == ["signed-file", "legacy-apps-key", "legacy-appid", "legacy-paths"])
        for item in items {
            #expect(
                Set(item.keys) == ["rule", "severity", "location", "title", "message", "neededBy", "nextStep"],
                "\(item)")
            #expect(item["severity"] as? String == "deprecation")
        }
        #expect(items.first?["location"] as? String == "$")
        #expect(items.last?["location"] as? String == "applinks.details[1].paths")

        let guidance = try #require(report["guidance"] as? [[String: Any]])
        #expect(guidance.map { $0["status"] as? String } == ["not-met", "met", "not-met", "not-checkable"])
        #expect(guidance.first?["guidance"] as? String == "Unsigned JSON")
        #expect(guidance.first?["detail"] as? String == "the file is PKCS#7 (pkcs7-der)")

        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        #expect(
            diagnostics.map { $0["rule"] as? String } == [
                "signed-file", "legacy-apps-key", "legacy-appid", "legacy-paths",
            ])
        let location = try #require(diagnostics[1]["location"] as? [String: Any])
        #expect(location["path"] as? String == "applinks.apps")
        #expect(location["line"] as? Int == 3 && location["column"] as? Int == 5)
    }

    @Test("--format json: plain JSON has no signature key; an untrusted chain adds certificate-untrusted")
    func jsonPlainAndUntrusted() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(LintFixture.modern, to: dir, as: "modern.json")
            let plain = check([file.path, "--format", "json"])
            #expect(plain.status == 0, "\(plain)")
            let report = try #require(try plain.jsonObject()["report"] as? [String: Any])
            #expect(report["verdict"] as? String == "current")
            #expect(report["signature"] == nil, "omitted for plain JSON: \(report)")
            #expect((report["items"] as? [Any])?.isEmpty == true)
            #expect((report["diagnostics"] as? [Any])?.isEmpty == true)
            #expect(
                (report["guidance"] as? [[String: Any]])?.map { $0["status"] as? String } == [
                    "met", "met", "met", "not-checkable",
                ])
        }
        let untrusted = check([LintFixture.exampleSigned, "--format", "json"])
        #expect(untrusted.status == 1, "\(untrusted)")
        let report = try #require(try untrusted.jsonObject()["report"] as? [String: Any])
        #expect(report["verdict"] as? String == "broken")
        let signature = try #require(report["signature"] as? [String: Any])
        #expect(signature["valid"] as? Bool == false)
        #expect(signature["verdict"] as? String == "untrusted")
        #expect((signature["reason"] as? String)?.isEmpty == false)
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["rule"] as? String == "certificate-untrusted")
        #expect(diagnostics.first?["severity"] as? String == "error")
        let items = try #require(report["items"] as? [[String: Any]])
        #expect(items.first?["rule"] as? String == "certificate-untrusted")
    }

    // MARK: - Errors

    @Test("an unreadable file exits 2 with one diagnostic and no report")
    func unreadable() throws {
        try withTemporaryDirectory { dir in
            let missing = dir.child("missing.json").path
            let result = check([missing])
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderrLines.count == 1)
            expectDiagnostic(
                result.stderrLines.first, path: missing, severity: "error", contains: ["cannot read input"])

            let directory = check([dir.path, "--format", "json"])
            #expect(directory.status == 2, "\(directory)")
            #expect(directory.stdout.isEmpty)
        }
    }

    @Test("a trust file that cannot be read exits 2 for a signed file (trust is loaded only for signed files)")
    func unreadableTrustFile() {
        let signed = check([LintFixture.exampleSigned, "--ca-file", "/nonexistent/ca.pem"])
        #expect(signed.status == 2, "\(signed)")
        #expect(signed.stdout.isEmpty)
        expectDiagnostic(signed.stderrLines.first, path: "/nonexistent/ca.pem", severity: "error")
        let plain = check([LintFixture.examplePlain, "--ca-file", "/nonexistent/ca.pem"])
        #expect(plain.status == 0, "\(plain)")
    }

    @Test(
        "usage errors exit 64",
        arguments: [
            [], ["x.json", "--fail-on", "bogus"], ["x.json", "--format", "jsonl"], ["x.json", "--no-system-roots"],
            ["a.json", "b.json"],
        ])
    func usageErrors(args: [String]) {
        let result = check(args)
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("Usage: aasa check"), "\(result)")
    }

    // MARK: - Corpus

    @Test("corpus artsy signed file: broken (untrusted), items include legacy-appid and legacy-paths")
    func corpusArtsy() throws {
        let file = CLI.realSigned("artsy_artsy-eigen-web-association_aasa-20150915-a.p7m")
        let result = check([file])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutText.hasPrefix("\(file): broken: "), "\(result)")
        #expect(result.stdoutText.contains("  signature: untrusted ("), "\(result)")
        #expect(result.stdoutText.hasPrefix("\(file): broken: universal links for 3 apps; "), "\(result)")
        // Every value a grouped finding covers is quoted, not only the first.
        #expect(result.stdoutText.contains("  - [legacy-appid] An entry uses appID instead of appIDs.\n"), "\(result)")
        for app in ["23KMWZ572J.net.artsy.artsy", "ZH8TGFYKDK.net.artsy.artsy.dev", "ZH8TGFYKDK.net.artsy.artsy.beta"] {
            #expect(result.stdoutText.contains("This entry uses \"appID\": \"\(app)\""), "\(app): \(result)")
        }
        #expect(result.stdoutText.contains("[certificate-untrusted]"), "\(result)")
        #expect(!result.stdoutText.contains("[signature-not-valid]"), "intact signature read as tampering: \(result)")

        let json = check([file, "--format", "json"])
        #expect(json.status == 1)
        let report = try #require(try json.jsonObject()["report"] as? [String: Any])
        #expect(report["verdict"] as? String == "broken")
        #expect((report["signature"] as? [String: Any])?["verdict"] as? String == "untrusted")
        let rules = Set(((report["items"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String })
        #expect(
            rules.isSuperset(of: ["certificate-untrusted", "signed-file", "legacy-appid", "legacy-paths"]), "\(rules)")
    }

    // MARK: - Recommendations

    /// The report suggests commands by name; every one of them should exist.
    @Test("commands suggested in the report exist")
    func suggestedCommandsExist() throws {
        // Every `aasa SUBCOMMAND` the report recommends must exist.
        let report = check([LintFixture.examplePlain]).stdoutText
        let subcommands = CLI.run(["--help"]).stdoutText
        let pattern = try Regex("`aasa ([a-z]+)")
        for match in report.matches(of: pattern) {
            let name = String(match.output[1].substring ?? "")
            #expect(subcommands.contains("\n  \(name) "), "check recommends `aasa \(name)`, which is not a subcommand")
        }
        #expect(!report.contains("aasa audit"))
    }
}
