import AASA
import AASATestSupport
import Foundation
import Testing

/// `aasa lint --write-baseline` and `--baseline` (docs/configuration.md#baselines).
@Suite("aasa lint baselines")
struct BaselineCommandTests {
    /// An info (`unknown-key` in the first entry) and two identical errors (`empty-appid`, one
    /// fingerprint with count 2).
    static let original = """
        {
          "applinks": {
            "details": [
              { "appIDs": ["ABCDE12345.com.example.app"], "components": [{ "/": "/a/*" }], "x-one": 1 },
              { "appIDs": [""], "components": [{ "/": "/b/*" }] },
              { "appIDs": [""], "components": [{ "/": "/c/*" }] }
            ]
          }
        }

        """

    /// The same findings after edits: lines inserted above them (a new service), and the
    /// entries of `details` reordered (the first moved to the end), each on other lines.
    static let moved = """
        {
          "webcredentials": {
            "apps": ["ABCDE12345.com.example.app"]
          },
          "applinks": {
            "details": [

              { "appIDs": [""], "components": [{ "/": "/c/*" }] },
              { "appIDs": [""], "components": [{ "/": "/b/*" }] },
              {
                "appIDs": ["ABCDE12345.com.example.app"],
                "components": [{ "/": "/a/*" }],
                "x-one": 1
              }NEW
            ]
          }
        }

        """

    static func edited(adding entry: String = "") -> Data {
        Data(moved.replacingOccurrences(of: "NEW", with: entry.isEmpty ? "" : ",\n      " + entry).utf8)
    }

    /// A new error: a components pattern that starts with "NOT ".
    static let newProblem = #"{ "appIDs": ["ABCDE12345.com.example.other"], "components": [{ "/": "NOT /x" }] }"#
    /// A third identical `empty-appid`.
    static let thirdEmpty = #"{ "appIDs": [""], "components": [{ "/": "/d/*" }] }"#

    func lint(_ args: [String], in directory: URL) -> CLI.Result {
        CLI.run(["lint", "--no-config"] + args, in: directory)
    }

    /// The finding lines of a text run (stdout), by rule.
    func rules(_ result: CLI.Result) -> [String] {
        result.stdoutText.split(separator: "\n").compactMap { line in
            line.range(of: "[").flatMap { open in
                line[open.upperBound...].firstIndex(of: "]").map { String(line[open.upperBound..<$0]) }
            }
        }
    }

    /// Writes the original file and its baseline in `directory`; checks the baseline run.
    func writeBaseline(in directory: URL) throws {
        try Data(Self.original.utf8).write(to: directory.child("a.json"))
        let written = lint(["a.json", "--write-baseline", "baseline.json"], in: directory)
        // The run reports as it would without the option (2 errors, so status 1).
        #expect(written.status == 1, "\(written)")
        #expect(rules(written) == ["unknown-key", "empty-appid", "empty-appid"], "\(written)")
        let baseline = try Baseline(json: try contents(directory.child("baseline.json")))
        #expect(baseline.entries.map(\.rule) == [.emptyAppID, .unknownKey])
        #expect(baseline.entries.map(\.count) == [2, 1])
        #expect(baseline.entries.allSatisfy { $0.file == "a.json" })
    }

    @Test("moved lines and reordered entries stay accepted; only the new problem is reported and decides the status")
    func onlyNewFindings() throws {
        try withTemporaryDirectory { dir in
            try writeBaseline(in: dir)
            let file = dir.child("a.json")

            try Self.edited().write(to: file)
            let unchanged = lint(["a.json"], in: dir)
            #expect(unchanged.status == 1 && rules(unchanged).count == 3, "the edits keep every finding: \(unchanged)")
            let accepted = lint(["a.json", "--baseline", "baseline.json"], in: dir)
            #expect(accepted.status == 0, "every finding is in the baseline: \(accepted)")
            #expect(accepted.stdout.isEmpty, "\(accepted)")
            #expect(accepted.stderr.contains("3 baselined"), "\(accepted)")
            #expect(!accepted.stderr.contains("no longer occur"), "\(accepted)")

            try Self.edited(adding: Self.newProblem).write(to: file)
            let new = lint(["a.json", "--baseline", "baseline.json"], in: dir)
            #expect(new.status == 1, "the new error fails the run: \(new)")
            #expect(rules(new) == ["not-prefix-in-components"], "\(new)")
            #expect(new.stderr.contains("1 error in 1 file; 3 baselined"), "\(new)")
        }
    }

