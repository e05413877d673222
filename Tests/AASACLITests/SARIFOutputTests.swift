import Foundation
import Testing

/// `--format sarif` of lint, check and verify, run as a user runs them and checked against
/// the official SARIF 2.1.0 schema and what GitHub code scanning needs (``SARIFCheck``).
@Suite struct SARIFOutputTests {
    /// A line with "é" (2 bytes, 1 UTF-16 unit) and "😀" (4 bytes, 2 units) before the
    /// duplicate app ID on line 5: its byte column is 62, its UTF-16 column 59.
    static let nonASCII = Data(
        """
        {
          "applinks": {
            "details": [
              {
                "appIDs": ["é😀.x", "ABCDE12345.com.example.app", "ABCDE12345.com.example.app"],
                "components": [{ "/": "/help/*" }]
              }
            ]
          }
        }

        """.utf8)

    /// The run of `result`'s SARIF log, recording every problem of the log.
    func sarifRun(
        _ result: CLI.Result, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String: Any] {
        let (run, problems) = SARIFCheck.check(result.stdout)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))\n\(result)", sourceLocation: sourceLocation)
        return try #require(run, "\(result)", sourceLocation: sourceLocation)
    }

    func results(_ run: [String: Any]) -> [[String: Any]] { run["results"] as? [[String: Any]] ?? [] }

    func region(_ result: [String: Any]) -> [String: Int]? {
        let location = (result["locations"] as? [[String: Any]])?.first
        return (location?["physicalLocation"] as? [String: Any])?["region"] as? [String: Int]
    }

    func artifactLocation(_ result: [String: Any]) -> [String: Any]? {
        let location = (result["locations"] as? [[String: Any]])?.first
        return (location?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any]
    }

    func fingerprint(_ result: [String: Any]) -> String? {
        (result["partialFingerprints"] as? [String: String])?["aasaFinding/v1"]
    }

    // MARK: - lint

    @Test("lint: plain, signed and invalid files, findings with and without lines; UTF-16 columns")
    func lint() throws {
        try withTemporaryDirectory { dir in
            let plain = try Fixture.write(Self.nonASCII, to: dir, as: "plain.json")
            _ = try LintFixture.sign(plain, to: dir.child("signed.p7m"))
            _ = try Fixture.write(LintFixture.invalidJSON, to: dir, as: "bad.json")
            let text = CLI.run(["lint", "plain.json"], in: dir)
            let duplicateLine = try #require(LintLine.all(text).first { $0.rule == "duplicate-appid" })
            #expect(duplicateLine.line == 5 && duplicateLine.column == 62, "the text output counts bytes: \(text)")

            let result = CLI.run(["lint", "plain.json", "signed.p7m", "bad.json", "--format", "sarif"], in: dir)
            #expect(result.status == 1, "\(result)")
            let run = try sarifRun(result)
            let all = results(run)
            #expect(
                Set(all.compactMap { artifactLocation($0)?["uri"] as? String }) == [
                    "plain.json", "signed.p7m", "bad.json",
                ])
            #expect(all.allSatisfy { artifactLocation($0)?["uriBaseId"] as? String == "%SRCROOT%" })

            let inPlain = all.filter { artifactLocation($0)?["uri"] as? String == "plain.json" }
            let duplicate = try #require(inPlain.first { $0["ruleId"] as? String == "duplicate-appid" })
            #expect(region(duplicate) == ["startLine": 5, "startColumn": 59], "UTF-16 column: \(duplicate)")

            let inSigned = all.filter { artifactLocation($0)?["uri"] as? String == "signed.p7m" }
            let signedFile = try #require(inSigned.first { $0["ruleId"] as? String == "signed-file" })
            #expect(region(signedFile) == ["startLine": 1], "a file-level finding is on line 1")
            let signedDuplicate = try #require(inSigned.first { $0["ruleId"] as? String == "duplicate-appid" })
            #expect(region(signedDuplicate) == ["startLine": 1], "a signed file's positions are not its bytes")
            let embedded = (signedDuplicate["properties"] as? [String: Any])?["embeddedRegion"] as? [String: Int]
            #expect(embedded == ["startLine": 5, "startColumn": 59], "\(signedDuplicate)")

            let invalid = try #require(all.first { artifactLocation($0)?["uri"] as? String == "bad.json" })
            #expect(invalid["ruleId"] as? String == "invalid-json")
            #expect(region(invalid) == ["startLine": 1, "startColumn": 8])
        }
    }

    @Test("lint: a fingerprint stays the same when lines are inserted above its finding")
    func fingerprintsSurviveEdits() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(LintFixture.warnings, to: dir, as: "aasa.json")
            let before = try sarifRun(CLI.run(["lint", "aasa.json", "--format", "sarif"], in: dir))
            try (Data("\n\n\n".utf8) + LintFixture.warnings).write(to: file)
            let after = try sarifRun(CLI.run(["lint", "aasa.json", "--format", "sarif"], in: dir))
            let old = results(before)
            let new = results(after)
            try #require(old.count == 2 && new.count == 2, "\(old) \(new)")
            #expect(old.map { $0["ruleId"] as? String } == ["duplicate-appid", "unknown-key"])
            for (first, second) in zip(old, new) {
                #expect(first["ruleId"] as? String == second["ruleId"] as? String)
                #expect(region(second)?["startLine"] == region(first)?["startLine"].map { $0 + 3 })
            }
            #expect(
                fingerprint(old[1]) != nil && fingerprint(old[1]) == fingerprint(new[1]), "unknown-key moved 3 lines")
            #expect(fingerprint(old[0]) != fingerprint(old[1]))
            // duplicate-appid's message names the first occurrence's line and column, which
            // FindingFingerprint leaves out: its fingerprint does not move with the file.
            #expect(fingerprint(old[0]) == fingerprint(new[0]), "duplicate-appid moved 3 lines")
        }
    }

    @Test("lint: hostile file names are percent-encoded; absolute paths are file URIs; stdin is 'stdin'")
    func hostileNames() throws {
        try withTemporaryDirectory { dir in
            let name = "a:b #?%é\n.json"
            try LintFixture.warnings.write(to: dir.child(name))
            let relative = try sarifRun(CLI.run(["lint", name, "--format", "sarif"], in: dir))
            let location = try #require(results(relative).first.flatMap(artifactLocation))
            #expect(location["uri"] as? String == "a%3Ab%20%23%3F%25%C3%A9%0A.json", "\(location)")
            #expect(location["uriBaseId"] as? String == "%SRCROOT%")
            let root = (relative["originalUriBaseIds"] as? [String: [String: String]])?["%SRCROOT%"]?["uri"]
            #expect(root?.hasPrefix("file:///") == true && root?.hasSuffix("/") == true, "\(root ?? "none")")

            let absolute = try sarifRun(CLI.run(["lint", dir.child(name).path, "--format", "sarif"]))
            let absoluteLocation = try #require(results(absolute).first.flatMap(artifactLocation))
            #expect((absoluteLocation["uri"] as? String)?.hasSuffix("/a%3Ab%20%23%3F%25%C3%A9%0A.json") == true)
            #expect((absoluteLocation["uri"] as? String)?.hasPrefix("file:///") == true)
            #expect(absoluteLocation["uriBaseId"] == nil)

            let stdin = try sarifRun(CLI.run(["lint", "-", "--format", "sarif"], stdin: LintFixture.warnings))
            #expect(results(stdin).first.flatMap(artifactLocation)?["uri"] as? String == "stdin")
        }
    }

    @Test(
        "--rules-url and AASA_RULES_URL set the help links, and without either there is none; a bad --rules-url is a usage error, a bad variable a warning"
    )
    func rulesURL() throws {
        try withTemporaryDirectory { dir in
            _ = try Fixture.write(LintFixture.warnings, to: dir, as: "aasa.json")
            func helpURIs(_ result: CLI.Result) throws -> [String] {
                let driver = try #require((try sarifRun(result)["tool"] as? [String: Any])?["driver"] as? [String: Any])
                return (driver["rules"] as? [[String: Any]] ?? []).compactMap { $0["helpUri"] as? String }
            }
            // No address of ours: no helpUri, no informationUri, the help names `aasa rules ID`.
            let plain = try sarifRun(CLI.run(["lint", "aasa.json", "--format", "sarif"], in: dir))
            let plainDriver = try #require((plain["tool"] as? [String: Any])?["driver"] as? [String: Any])
            let plainRules = plainDriver["rules"] as? [[String: Any]] ?? []
            #expect(plainDriver["informationUri"] == nil && !plainRules.isEmpty)
            #expect(plainRules.allSatisfy { $0["helpUri"] == nil }, "\(plainRules.compactMap { $0["helpUri"] })")
            let first = try #require(plainRules.first { $0["id"] as? String == "invalid-json" })
            #expect(
                ((first["help"] as? [String: Any])?["text"] as? String)?.hasSuffix(
                    "Documentation: `aasa rules invalid-json`.") == true)
            let base = "https://docs.example.com/aasa/rules.html"
            let option = try helpURIs(
                CLI.run(["lint", "aasa.json", "--format", "sarif", "--rules-url", base], in: dir))
            #expect(option.first == base + "#invalid-json" && option.allSatisfy { $0.hasPrefix(base + "#") })
            let environment = try helpURIs(
                CLI.run(["lint", "aasa.json", "--format", "sarif"], environment: ["AASA_RULES_URL": base], in: dir))
            #expect(environment == option)
            let informed = try sarifRun(
                CLI.run(["lint", "aasa.json", "--format", "sarif", "--rules-url", base], in: dir))
            #expect(
                ((informed["tool"] as? [String: Any])?["driver"] as? [String: Any])?["informationUri"] as? String
                    == base)
            for bad in ["docs/rules.md", "https://example.com/rules.md#x", "ftp://example.com/rules"] {
                let result = CLI.run(["lint", "aasa.json", "--format", "sarif", "--rules-url", bad], in: dir)
                #expect(result.status == 64 && result.stdout.isEmpty, "\(bad): \(result)")
                // An unusable variable is no usage error: text ignores it, a report warns and uses the default.
                let text = CLI.run(["lint", "aasa.json"], environment: ["AASA_RULES_URL": bad], in: dir)
                #expect(text.status == 0 && !text.stderr.contains("AASA_RULES_URL"), "\(text)")
                let sarif = CLI.run(
                    ["lint", "aasa.json", "--format", "sarif"], environment: ["AASA_RULES_URL": bad], in: dir)
                #expect(sarif.stderr.hasPrefix("aasa: warning: $AASA_RULES_URL must "), "\(sarif)")
                #expect(try helpURIs(sarif).isEmpty)
            }
        }
    }

    // MARK: - check

    @Test("check: an untrusted and an expired signed file give their certificate rule on line 1, with help")
    func check() throws {
        let untrusted = CLI.run(["check", LintFixture.exampleSigned, "--format", "sarif"])
        #expect(untrusted.status == 1, "\(untrusted)")
        let untrustedRun = try sarifRun(untrusted)
        let first = try #require(results(untrustedRun).first)
        #expect(first["ruleId"] as? String == "certificate-untrusted")
        #expect(region(first) == ["startLine": 1])
        #expect(results(untrustedRun).contains { $0["ruleId"] as? String == "signed-file" })

        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir, as: "source.json")
            let expired = try Fixture.opensslSign(input, leaf: "leaf-expired", to: dir.child("expired.p7m"))
            let result = CLI.run(["check", expired.path, "--format", "sarif"] + Fixture.testTrust)
            #expect(result.status == 1, "\(result)")
            let run = try sarifRun(result)
            #expect(results(run).first?["ruleId"] as? String == "certificate-expired", "\(result)")
            #expect(results(run).first?["level"] as? String == "error")
        }
    }

    @Test("every rule check can report links to a heading of docs/rules.md")
    func helpAnchorsExist() throws {
        let run = try sarifRun(
            CLI.run([
                "check", LintFixture.exampleSigned, "--format", "sarif", "--rules-url",
                "https://docs.example.com/rules.md",
            ]))
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let fragments = (driver["rules"] as? [[String: Any]] ?? []).compactMap { rule in
            (rule["helpUri"] as? String).flatMap { URL(string: $0)?.fragment }
        }
        let rulesPage = try String(contentsOf: CLI.repoRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        // GitHub's anchor of a heading: its text without backticks, lowercased, spaces as '-'.
        let anchors = Set(
            rulesPage.split(separator: "\n").filter { $0.hasPrefix("## ") || $0.hasPrefix("### ") }.map { heading in
                heading.drop { $0 == "#" || $0 == " " }.replacingOccurrences(of: "`", with: "").lowercased()
                    .replacingOccurrences(of: " ", with: "-")
            })
        let listed = try #require(try CLI.run(["lint", "--list-rules", "--format", "json"]).json() as? [[String: Any]])
        // Every rule but the audit's hosting rules: the lint rules, the signature rules and no-effect.
        let checkRules = listed.filter { $0["category"] as? String != "hosting" }
        try #require(checkRules.count == 48, "\(checkRules.count) rules listed for check")
        try #require(fragments.count == checkRules.count, "\(fragments.count) rules in the SARIF log")
        for fragment in fragments {
            #expect(anchors.contains(fragment), "no heading in docs/rules.md for #\(fragment)")
        }
    }

    // MARK: - verify

    @Test("verify: a valid file has no result, an invalid one its rule, an unreadable one a notification")
    func verify() throws {
        try withTemporaryDirectory { dir in
            let valid = try Fixture.signedFile(in: dir, name: "valid.p7m")
            let expired = try Fixture.signedFile(in: dir, leaf: "leaf-expired", name: "expired.p7m")
            let one = CLI.run(["verify", valid.path, "--format", "sarif"] + Fixture.testTrust)
            #expect(one.status == 0, "\(one)")
            let validRun = try sarifRun(one)
            #expect(results(validRun).isEmpty)
            #expect((validRun["artifacts"] as? [Any])?.count == 1)

            let batch = CLI.run(
                ["verify", valid.path, expired.path, dir.child("missing.p7m").path, "--format", "sarif"]
                    + Fixture.testTrust)
            #expect(batch.status == 2, "an unreadable file: \(batch)")
            let run = try sarifRun(batch)
            #expect(results(run).map { $0["ruleId"] as? String } == ["certificate-expired"])
            #expect((run["artifacts"] as? [Any])?.count == 2, "the two files that were read")
            let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
            #expect(invocation["executionSuccessful"] as? Bool == false)
            let notifications = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
            #expect(notifications.count == 1, "\(notifications)")
        }
    }

    @Test(
        "verify and lint --files-from: a list entry that names no file is a notification, and the log is still written")
    func listEntriesAreNotifications() throws {
        try withTemporaryDirectory { dir in
            let valid = try Fixture.signedFile(in: dir, name: "valid.p7m")
            let list = dir.child("list")
            // A valid file, a name that is not UTF-8 (refused as a list entry), and an empty name.
            var bytes = Data("\(valid.path)\0".utf8)
            bytes += Data([0x63, 0x61, 0x66, 0xE9, 0x00, 0x00])
            try bytes.write(to: list)
            for command in [["verify"] + Fixture.testTrust, ["lint"]] {
                let result = CLI.run(command + ["--files-from", list.path, "--null", "--format", "sarif"])
                #expect(result.status == 2, "\(command[0]): \(result)")
                let run = try sarifRun(result)
                #expect((run["artifacts"] as? [Any])?.count == 1, "\(command[0]): the one file read")
                let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
                let notifications = invocation["toolExecutionNotifications"] as? [[String: Any]] ?? []
                #expect(notifications.count == 2, "\(command[0]): \(notifications)")
            }
        }
    }
}
