import AASA
import AASATestSupport
import Foundation
import Testing

/// Fixtures shared by the lint, check and match tests.
enum LintFixture {
    /// Invalid JSON: a trailing comma. `invalid-json` at 1:8.
    static let invalidJSON = Data(#"{"a":1,}"#.utf8)

    /// Only a warning (`duplicate-appid` at 5:50) and an info (`unknown-key` at 7:9).
    static let warnings = Data(
        """
        {
          "applinks": {
            "details": [
              {
                "appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app"],
                "components": [{ "/": "/help/*" }],
                "x-note": "hi"
              }
            ]
          }
        }

        """.utf8)

    /// Apple's current form: appIDs and components, no `apps`. No finding at all.
    static let modern = Data(
        """
        {
          "applinks": {
            "details": [
              {
                "appIDs": ["ABCDE12345.com.example.app"],
                "components": [
                  { "/": "/help/*" },
                  { "/": "/account/*", "exclude": true }
                ]
              }
            ]
          }
        }

        """.utf8)

    /// The repository's example files.
    static let examplePlain = CLI.repoRoot.appendingPathComponent("examples/apple-app-site-association.json").path
    static let exampleSigned = CLI.repoRoot.appendingPathComponent("examples/apple-app-site-association.p7m").path

    /// Signs `input` with the recipe of the brief: `openssl smime -sign -nodetach -noattr -outform DER`
    /// with leaf-rsa and no chain (so the payload is CRLF-canonicalised, as real files are).
    static func sign(_ input: URL, to output: URL) throws -> URL {
        try Fixture.opensslSign(input, chain: nil, to: output)
    }
}

/// One `aasa lint` text line, `PATH:LINE:COL: severity: [rule] message (at json.path)`, taken apart.
struct LintLine: Equatable {
    var path: String
    var line: Int?
    var column: Int?
    var severity: String
    var rule: String
    var message: String
    var jsonPath: String?
}

extension LintLine {
    static var pattern: Regex<AnyRegexOutput> {
        try! Regex(
            #"^(.+?)(?::([0-9]+):([0-9]+))?: (info|deprecation|warning|error): \[([a-z0-9-]+)\] (.+?)(?: \(at ([^ ]+)\))?$"#
        )
    }

    init?(_ text: String) {
        guard let match = try? Self.pattern.wholeMatch(in: text) else { return nil }
        func group(_ index: Int) -> String? { match.output[index].substring.map(String.init) }
        self.init(
            path: group(1) ?? "", line: group(2).flatMap { Int($0) }, column: group(3).flatMap { Int($0) },
            severity: group(4) ?? "", rule: group(5) ?? "", message: group(6) ?? "", jsonPath: group(7))
    }

    /// Every stdout line of a lint run, parsed; records an issue for a line that does not parse.
    static func all(_ result: CLI.Result, sourceLocation: SourceLocation = #_sourceLocation) -> [LintLine] {
        result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { raw in
            let line = String(raw)
            guard let parsed = LintLine(line) else {
                Issue.record("not a lint line: \(line.debugDescription)", sourceLocation: sourceLocation)
                return nil
            }
            return parsed
        }
    }
}

/// `aasa lint`: text lines, summary, exit statuses, filtering, JSON and SARIF output, signed files.
@Suite("aasa lint")
struct LintCommandTests {
    private func lint(_ args: [String], stdin: Data? = nil) -> CLI.Result {
        CLI.run(["lint"] + args, stdin: stdin)
    }

    // MARK: - Text output and exit status