    @Test("identical findings are counted: a baseline with 2 accepts 2, the third is new")
    func countAware() throws {
        try withTemporaryDirectory { dir in
            try writeBaseline(in: dir)
            try Self.edited(adding: Self.thirdEmpty).write(to: dir.child("a.json"))
            let result = lint(["a.json", "--baseline", "baseline.json"], in: dir)
            #expect(result.status == 1, "\(result)")
            #expect(rules(result) == ["empty-appid"], "one of the three is new: \(result)")
            #expect(result.stderr.contains("3 baselined"), "\(result)")
        }
    }

    @Test("a problem removed: its entry is reported as no longer occurring (text, JSON), and the status is 0")
    func staleEntries() throws {
        try withTemporaryDirectory { dir in
            try writeBaseline(in: dir)
            // One empty app identifier fixed, the unknown key removed.
            let fixed = Self.original.replacingOccurrences(
                of: #""appIDs": [""], "components": [{ "/": "/c/*" }]"#,
                with: #""appIDs": ["ABCDE12345.com.example.c"], "components": [{ "/": "/c/*" }]"#
            )
            .replacingOccurrences(of: #", "x-one": 1"#, with: "")
            try Data(fixed.utf8).write(to: dir.child("a.json"))
            let result = lint(["a.json", "--baseline", "baseline.json"], in: dir)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            let notes = result.stderrLines.filter { $0.contains("baseline entry no longer occurs") }
            #expect(notes.count == 2, "\(result)")
            #expect(notes.contains { $0.hasPrefix("a.json: note: [unknown-key] baseline entry no longer occurs: ") })
            #expect(notes.contains { $0.hasPrefix("a.json: note: [empty-appid] baseline entry no longer occurs: ") })
            #expect(result.stderr.contains("1 baselined; 2 baselined findings no longer occur"), "\(result)")

            let json = lint(["a.json", "--baseline", "baseline.json", "--format", "json"], in: dir)
            #expect(json.status == 0, "\(json)")
            let document = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
            let file = try #require((document["files"] as? [[String: Any]])?.first)
            #expect(file["baselined"] as? Int == 1)
            #expect(file["suppressed"] as? Int == 0)
            let stale = try #require(file["staleBaseline"] as? [[String: Any]])
            #expect(Set(stale.compactMap { $0["rule"] as? String }) == ["empty-appid", "unknown-key"])
            #expect(
                stale.allSatisfy {
                    $0["count"] as? Int == 1 && ($0["fingerprint"] as? String)?.hasPrefix("v1:") == true
                })
        }
    }

    @Test("an entry of 2 identical findings, both fixed: one note that says 2 times, and the summary counts 2")
    func staleWithCount() throws {
        try withTemporaryDirectory { dir in
            try writeBaseline(in: dir)
            let fixed = Self.original.replacingOccurrences(of: #"["ABCDE12345.com.example.app"]"#, with: "[]")
                .replacingOccurrences(of: #"[""]"#, with: #"["ABCDE12345.com.example.app"]"#)
            try Data(fixed.utf8).write(to: dir.child("a.json"))
            let result = lint(["a.json", "--baseline", "baseline.json", "--disable", "duplicate-appid"], in: dir)
            let notes = result.stderrLines.filter { $0.hasPrefix("a.json: note: [empty-appid]") }
            #expect(notes.count == 1, "\(result)")
            #expect(notes.first?.contains("baseline entry no longer occurs (2 times): ") == true, "\(result)")
            #expect(result.stderr.contains("2 baselined findings no longer occur"), "\(result)")
        }
    }

    @Test("entries of files the run did not lint are counted, not called stale")
    func uncheckedFiles() throws {
        try withTemporaryDirectory { dir in
            try writeBaseline(in: dir)
            try Data(LintFixture.modern).write(to: dir.child("b.json"))
            let result = lint(["b.json", "--baseline", "baseline.json"], in: dir)
            #expect(result.status == 0, "\(result)")
            #expect(!result.stderr.contains("no longer occur"), "\(result)")
            #expect(result.stderr.contains("3 baselined findings for files not linted"), "\(result)")
        }
    }

    @Test(
        "the written baseline follows docs/schemas/baseline.schema.json, which refuses a bad one; aasa refuses it too")
    func schema() throws {
        let schema = CLI.repoRoot.appendingPathComponent("docs/schemas/baseline.schema.json")
        try withTemporaryDirectory { dir in
            try writeBaseline(in: dir)
            let data = try contents(dir.child("baseline.json"))
            let valid = SchemaValidation.json(data, schema: schema)
            #expect(valid.valid, "\(valid)")

            let bad = Data(
                String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"count\" : 2", with: "\"count\" : 0")
                    .utf8)
            #expect(bad != data)
            let refused = SchemaValidation.json(bad, schema: schema)
            #expect(!refused.valid, "the schema accepts count 0")
            try bad.write(to: dir.child("bad.json"))
            let result = lint(["a.json", "--baseline", "bad.json"], in: dir)
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            #expect(
                result.stderrLines.first?.hasPrefix("bad.json: error: not an aasa baseline: findings[0].count: ")
                    == true, "\(result)")
        }
    }

