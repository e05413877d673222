import Foundation
import Testing

/// `--format junit`, `gitlab` and `markdown`, run as a CI job runs them: JUnit validated
/// against the vendored JUnit.xsd with xmllint, GitLab Code Quality checked field by field
/// (GitLab publishes no schema file), Markdown checked for escaping of hostile names.
@Suite struct CIReportFormatTests {
    static let junitSchema = Repository.fixtures.appendingPathComponent("schemas/JUnit.xsd")

    /// A name with every character XML and Markdown give meaning to, a control character and
    /// a line feed.
    /// Markup, a control character, a line feed and a right-to-left override (which would
    /// show the name reversed in a pull-request comment or a test report).
    static let hostileName = "<b>&\"'|[x](javascript:e)\u{1}\n\u{202E}*.json"

    func validJUnit(_ result: CLI.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        let validation = SchemaValidation.xml(result.stdout, schema: Self.junitSchema)
        #expect(validation.valid, "\(validation)\n\(result)", sourceLocation: sourceLocation)
    }

    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test(
        "lint --format junit: a test case per file, failures at --fail-on, errors for unreadable input, escaped names")
    func lintJUnit() throws {
        try withTemporaryDirectory { dir in
            _ = try Fixture.write(LintFixture.modern, to: dir, as: "modern.json")
            _ = try Fixture.write(LintFixture.invalidJSON, to: dir, as: "bad.json")
            try LintFixture.warnings.write(to: dir.child(Self.hostileName))
            let names = ["modern.json", "bad.json", Self.hostileName, "missing.json"]
            let result = CLI.run(["lint"] + names + ["--format", "junit"], in: dir)
            #expect(result.status == 2, "an unreadable file: \(result)")
            validJUnit(result)
            let xml = result.stdoutText
            #expect(xml.contains("tests=\"4\" failures=\"1\" errors=\"1\""), "\(xml)")
            #expect(count("<testcase ", in: xml) == 4)
            #expect(
                xml.contains("<failure message=\"1 finding at or above error: invalid-json\" type=\"invalid-json\">"))
            #expect(
                xml.contains("name=\"&lt;b&gt;&amp;&quot;&apos;|[x](javascript:e)\\u{1}&#10;\\u{202E}*.json\""),
                "\(xml)")
            #expect(!xml.contains("\u{202E}"), "a raw right-to-left override in the report")
            #expect(
                xml.contains("<error message=\"cannot read input: No such file or directory\" type=\"unreadable\"/>"))

            // --strict fails the warnings file too.
            let strict = CLI.run(["lint"] + names.dropLast() + ["--format", "junit", "--strict"], in: dir)
            validJUnit(strict)
            #expect(strict.stdoutText.contains("tests=\"3\" failures=\"2\" errors=\"0\""), "\(strict)")
        }
    }

    @Test("verify --format junit: a valid file passes, an expired one fails with its rule")
    func verifyJUnit() throws {
        try withTemporaryDirectory { dir in
            let valid = try Fixture.signedFile(in: dir, name: "valid.p7m")
            let expired = try Fixture.signedFile(in: dir, leaf: "leaf-expired", name: "expired.p7m")
            let result = CLI.run(["verify", valid.path, expired.path, "--format", "junit"] + Fixture.testTrust)
            #expect(result.status == 1, "\(result)")
            validJUnit(result)
            #expect(result.stdoutText.contains("tests=\"2\" failures=\"1\" errors=\"0\""), "\(result)")
            #expect(result.stdoutText.contains("type=\"certificate-expired\""), "\(result)")
        }
    }

    @Test(
        "expiring soon and expired are two rules in SARIF, JUnit and GitLab (check and verify), so a CI job can tell them apart"
    )
    func expiringSoonHasItsOwnRule() throws {
        try withTemporaryDirectory { dir in
            let soon = try Fixture.signedFile(in: dir, leaf: "leaf-short-lived", name: "soon.p7m")
            let expired = try Fixture.signedFile(in: dir, leaf: "leaf-expired", name: "expired.p7m")
            let margin = ["--at", "2029-12-01", "--min-days-valid", "60"] + Fixture.testTrust
            let junit = CLI.run(["verify", soon.path, expired.path, "--format", "junit"] + margin)
            #expect(junit.status == 1, "\(junit)")
            validJUnit(junit)
            #expect(junit.stdoutText.contains("type=\"certificate-expiring-soon\""), "\(junit)")
            #expect(junit.stdoutText.contains("type=\"certificate-expired\""), "\(junit)")
            let sarif = CLI.run(["verify", soon.path, expired.path, "--format", "sarif"] + margin)
            let log = try #require(try sarif.jsonObject()["runs"] as? [[String: Any]])
            let ruleIDs = (log.first?["results"] as? [[String: Any]] ?? []).compactMap { $0["ruleId"] as? String }
            #expect(ruleIDs == ["certificate-expiring-soon", "certificate-expired"], "\(sarif)")
            let gitlab = CLI.run(["check", soon.path, "--format", "gitlab"] + margin)
            let issues = try #require(try gitlab.json() as? [[String: Any]], "\(gitlab)")
            #expect(issues.contains { $0["check_name"] as? String == "certificate-expiring-soon" }, "\(gitlab)")
            #expect(!issues.contains { $0["check_name"] as? String == "certificate-expired" }, "\(gitlab)")
            let verifyGitlab = CLI.run(["verify", soon.path, expired.path, "--format", "gitlab"] + margin)
            #expect(verifyGitlab.status == 1, "\(verifyGitlab)")
            let verifyIssues = try #require(try verifyGitlab.json() as? [[String: Any]], "\(verifyGitlab)")
            #expect(
                verifyIssues.compactMap { $0["check_name"] as? String }
                    == ["certificate-expiring-soon", "certificate-expired"], "\(verifyGitlab)")
            for issue in verifyIssues {
                #expect(issue["severity"] as? String == "critical" && !(issue["fingerprint"] as? String ?? "").isEmpty)
                #expect(((issue["location"] as? [String: Any])?["lines"] as? [String: Int])?["begin"] == 1, "\(issue)")
            }
            // Without the margin the same file is valid: the rule is about the margin only.
            let plain = CLI.run(["verify", soon.path, "--at", "2029-12-01", "--format", "junit"] + Fixture.testTrust)
            #expect(plain.status == 0, "\(plain)")
        }
    }

    @Test(
        "--format gitlab: GitLab's required fields, its severities, line 1 without a position; fingerprints as SARIF's")
    func gitlab() throws {
        try withTemporaryDirectory { dir in
            let plain = try Fixture.write(LintFixture.warnings, to: dir, as: "warn.json")
            _ = try LintFixture.sign(plain, to: dir.child("warn.p7m"))
            let result = CLI.run(["lint", "warn.json", "warn.p7m", "--format", "gitlab"], in: dir)
            #expect(result.status == 0, "\(result)")
            let issues = try #require(try result.json() as? [[String: Any]])
            try #require(issues.count == 2 + 3, "\(result)")
            for issue in issues {
                for key in ["description", "check_name", "fingerprint", "severity"] {
                    #expect(!((issue[key] as? String) ?? "").isEmpty, "\(key) in \(issue)")
                }
                #expect(["info", "minor", "major", "critical", "blocker"].contains(issue["severity"] as? String ?? ""))
                let location = try #require(issue["location"] as? [String: Any])
                #expect(["warn.json", "warn.p7m"].contains(location["path"] as? String ?? ""))
                #expect(((location["lines"] as? [String: Any])?["begin"] as? Int ?? 0) >= 1, "\(issue)")
            }
            let lines = issues.map {
                (($0["location"] as? [String: Any])?["lines"] as? [String: Any])?["begin"] as? Int
            }
            #expect(lines == [5, 7, 1, 1, 1], "plain lines; the signed file's findings on line 1")
            #expect(issues.map { $0["severity"] as? String } == ["major", "info", "minor", "major", "info"])

            let sarif = try CLI.run(["lint", "warn.json", "warn.p7m", "--format", "sarif"], in: dir).jsonObject()
            let results = ((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
            let sarifFingerprints = results.map { ($0["partialFingerprints"] as? [String: String])?["aasaFinding/v1"] }
            #expect(issues.map { $0["fingerprint"] as? String } == sarifFingerprints)

            let check = CLI.run(["check", LintFixture.exampleSigned, "--format", "gitlab"])
            #expect(check.status == 1, "\(check)")
            let checkIssues = try #require(try check.json() as? [[String: Any]])
            #expect(checkIssues.first?["check_name"] as? String == "certificate-untrusted")
            #expect(checkIssues.first?["severity"] as? String == "critical")
        }
    }

    @Test("--format gitlab: findings that share a fingerprint get unique ones (#2, #3), as GitLab needs")
    func gitlabUniqueFingerprints() throws {
        try withTemporaryDirectory { dir in
            // Three identical unknown keys in three entries: one message, one JSON path
            // without indices, so one FindingFingerprint.
            let entry = #"{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/a/*"}],"extra":1}"#
            let json = #"{"applinks":{"details":[\#(entry),\#(entry),\#(entry)]}}"#
            _ = try Fixture.write(Data(json.utf8), to: dir, as: "dup.json")
            let result = CLI.run(["lint", "dup.json", "--format", "gitlab"], in: dir)
            let issues = try #require(try result.json() as? [[String: Any]], "\(result)")
            let extra = issues.filter { ($0["description"] as? String ?? "").contains("extra") }
            let fingerprints = extra.compactMap { $0["fingerprint"] as? String }
            try #require(fingerprints.count == 3, "\(result)")
            #expect(Set(fingerprints).count == 3, "\(fingerprints)")
            #expect(fingerprints[1] == fingerprints[0] + "#2" && fingerprints[2] == fingerprints[0] + "#3")
            #expect(Set(issues.compactMap { $0["fingerprint"] as? String }).count == issues.count)
        }
    }

    @Test("--format markdown: a row per input, findings with rule links, hostile text escaped")
    func markdown() throws {
        try withTemporaryDirectory { dir in
            _ = try Fixture.write(LintFixture.invalidJSON, to: dir, as: "bad.json")
            try LintFixture.warnings.write(to: dir.child(Self.hostileName))
            let result = CLI.run(["lint", "bad.json", Self.hostileName, "--format", "markdown"], in: dir)
            #expect(result.status == 1, "\(result)")
            let text = result.stdoutText
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first == "## aasa lint: 2 files, 1 failing at error")
            #expect(lines.filter { $0.hasPrefix("| ") }.count == 1 + 2, "a header and a row per file: \(text)")
            #expect(text.contains("| bad\\.json | failed | 1 | 0 | 0 | 0 |"), "\(text)")
            #expect(
                text.contains(
                    "| &lt;b&gt;&amp;\\\"\\'\\|\\[x\\]\\(javascript\\:e\\)\\\\u{1}\\\\u{A}\\\\u{202E}\\*\\.json | passed | 0 | 1 | 0 | 1 |"
                ), "\(text)")
            #expect(
                !text.contains("<b>") && !text.contains("](javascript:e)") && !text.contains("\u{1}")
                    && !text.contains("\u{202E}"))
            #expect(text.contains("- **error** `invalid-json` "), "\(text)")  // no link without --rules-url

            // check, verify and audit use their verdict words, as their text and JSON do.
            let check = CLI.run(["check", LintFixture.examplePlain, "--format", "markdown"])
            #expect(check.status == 0, "\(check)")
            #expect(check.stdoutText.hasPrefix("## aasa check: 1 file, 0 failing at error\n"), "\(check)")
            let checkVerdict =
                try #require(
                    try CLI.run(["check", LintFixture.examplePlain, "--format", "json"]).jsonObject()["report"]
                        as? [String: Any])["verdict"] as? String
            #expect(check.stdoutText.contains(" | \(checkVerdict ?? "?") | "), "\(check)")
            let valid = try Fixture.signedFile(in: dir, name: "valid.p7m")
            let expired = try Fixture.signedFile(in: dir, leaf: "leaf-expired", name: "expired.p7m")
            let verify = CLI.run(["verify", valid.path, expired.path, "--format", "markdown"] + Fixture.testTrust)
            #expect(verify.stdoutText.contains("valid\\.p7m | valid | 0 |"), "\(verify)")
            #expect(verify.stdoutText.contains("expired\\.p7m | expired | 1 |"), "\(verify)")
        }
    }
}