    @Test("invalid JSON: one [invalid-json] error at 1:8 on stdout, summary on stderr, exit 1")
    func invalidJSON() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(LintFixture.invalidJSON, to: dir, as: "bad.json")
            let result = lint([file.path])
            #expect(result.status == 1, "\(result)")
            let lines = LintLine.all(result)
            try #require(lines.count == 1, "\(result)")
            #expect(lines[0].path == file.path)
            #expect(lines[0].line == 1 && lines[0].column == 8, "\(lines[0])")
            #expect(lines[0].severity == "error")
            #expect(lines[0].rule == "invalid-json")
            #expect(lines[0].jsonPath == nil, "the whole document has no (at …)")
            #expect(result.stdoutText.hasPrefix("\(file.path):1:8: error: [invalid-json] "), "\(result)")
            #expect(result.stderr == "1 error in 1 file\n", "\(result)")
        }
    }

    @Test("warnings and info only: exit 0; with --strict exit 1; lines carry line, column and JSON path")
    func warningsOnly() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(LintFixture.warnings, to: dir, as: "warn.json")
            let result = lint([file.path])
            #expect(result.status == 0, "\(result)")
            let lines = LintLine.all(result)
            #expect(
                lines.map { [$0.rule, $0.severity, "\($0.line ?? 0):\($0.column ?? 0)", $0.jsonPath ?? ""] } == [
                    ["duplicate-appid", "warning", "5:50", "applinks.details[0].appIDs[1]"],
                    ["unknown-key", "info", "7:9", "applinks.details[0].x-note"],
                ], "\(result)")
            #expect(result.stdoutText.hasPrefix("\(file.path):5:50: warning: [duplicate-appid] "))
            #expect(result.stderr == "1 warning, 1 info in 1 file\n", "\(result)")

            let strict = lint([file.path, "--strict"])
            #expect(strict.status == 1, "\(strict)")
            #expect(strict.stdout == result.stdout, "--strict changes the status, not the output")
            #expect(strict.stderr == result.stderr)
        }
    }

    @Test("deprecations only: exit 0 even with --strict (it fails on warnings and errors)")
    func deprecationsOnly() {
        let result = lint([LintFixture.examplePlain])
        #expect(result.status == 0, "\(result)")
        let lines = LintLine.all(result)
        #expect(
            lines.map { "\($0.rule)@\($0.line ?? 0):\($0.column ?? 0)" } == [
                "legacy-apps-key@3:5", "legacy-appid@14:9", "legacy-paths@15:9",
            ], "\(result)")
        #expect(lines.allSatisfy { $0.severity == "deprecation" })
        #expect(lines.map(\.jsonPath) == ["applinks.apps", "applinks.details[1].appID", "applinks.details[1].paths"])
        #expect(result.stderr == "3 deprecations in 1 file\n", "\(result)")

        let strict = lint([LintFixture.examplePlain, "--strict"])
        #expect(strict.status == 0, "\(strict)")
    }

    @Test("--fail-on at the boundary: a file with only a warning (and an info) fails at warning, not at error")
    func failOnBoundary() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(LintFixture.warnings, to: dir, as: "warn.json")
            let plain = lint([file.path])
            for (level, status) in [("info", 1), ("deprecation", 1), ("warning", 1), ("error", 0)] {
                let result = lint([file.path, "--fail-on", level])
                #expect(result.status == status, "--fail-on \(level): \(result)")
                #expect(result.stdout == plain.stdout, "--fail-on changes the status, not the output")
                #expect(result.stderr == plain.stderr)
            }
            // --fail-on counts hidden findings, as --strict does.
            let hidden = lint([file.path, "--fail-on", "warning", "--min-severity", "error"])
            #expect(hidden.status == 1 && hidden.stdout.isEmpty, "\(hidden)")
        }
    }

    @Test("--fail-on: a file with deprecations only fails at deprecation; the default is error")
    func failOnDeprecation() {
        #expect(lint([LintFixture.examplePlain, "--fail-on", "deprecation"]).status == 1)
        #expect(lint([LintFixture.examplePlain, "--fail-on", "warning"]).status == 0)
        #expect(lint([LintFixture.examplePlain]).status == 0)
    }

    @Test(
        "--strict with --fail-on is a usage error (--strict is --fail-on warning)",
        arguments: [["--strict", "--fail-on", "warning"], ["--fail-on", "error", "--strict"]])
    func strictWithFailOn(args: [String]) throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(LintFixture.warnings, to: dir, as: "warn.json")
            let result = lint([file.path] + args)
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderr.contains("--strict is --fail-on warning"), "\(result)")
            #expect(result.stderr.contains("Usage: aasa lint"), "\(result)")
        }
    }

    @Test("a clean file: exit 0, nothing on stdout, no summary on stderr (also with --strict)")
    func cleanFile() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(LintFixture.modern, to: dir, as: "modern.json")
            for extra in [[], ["--strict"]] {
                let result = lint([file.path] + extra)
                #expect(result.status == 0, "\(result)")
                #expect(result.stdout.isEmpty, "\(result)")
                #expect(result.stderr.isEmpty, "\(result)")
            }
        }
    }

    /// A file with an unknown applinks key and a `NOT` components pattern, both `value`
    /// (written as JSON string escapes, so the file itself is one line per member).
    static func quotingFile(_ escapedValue: String, in dir: URL) throws -> URL {
        let json = """
            {
              "applinks": {
                "\(escapedValue)": 1,
                "details": [ { "appIDs": ["ABCDE12345.com.example.app"], "components": [ { "/": "NOT /\(escapedValue)" } ] } ]
              }
            }

            """
        return try Fixture.write(Data(json.utf8), to: dir, as: "quoting.json")
    }

    @Test("a long value is shown shortened in the middle: the text line does not carry the whole value")
    func longValueShortened() throws {
        try withTemporaryDirectory { dir in
            let value = String(repeating: "a", count: 150) + String(repeating: "z", count: 150)
            let file = try Self.quotingFile(value, in: dir)
            let result = lint([file.path])
            #expect(result.status == 1, "\(result)")
            let lines = LintLine.all(result)
            // The fixture names no app that a URL opens: no-effect too, as check says.
            #expect(
                lines.map(\.rule).sorted() == ["no-effect", "not-prefix-in-components", "unknown-key"], "\(result)")
            let shortened = "\"" + String(repeating: "a", count: 40) + "…" + String(repeating: "z", count: 39) + "\""
            for line in lines {
                #expect(!line.message.contains(String(repeating: "a", count: 41)), "\(line.message)")
            }
            #expect(
                lines.first { $0.rule == "unknown-key" }?.message.hasPrefix("Unknown key \(shortened)") == true,
                "\(result)")
        }
    }

    @Test(
        "a value with a newline or control character is escaped: each finding stays one line",
        arguments: [("\\n", "\\n"), ("\\r\\n", "\\r\\n"), ("\\u001b[31m", "\\u001B[31m"), ("\\u2028", "\\u2028")])
    func controlCharactersEscaped(escapedInFile: String, shown: String) throws {
        try withTemporaryDirectory { dir in
            let file = try Self.quotingFile("x\(escapedInFile)y", in: dir)
            let result = lint([file.path])
            #expect(result.status == 1, "\(result)")
            #expect(
                !result.stdout.contains(0x1B) && !result.stdout.contains(0x0D), "\(result.stdoutText.debugDescription)")
            #expect(!result.stdoutText.contains("\u{2028}"), "\(result.stdoutText.debugDescription)")
            let lines = LintLine.all(result)
            // The fixture names no app that a URL opens: no-effect too, as check says.
            #expect(
                lines.map(\.rule).sorted() == ["no-effect", "not-prefix-in-components", "unknown-key"], "\(result)")
            #expect(
                lines.first { $0.rule == "unknown-key" }?.message.hasPrefix("Unknown key \"x\(shown)y\"") == true,
                "\(result)")
            #expect(
                lines.first { $0.rule == "not-prefix-in-components" }?.message.hasPrefix("\"NOT /x\(shown)y\"") == true,
                "\(result)")
        }
    }

    @Test("standard input is '-', shown as <stdin>")
    func standardInput() {
        let result = lint(["-"], stdin: LintFixture.invalidJSON)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutText.hasPrefix("<stdin>:1:8: error: [invalid-json] "), "\(result)")
    }

    @Test("a byte-order mark: a positionless warning first, columns not counting the mark")
    func byteOrderMark() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(Data([0xEF, 0xBB, 0xBF]) + LintFixture.invalidJSON, to: dir, as: "bom.json")
            let result = lint([file.path])
            #expect(result.status == 1, "\(result)")
            let lines = LintLine.all(result)
            #expect(lines.map(\.rule) == ["byte-order-mark", "invalid-json"], "\(result)")
            #expect(lines.first?.line == nil)
            #expect(result.stdoutText.hasPrefix("\(file.path): warning: [byte-order-mark] "), "\(result)")
            #expect(lines.last?.line == 1 && lines.last?.column == 8)
            #expect(result.stderr == "1 error, 1 warning in 1 file\n", "\(result)")
        }
    }

    // MARK: - --min-severity

    /// The filter hides findings from every output (text, summary, JSON) but the exit status is
    /// computed from every finding: `Lint.fails` looks at the unfiltered report.
    @Test("--min-severity hides lower findings, but the exit status still counts every finding")
    func minSeverity() throws {
        try withTemporaryDirectory { dir in
            let warn = try Fixture.write(LintFixture.warnings, to: dir, as: "warn.json")
            let bad = try Fixture.write(LintFixture.invalidJSON, to: dir, as: "bad.json")

            let warning = lint([warn.path, "--min-severity", "warning"])
            #expect(warning.status == 0, "\(warning)")
            #expect(LintLine.all(warning).map(\.rule) == ["duplicate-appid"], "\(warning)")
            #expect(
                warning.stderr == "1 warning, 1 info (hidden by --min-severity) in 1 file\n",
                "the summary counts every finding and says which are hidden: \(warning)")

            // Deprecations are hidden by --min-severity warning.
            let legacy = lint([LintFixture.examplePlain, "--min-severity", "warning"])
            #expect(legacy.status == 0, "\(legacy)")
            #expect(legacy.stdout.isEmpty, "\(legacy)")
            #expect(legacy.stderr == "3 deprecations (hidden by --min-severity) in 1 file\n", "\(legacy)")

            let deprecation = lint([LintFixture.examplePlain, "--min-severity", "deprecation"])
            #expect(LintLine.all(deprecation).count == 3, "\(deprecation)")

            // Everything hidden, yet --strict still fails on the hidden warning.
            let hidden = lint([warn.path, "--min-severity", "error", "--strict"])
            #expect(hidden.status == 1, "\(hidden)")
            #expect(hidden.stdout.isEmpty, "\(hidden)")
            #expect(
                hidden.stderr == "1 warning (hidden by --min-severity), 1 info (hidden by --min-severity) in 1 file\n",
                "\(hidden)")
            #expect(lint([warn.path, "--min-severity", "error"]).status == 0)

            let error = lint([bad.path, "--min-severity", "error"])
            #expect(error.status == 1, "\(error)")
            #expect(LintLine.all(error).map(\.rule) == ["invalid-json"])

            // JSON output is filtered the same way.
            let json = lint([warn.path, "--min-severity", "warning", "--format", "json"])
            let files = try #require(try json.jsonObject()["files"] as? [[String: Any]])
            let diagnostics = try #require(files.first?["diagnostics"] as? [[String: Any]])
            #expect(diagnostics.map { $0["rule"] as? String } == ["duplicate-appid"])
        }
    }

    // MARK: - JSON

    @Test("--format json: files[] with path, kind and diagnostics (rule, severity, message, location, url)")
    func jsonFormat() throws {
        try withTemporaryDirectory { dir in
            let warn = try Fixture.write(LintFixture.warnings, to: dir, as: "warn.json")
            let signed = try LintFixture.sign(warn, to: dir.child("warn.p7m"))
            let result = lint([warn.path, signed.path, "--format", "json"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "no summary in JSON mode: \(result)")
            let root = try result.jsonObject()
            #expect(Set(root.keys) == ["schemaVersion", "aasaVersion", "files"])
            let files = try #require(root["files"] as? [[String: Any]])
            try #require(files.count == 2)
            #expect(files[0]["path"] as? String == warn.path)
            #expect(files[0]["kind"] as? String == "json")
            #expect(files[1]["path"] as? String == signed.path)
            #expect(files[1]["kind"] as? String == "pkcs7-der")

            let plain = try #require(files[0]["diagnostics"] as? [[String: Any]])
            try #require(plain.count == 2)
            let first = plain[0]
            #expect(Set(first.keys) == ["rule", "severity", "message", "location", "url"])
            #expect(first["url"] is NSNull)
            #expect(first["rule"] as? String == "duplicate-appid")
            #expect(first["severity"] as? String == "warning")
            #expect((first["message"] as? String)?.isEmpty == false)
            let location = try #require(first["location"] as? [String: Any])
            #expect(location["path"] as? String == "applinks.details[0].appIDs[1]")
            #expect(location["line"] as? Int == 5)
            #expect(location["column"] as? Int == 50)

            // A file-level finding: path "$", line and column explicit nulls (the shared diagnostic object).
            let signedDiagnostics = try #require(files[1]["diagnostics"] as? [[String: Any]])
            #expect(
                signedDiagnostics.map { $0["rule"] as? String } == ["signed-file", "duplicate-appid", "unknown-key"])
            let fileLevel = try #require(signedDiagnostics[0]["location"] as? [String: Any])
            #expect(fileLevel["path"] as? String == "$")
            #expect(fileLevel["line"] is NSNull && fileLevel["column"] is NSNull, "\(fileLevel)")
            let payload = try #require(signedDiagnostics[1]["location"] as? [String: Any])
            #expect(payload["line"] as? Int == 5, "payload line numbers")
        }
    }

    // MARK: - SARIF

    @Test("--format sarif: SARIF 2.1.0 with every rule, consistent ruleIndex, levels, file regions only for plain JSON")
    func sarifFormat() throws {
        try withTemporaryDirectory { dir in
            let warn = try Fixture.write(LintFixture.warnings, to: dir, as: "warn.json")
            let bad = try Fixture.write(LintFixture.invalidJSON, to: dir, as: "bad.json")
            let signed = try LintFixture.sign(warn, to: dir.child("warn.p7m"))
            let result = lint([warn.path, bad.path, signed.path, "--format", "sarif"])
            #expect(result.status == 1, "bad.json has an error: \(result)")
            #expect(result.stderr.isEmpty, "\(result)")

            let log = try result.jsonObject()
            #expect(log["version"] as? String == "2.1.0")
            #expect((log["$schema"] as? String)?.hasSuffix("sarif-schema-2.1.0.json") == true)
            let runs = try #require(log["runs"] as? [[String: Any]])
            try #require(runs.count == 1)
            let run = runs[0]
            let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
            #expect(driver["name"] as? String == "aasa")
            #expect((driver["version"] as? String)?.isEmpty == false)
            let rules = try #require(driver["rules"] as? [[String: Any]])
            let ruleIDs = rules.compactMap { $0["id"] as? String }
            #expect(
                ruleIDs == listedRuleIDs(lintOnly: true),
                "driver.rules must be the lint rules of --list-rules, in order")
            for rule in rules {
                let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
                #expect(["error", "warning", "note"].contains(level ?? ""), "\(rule)")
                #expect(((rule["shortDescription"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            }

            let results = try #require(run["results"] as? [[String: Any]])
            #expect(results.count == 2 + 1 + 3, "\(results.count) results")
            var levels: Set<String> = []
            var byURI: [String: [[String: Any]]] = [:]
            for item in results {
                let ruleID = try #require(item["ruleId"] as? String)
                let index = try #require(item["ruleIndex"] as? Int, "ruleIndex for \(ruleID)")
                #expect(ruleIDs.indices.contains(index) && ruleIDs[index] == ruleID, "ruleIndex \(index) for \(ruleID)")
                let level = try #require(item["level"] as? String)
                levels.insert(level)
                #expect(((item["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
                let location = try #require((item["locations"] as? [[String: Any]])?.first)
                let physical = try #require(location["physicalLocation"] as? [String: Any])
                let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
                byURI[uri, default: []].append(item)
            }
            #expect(levels == ["error", "warning", "note"], "levels: \(levels)")

            func region(_ item: [String: Any]) -> [String: Any]? {
                let location = (item["locations"] as? [[String: Any]])?.first
                return (location?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
            }
            func logicalName(_ item: [String: Any]) -> String? {
                let location = (item["locations"] as? [[String: Any]])?.first
                return (location?["logicalLocations"] as? [[String: Any]])?.first?["fullyQualifiedName"] as? String
            }

            // Plain JSON: regions present, with the text output's line and column.
            let plain = try #require(byURI[URL(fileURLWithPath: warn.path).absoluteString])
            #expect(plain.map { $0["ruleId"] as? String } == ["duplicate-appid", "unknown-key"])
            #expect(plain.map { $0["level"] as? String } == ["warning", "note"])
            #expect(region(plain[0])?["startLine"] as? Int == 5)
            #expect(region(plain[0])?["startColumn"] as? Int == 50)
            #expect(logicalName(plain[0]) == "applinks.details[0].appIDs[1]")
            #expect(logicalName(plain[1]) == "applinks.details[0].x-note")
            let invalid = try #require(byURI[URL(fileURLWithPath: bad.path).absoluteString]?.first)
            #expect(invalid["level"] as? String == "error")
            #expect(region(invalid)?["startLine"] as? Int == 1)
            #expect(region(invalid)?["startColumn"] as? Int == 8)

            // Signed: line 1 of the file (positions are inside the embedded JSON, given in
            // properties.embeddedRegion); still a logical location.
            let signedResults = try #require(byURI[URL(fileURLWithPath: signed.path).absoluteString])
            #expect(signedResults.map { $0["ruleId"] as? String } == ["signed-file", "duplicate-appid", "unknown-key"])
            for item in signedResults {
                #expect(region(item)?.count == 1 && region(item)?["startLine"] as? Int == 1, "\(item)")
            }
            let embedded = (signedResults[1]["properties"] as? [String: Any])?["embeddedRegion"] as? [String: Any]
            #expect(
                embedded?["startLine"] as? Int == 5 && embedded?["startColumn"] as? Int == 50, "\(signedResults[1])")
            #expect(signedResults[0]["level"] as? String == "warning", "deprecations are SARIF warnings")
            #expect((signedResults[0]["properties"] as? [String: Any])?["severity"] as? String == "deprecation")
            #expect(logicalName(signedResults[0]) == "$")
            #expect(logicalName(signedResults[1]) == "applinks.details[0].appIDs[1]")

            let artifacts = try #require(run["artifacts"] as? [[String: Any]])
            #expect(
                artifacts.map { ($0["location"] as? [String: Any])?["uri"] as? String }
                    == [warn.path, bad.path, signed.path].map { URL(fileURLWithPath: $0).absoluteString })
            #expect(
                artifacts.map { $0["mimeType"] as? String } == [
                    "application/json", "application/json", "application/pkcs7-mime",
                ])
        }
    }

    @Test("--format sarif with no finding: an empty results array, exit 0")
    func sarifClean() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(LintFixture.modern, to: dir, as: "modern.json")
            let result = lint([file.path, "--format", "sarif"])
            #expect(result.status == 0, "\(result)")
            let runs = try #require(try result.jsonObject()["runs"] as? [[String: Any]])
            #expect((runs.first?["results"] as? [Any])?.isEmpty == true)
        }
    }

    // MARK: - Signed files

    @Test("a signed file: positionless [signed-file], then the payload's findings with payload line numbers")
    func signedFile() throws {
        try withTemporaryDirectory { dir in
            let warn = try Fixture.write(LintFixture.warnings, to: dir, as: "warn.json")
            let signed = try LintFixture.sign(warn, to: dir.child("warn.p7m"))
            let plain = LintLine.all(lint([warn.path]))
            let result = lint([signed.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutText.hasPrefix("\(signed.path): deprecation: [signed-file] "), "\(result)")
            let lines = LintLine.all(result)
            try #require(lines.count == 3, "\(result)")
            #expect(lines[0].rule == "signed-file" && lines[0].line == nil && lines[0].jsonPath == nil)
            // The same findings at the same lines and columns as the unsigned source (signed as
            // CRLF text: a CR before an LF does not start a line).
            let payload = Array(lines.dropFirst()).map {
                LintLine(
                    path: warn.path, line: $0.line, column: $0.column, severity: $0.severity, rule: $0.rule,
                    message: $0.message, jsonPath: $0.jsonPath)
            }
            #expect(payload == plain)
            #expect(result.stderr == "1 warning, 1 deprecation, 1 info in 1 file\n", "\(result)")
        }
    }

    @Test("a signed file with invalid JSON inside: [invalid-json] at the payload's 1:8, exit 1")
    func signedInvalidPayload() throws {
        try withTemporaryDirectory { dir in
            let bad = try Fixture.write(LintFixture.invalidJSON, to: dir, as: "bad.json")
            let signed = try LintFixture.sign(bad, to: dir.child("bad.p7m"))
            let result = lint([signed.path])
            #expect(result.status == 1, "\(result)")
            let lines = LintLine.all(result)
            #expect(lines.map(\.rule) == ["signed-file", "invalid-json"], "\(result)")
            #expect(lines.last?.line == 1 && lines.last?.column == 8)
        }
    }

    @Test("the example signed file has the example JSON's findings")
    func exampleSigned() {
        let result = lint([LintFixture.exampleSigned])
        #expect(result.status == 0, "\(result)")
        #expect(LintLine.all(result).map(\.rule) == ["signed-file", "legacy-apps-key", "legacy-appid", "legacy-paths"])
        #expect(result.stderr == "4 deprecations in 1 file\n")
    }

    // MARK: - Several files, unreadable files

    @Test("several files with a missing one: the others are still linted, exit 2")
    func severalFilesWithMissing() throws {
        try withTemporaryDirectory { dir in
            let warn = try Fixture.write(LintFixture.warnings, to: dir, as: "warn.json")
            let bad = try Fixture.write(LintFixture.invalidJSON, to: dir, as: "bad.json")
            let missing = dir.child("missing.json").path
            let result = lint([warn.path, missing, bad.path])
            #expect(result.status == 2, "2 wins over the error finding's 1: \(result)")
            #expect(LintLine.all(result).map(\.path) == [warn.path, warn.path, bad.path], "\(result)")
            #expect(result.stderrLines.count == 2, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: missing, severity: "error", contains: ["cannot read input"])
            #expect(
                result.stderrLines.last == "1 error, 1 warning, 1 info in 2 files",
                "only the linted files count: \(result)")

            let json = lint([warn.path, missing, "--format", "json"])
            #expect(json.status == 2, "\(json)")
            let files = try #require(try json.jsonObject()["files"] as? [[String: Any]])
            #expect(files.map { $0["path"] as? String } == [warn.path], "an unreadable file is left out")
            #expect(json.stderrLines.count == 1, "\(json)")
        }
    }

    @Test("a directory cannot be linted: exit 2")
    func directory() throws {
        try withTemporaryDirectory { dir in
            let result = lint([dir.path])
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty)
            expectDiagnostic(result.stderrLines.first, path: dir.path, severity: "error", contains: ["directory"])
        }
    }

    // MARK: - --list-rules and usage

    /// The rule IDs `aasa lint --list-rules` prints (first column); with `lintOnly`, those of
    /// the lint categories (third column), leaving out what only check and audit report.
    private func listedRuleIDs(lintOnly: Bool = false) -> [String] {
        let result = lint(["--list-rules"])
        return result.stdoutText.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count > 2, !lintOnly || !["signature", "effect", "hosting"].contains(fields[2]) else {
                return nil
            }
            return String(fields[0])
        }
    }

    @Test(
        "--list-rules prints every rule ID of docs/rules.md (lint, check, audit), with severity, category, since, fix and summary"
    )
    func listRules() throws {
        let result = lint(["--list-rules"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        let ids = listedRuleIDs()
        #expect(ids.count == lines.count)
        #expect(Set(ids).count == ids.count, "duplicate rule IDs")
        let categories = [
            "file", "structure", "app-identifiers", "url-rules", "variables", "signature", "effect", "hosting",
        ]
        for line in lines {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            #expect(fields.count >= 6, "\(line)")
            guard fields.count >= 6 else { continue }
            #expect(["info", "deprecation", "warning", "error"].contains(String(fields[1])), "\(line)")
            #expect(categories.contains(String(fields[2])), "\(line)")
            #expect(["0.1.0", "0.2.0", "0.3.0"].contains(String(fields[3])), "\(line)")
            #expect(["-", "convert", "migrate"].contains(String(fields[4])), "\(line)")
        }

        // The rule sections: `## `id`` for lint rules, `### id` under check's and audit's findings.
        let docs = try String(contentsOf: CLI.repoRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        let documented = docs.split(separator: "\n").compactMap { line -> String? in
            if line.hasPrefix("## `"), line.hasSuffix("`") { return String(line.dropFirst(4).dropLast()) }
            if line.hasPrefix("### "), !line.dropFirst(4).contains(" ") { return String(line.dropFirst(4)) }
            return nil
        }
        #expect(documented.count >= 60, "rule headings in docs/rules.md: \(documented)")
        #expect(ids == documented, "--list-rules and the rule headings of docs/rules.md differ")
        #expect(ids.contains("invalid-json") && ids.contains("missing-appid") && ids.contains("signed-file"))
    }

    @Test(
        "--list-rules --format json: every rule of RuleRegistry.all and the hosting rules, with id, severity, category, summary, fullDescription, since, documentationURL, fix, guidance"
    )
    func listRulesJSON() throws {
        let result = lint(["--list-rules", "--format", "json"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let rules = try #require(
            try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]], "\(result)")
        #expect(rules.count == RuleRegistry.all.count + 17, "the registry's rules and the 17 hosting rules")
        #expect(rules.prefix(RuleRegistry.all.count).map { $0["id"] as? String } == RuleRegistry.all.map(\.id.rawValue))
        #expect(rules.map { $0["id"] as? String } == listedRuleIDs(), "the same rules, in the order of the text")
        for rule in rules.dropFirst(RuleRegistry.all.count) {
            #expect(rule["category"] as? String == "hosting", "\(rule)")
            #expect((rule["fullDescription"] as? String)?.isEmpty == false, "\(rule)")
        }
        for (rule, metadata) in zip(rules, RuleRegistry.all) {
            #expect(rule["category"] as? String == metadata.category.rawValue, "\(rule)")
            #expect(rule["since"] as? String == metadata.since, "\(rule)")
            #expect(rule["fullDescription"] as? String == metadata.fullDescription, "\(rule)")
            #expect(rule["documentationURL"] is NSNull, "null without --rules-url: \(rule)")
            #expect(rule.keys.contains("fix"), "fix is null, not left out: \(rule)")
            if let fix = metadata.fix {
                let written = try #require(rule["fix"] as? [String: Any], "\(rule)")
                #expect(written["command"] as? String == fix.command && written["summary"] as? String == fix.summary)
            } else {
                #expect(rule["fix"] is NSNull, "\(rule)")
            }
        }
        for (rule, entry) in zip(rules, RuleCatalogue.all + RuleCatalogue.verificationRules + RuleCatalogue.effectRules)
        {
            #expect(rule["severity"] as? String == entry.severity.rawValue, "\(rule)")
            #expect(rule["summary"] as? String == entry.summary, "\(rule)")
            #expect(rule.keys.contains("guidance"), "guidance is null, not left out: \(rule)")
            if let guidance = entry.guidance {
                let written = try #require(rule["guidance"] as? [String: Any], "\(rule)")
                #expect(written["neededBy"] as? String == guidance.neededBy)
                #expect(written["nextStep"] as? String == guidance.nextStep)
                #expect(written["title"] as? String == guidance.title)
            } else {
                #expect(rule["guidance"] is NSNull, "\(rule)")
            }
        }
        #expect(RuleCatalogue.all.contains { $0.guidance != nil }, "some rule has guidance to check")

        let lines = lint(["--list-rules", "--format", "jsonl"])
        #expect(lines.status == 0, "\(lines)")
        let records = try lines.stdoutText.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.map { $0["id"] as? String } == rules.map { $0["id"] as? String })
    }

    @Test("--list-rules --format sarif is a usage error: SARIF logs a lint run, and every such log lists the rules")
    func listRulesSARIF() {
        let result = lint(["--list-rules", "--format", "sarif"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("--list-rules prints text, json or jsonl"), "\(result)")
        #expect(result.stderr.contains("Usage: aasa lint"), "\(result)")
    }

    @Test("--list-rules ignores file arguments")
    func listRulesWithFiles() {
        let result = lint(["--list-rules", "/nonexistent/file.json"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.hasPrefix("invalid-json "))
    }

    @Test(
        "usage errors exit 64",
        arguments: [
            [], ["--min-severity", "bogus", "x.json"], ["--format", "xml", "x.json"], ["--bogus", "x.json"],
            ["--fail-on", "never", "x.json"],
        ])
    func usageErrors(args: [String]) {
        let result = lint(args)
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("Usage: aasa lint"), "\(result)")
    }

    // MARK: - Corpus

    @Test("every corpus file lints without a crash, in text, JSON and SARIF")
    func corpus() throws {
        let files =
            RealWorldCorpus.plainNames.map(RealWorldCorpus.plain)
            + RealWorldCorpus.signedNames.map(RealWorldCorpus.signed)
        #expect(files.count == RealWorldCorpus.expectedPlainCount + RealWorldCorpus.expectedSignedCount)
        for file in files {
            let result = lint([file])
            #expect([0, 1].contains(result.status), "\(file): \(result)")
            for line in LintLine.all(result) { #expect(line.path == file) }
            #expect(!result.stderr.contains("Fatal error"), "\(file): \(result)")
        }
        let all = lint(files + ["--format", "sarif"])
        #expect([0, 1].contains(all.status), "\(all)")
        let runs = try #require(try all.jsonObject()["runs"] as? [[String: Any]])
        #expect((runs.first?["artifacts"] as? [Any])?.count == files.count)
        let json = lint(files + ["--format", "json"])
        #expect((try json.jsonObject()["files"] as? [Any])?.count == files.count)
    }

    @Test("corpus chayev missingAppID: [missing-appid] error, exit 1")
    func corpusMissingAppID() {
        let file = CLI.realPlain("chayev_webpage-sandbox_aasa-missingAppID.json")
        let result = lint([file])
        #expect(result.status == 1, "\(result)")
        let lines = LintLine.all(result)
        let missing = lines.first { $0.rule == "missing-appid" }
        #expect(missing?.severity == "error", "\(result)")
        #expect(missing?.jsonPath == "applinks.details[0]")
        #expect(missing?.line == 13 && missing?.column == 13)
        #expect(lines.contains { $0.rule == "apps-not-empty" })
        #expect(result.stderr == "2 errors, 2 deprecations in 1 file\n", "\(result)")
    }

    @Test("corpus signed files: [signed-file] first, exit 0", arguments: CLI.realSignedFiles)
    func corpusSigned(name: String) {
        let file = CLI.realSigned(name)
        let result = lint([file])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.hasPrefix("\(file): deprecation: [signed-file] "), "\(result)")
    }
}

/// SARIF artifact URIs: relative paths percent-encoded, absolute paths as file:// URIs.
@Suite("aasa lint SARIF URIs")
struct LintSARIFURITests {
    @Test("a relative path with a space and '#' is percent-encoded")
    func encodesRelativePaths() throws {
        try withTemporaryDirectory { dir in
            let name = "my file#1.json"
            try Data(#"{"applinks": {"details": []}}"#.utf8).write(to: dir.appendingPathComponent(name))
            let result = CLI.run(["lint", name, "--format", "sarif"], in: dir)
            let log = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            let run = try #require((log["runs"] as? [[String: Any]])?.first)
            let artifact = try #require((run["artifacts"] as? [[String: Any]])?.first)
            #expect((artifact["location"] as? [String: Any])?["uri"] as? String == "my%20file%231.json")
        }
    }
}

/// Issue #13: a directory's README was reported as a broken AASA file, where convert skips it.
@Suite("lint: files in a directory that are no AASA files")
struct LintSkipTests {
    @Test("a directory's README and image are skipped with a note and counted; named, the README is linted")
    func skipsWhatIsNotAASA() throws {
        try withTemporaryDirectory { dir in
            let site = dir.child("site")
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            try LintFixture.modern.write(to: site.child("apple-app-site-association"))
            try Data("# About this folder\n".utf8).write(to: site.child("README.md"))
            try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: site.child("logo.png"))
            try Data("{ \"applinks\": ".utf8).write(to: site.child("broken.json"))  // meant as JSON: linted
            let result = CLI.run(["lint", site.path])
            #expect(result.status == 1, "the broken JSON file is an error: \(result)")
            for name in ["README.md", "logo.png"] {
                #expect(
                    result.stderrLines.contains(
                        "\(site.child(name).path): note: skipped: not an AASA file (neither JSON nor PKCS#7)"),
                    "\(name): \(result)")
            }
            #expect(
                result.stderrLines.last?.hasSuffix("in 2 files; 2 files skipped (not AASA files)") == true, "\(result)")
            #expect(result.stdoutText.contains("broken.json"), "\(result)")
            let json = CLI.run(["lint", site.path, "--format", "json"])
            let files = try #require(try json.jsonObject()["files"] as? [[String: Any]])
            #expect(files.count == 2, "skipped files are no elements of the array: \(json)")
            let named = CLI.run(["lint", site.child("README.md").path])
            #expect(named.status == 1 && named.stdoutText.contains("[invalid-json]"), "\(named)")
        }
    }

    @Test("lint and check agree on a file no app gets anything from: no-effect fails the gate (exit 1)")
    func noEffectFailsTheGateAsCheckSays() throws {
        try withTemporaryDirectory { dir in
            // Valid JSON, every rule an exclude: no URL opens the app.
            let json =
                #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "*", "exclude": true}]}]}}"#
            let file = try Fixture.write(Data(json.utf8), to: dir, as: "aasa.json")
            let lint = CLI.run(["lint", file.path])
            #expect(lint.status == 1 && lint.stdoutText.contains(": error: [no-effect] "), "\(lint)")
            let check = CLI.run(["check", file.path])
            #expect(check.status == 1 && check.stdoutText.contains("[no-effect]"), "\(check)")
            let working = try Fixture.write(to: dir, as: "working.json")
            #expect(!CLI.run(["lint", working.path]).stdoutText.contains("no-effect"))
        }
    }

    @Test("a directory whose files were all skipped fails the gate (2, one line); one AASA file among them passes it")
    func nothingLintedIsNoPass() throws {
        try withTemporaryDirectory { dir in
            let site = dir.child("site")
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            try Data("# About this folder\n".utf8).write(to: site.child("README.md"))
            try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: site.child("logo.png"))
            for format in ["text", "json", "sarif"] {
                let result = CLI.run(["lint", site.path, "--format", format])
                #expect(result.status == 2, "\(format): \(result)")
                #expect(
                    result.stderrLines.last
                        == "lint: error: no AASA file to lint: 2 files skipped (neither JSON nor PKCS#7); name a file to lint it anyway",
                    "\(format): \(result)")
            }
            try LintFixture.modern.write(to: site.child("apple-app-site-association"))
            let one = CLI.run(["lint", site.path])
            #expect(one.status == 0 && !one.stderr.contains("error:"), "\(one)")
        }
    }
}