    @Test("the baseline shown in docs/configuration.md follows the schema and is read by aasa")
    func documentedExample() throws {
        let text = try String(
            contentsOf: CLI.repoRoot.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let start = try #require(text.range(of: "```json\n{\n  \"findings\""))
        let end = try #require(text[start.upperBound...].range(of: "```"))
        let example = Data(text[text.index(start.lowerBound, offsetBy: 8)..<end.lowerBound].utf8)
        let outcome = SchemaValidation.json(
            example, schema: CLI.repoRoot.appendingPathComponent("docs/schemas/baseline.schema.json"))
        #expect(outcome.valid, "\(outcome)")
        let baseline = try Baseline(json: example)
        #expect(baseline.entries.map(\.count) == [2])
    }

    @Test("a hostile baseline's rule and message reach the terminal escaped")
    func hostileBaseline() throws {
        try withTemporaryDirectory { dir in
            try LintFixture.modern.write(to: dir.child("a.json"))
            let hostile = """
                {"schemaVersion": 1, "findings": [{"fingerprint": "v1:0123456789abcdef0123456789abcdef",
                "rule": "x\\u001b]0;owned\\u0007", "file": "a.json", "message": "m\\u001b[2J\\nforged: error", "count": 1}]}
                """
            try Data(hostile.utf8).write(to: dir.child("b.json"))
            let result = lint(["a.json", "--baseline", "b.json"], in: dir)
            #expect(result.status == 0, "\(result)")
            let notes = result.stderrLines.filter { $0.hasPrefix("a.json: note: ") }
            #expect(notes.count == 1, "\(result)")
            #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{07}"), "\(result)")
            #expect(!result.stderrLines.contains { $0.hasPrefix("forged") }, "\(result)")
        }
    }

    @Test("a missing baseline is one error line and status 2; '-' is a usage error")
    func unreadable() throws {
        try withTemporaryDirectory { dir in
            try Data(Self.original.utf8).write(to: dir.child("a.json"))
            let missing = lint(["a.json", "--baseline", "nope.json"], in: dir)
            #expect(missing.status == 2 && missing.stdout.isEmpty, "\(missing)")
            #expect(
                missing.stderrLines.count == 1 && missing.stderr.hasPrefix("nope.json: error: cannot read baseline"),
                "\(missing)")
            let dash = lint(["a.json", "--write-baseline", "-"], in: dir)
            #expect(dash.status == 64, "\(dash)")
        }
    }

    @Test("no baseline is written when a file cannot be linted, and an existing one is left as it was")
    func noPartialBaseline() throws {
        try withTemporaryDirectory { dir in
            try writeBaseline(in: dir)
            let before = try contents(dir.child("baseline.json"))
            let result = lint(["a.json", "missing.json", "--write-baseline", "baseline.json"], in: dir)
            #expect(result.status == 2, "\(result)")
            #expect(
                result.stderr.contains("baseline.json: error: baseline not written: some files could not be linted"),
                "\(result)")
            #expect(try contents(dir.child("baseline.json")) == before)
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("the baseline is the findings after the selection: a disabled rule is not recorded")
    func afterSelection() throws {
        try withTemporaryDirectory { dir in
            try Data(Self.original.utf8).write(to: dir.child("a.json"))
            let result = lint(["a.json", "--disable", "unknown-key", "--write-baseline", "b.json"], in: dir)
            #expect(result.status == 1, "\(result)")
            let baseline = try Baseline(json: try contents(dir.child("b.json")))
            #expect(baseline.entries.map(\.rule) == [.emptyAppID])
        }
    }
}
