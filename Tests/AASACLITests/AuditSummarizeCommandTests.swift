import Foundation
import Testing

/// `aasa audit summarize` over hand-written result lines: the edge cases a real audit does not
/// produce on demand (overlapping shards, a cut last line, garbage, another schemaVersion, an
/// expired signer, hostile text). Real audit output is summarized in
/// AASAAuditTests/AuditSummarizeTests.
@Suite struct AuditSummarizeCommandTests {
    static let schema = Repository.root.appendingPathComponent("docs/schemas/fleet.schema.json")

    struct Signer {
        var subject: String
        var issuer = "CN=Test CA"
        var notAfter: String
        var fingerprint = "CC:03"
    }

    /// One compact audit record as `aasa audit --format jsonl` writes it (the keys summarize
    /// reads, and a few it ignores).
    static func record(
        _ domain: String, _ verdict: String, findings: [(rule: String, severity: String)] = [], signer: Signer? = nil,
        schemaVersion: Int = 1, settings: [String: Any]? = nil
    ) throws -> String {
        var file: Any = NSNull()
        if let signer {
            let certificate: [String: Any] = [
                "subject": signer.subject, "issuer": signer.issuer, "notBefore": "2015-01-01T00:00:00Z",
                "notAfter": signer.notAfter, "subjectAlternativeNames": [], "key": "RSA 2048",
                "sha256Fingerprint": signer.fingerprint,
            ]
            file = [
                "url": "https://\(domain)/apple-app-site-association", "kind": "pkcs7-der", "signed": true,
                "size": 2000, "items": [],
                "signature": ["valid": true, "verdict": "valid", "identity": "unknown", "signer": certificate],
            ]
        }
        var object: [String: Any] = [
            "schemaVersion": schemaVersion, "aasaVersion": "0.2.0", "domain": domain, "host": domain, "port": 443,
            "verdict": verdict, "file": file, "paths": [], "tls": NSNull(), "cdn": NSNull(),
            "diagnostics": findings.map {
                [
                    "rule": $0.rule, "severity": $0.severity, "message": "m", "url": NSNull(),
                    "location": ["path": "$", "line": NSNull(), "column": NSNull()],
                ]
            },
            "startedAt": "2026-01-01T00:00:00Z", "durationMs": 1,
        ]
        if let settings { object["settings"] = settings }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    static let oldSigner = Signer(subject: "CN=old.example.com", notAfter: "2020-01-01T00:00:00Z", fingerprint: "AA:01")
    static let newSigner = Signer(subject: "CN=*.example.com", notAfter: "2030-06-30T12:00:00Z", fingerprint: "BB:02")

    /// Two shards that both report b.example.com (broken, then legacy: the second wins), with
    /// a garbage line, a record of another schemaVersion and a last line cut short in the second.
    static func shards(in directory: URL) throws {
        let first = [
            try record("a.example.com", "current"),
            try record("b.example.com", "broken", findings: [("no-file", "error")]),
            try record(
                "c.example.com", "legacy",
                findings: [("signed-file", "deprecation"), ("served-at-root-only", "warning")],
                signer: oldSigner),
        ]
        let cut = try record("e.example.com", "current")
        let second = [
            try record("b.example.com", "legacy", findings: [("signed-file", "deprecation")], signer: newSigner),
            "hello, not json",
            try record(
                "d.example.com", "needs-attention", findings: [("content-type", "warning"), ("content-type", "error")]),
            try record("f.example.com", "current", schemaVersion: 2),
            String(cut.prefix(cut.count / 2)),
        ]
        try Data((first.joined(separator: "\n") + "\n").utf8).write(to: directory.child("shard-1.jsonl"))
        try Data(second.joined(separator: "\n").utf8).write(to: directory.child("shard-2.jsonl"))  // no final newline
    }

    /// ``shards(in:)`` written to `directory`, then summarized in `format` with signers judged at 2026-01-01.
    static func summarizeShards(format: String, in directory: URL) throws -> ProcessResult {
        try shards(in: directory)
        return CLI.run(
            ["audit", "summarize", "shard-1.jsonl", "shard-2.jsonl", "--at", "2026-01-01", "--format", format],
            in: directory)
    }

    @Test("the EXAMPLES of summarize's help run as printed where the result files are, and exit 0")
    func helpExamplesRun() throws {
        let help = CLI.run(["audit", "summarize", "--help"]).stdoutText
        let start = try #require(help.range(of: "EXAMPLES"), "\(help)")
        // The heading may wrap; the examples are the indented lines after it.
        let examples = help[start.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("  aasa ") }
            .prefix { $0.hasPrefix("  ") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(examples.count == 2, "\(examples)")
        try withTemporaryDirectory { directory in
            let bin = try CLI.binDirectory(in: directory)
            for (name, domains) in [("results", ["a", "b"]), ("shard-1", ["a"]), ("shard-2", ["b", "c"])] {
                let lines = try domains.map { try Self.record("\($0).example.com", "current") }
                try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.child("\(name).jsonl"))
            }
            for example in examples {
                let run = ProcessRunner.run(
                    URL(fileURLWithPath: "/bin/bash"), ["-c", example],
                    environment: ["PATH": bin.path + ":/usr/bin:/bin"], in: directory)
                #expect(run.status == 0, "`\(example)`: \(run)")
                if example.hasSuffix("--format json") {
                    let report = try #require(try run.json() as? [String: Any], "`\(example)`: \(run)")
                    #expect(report["domains"] as? Int == 3, "`\(example)`: \(run)")
                } else {
                    #expect(
                        run.stdoutText.contains("Fleet summary: 2 domains from 2 audit records in 1 file"), "\(run)")
                }
            }
        }
    }

    @Test("--format csv: a row per domain, sorted, the last record of a domain winning, signers' expiry at --at")
    func csvHasARowPerDomain() throws {
        try withTemporaryDirectory { directory in
            let result = try Self.summarizeShards(format: "csv", in: directory)
            #expect(result.status == 0, "\(result)")
            let rows = result.stdoutText.components(separatedBy: "\r\n")
            #expect(rows.last == "", "every row ends with CRLF")
            #expect(
                Array(rows.dropLast()) == [
                    "domain,verdict,errors,warnings,deprecations,rules,signer_subject,signer_issuer,signer_not_after,signer_expired,signer_sha256"
                ] + Self.expectedCSVRows, "\(result.stdoutText)")
            // The skipped lines are said on standard error, as for the other formats.
            #expect(result.stderrLines.count == 3, "\(result)")
        }
    }

    @Test("--list: the domains that meet every condition, a name a line, their CSV rows, or a JSON array")
    func listSelectsDomains() throws {
        try withTemporaryDirectory { directory in
            try Self.shards(in: directory)
            func list(_ conditions: [String], _ format: String = "text") -> ProcessResult {
                CLI.run(
                    ["audit", "summarize", "shard-1.jsonl", "shard-2.jsonl", "--at", "2026-01-01", "--format", format]
                        + conditions.flatMap { ["--list", $0] }, in: directory)
            }
            let legacy = list(["verdict=legacy"])
            #expect(legacy.status == 0, "\(legacy)")
            #expect(legacy.stdoutText == "b.example.com\nc.example.com\n", "\(legacy)")
            #expect(legacy.stderrLines.last == "summarize: note: 2 of 4 domains meet verdict=legacy", "\(legacy)")
            #expect(list(["verdict=legacy", "signer=expired"]).stdoutText == "c.example.com\n")
            let csv = list(["rule=content-type"], "csv")
            #expect(
                csv.stdoutText.components(separatedBy: "\r\n").dropFirst().first == Self.expectedCSVRows[3], "\(csv)")
            let json = list(["signer=none"], "json")
            #expect(try json.json() as? [String] == ["a.example.com", "d.example.com"], "\(json)")
            for (conditions, format) in [
                (["verdict=bad"], "text"), (["colour=red"], "text"), (["verdict=broken"], "markdown"),
                (["verdict=broken"], "html"),
            ] {
                let refused = list(conditions, format)
                #expect(refused.status == 64, "\(conditions) \(format): \(refused)")
                #expect(refused.stdout.isEmpty, "\(refused)")
            }
        }
    }

    /// `--format html` (issue #30; FleetPageTests load pages in Chromium): one document with
    /// its policy, each domain once as its last record says, the signers and the rules.
    @Test("--format html: one self-contained page of every domain's last record")
    func htmlPageOfTheShards() throws {
        try withTemporaryDirectory { directory in
            let result = try Self.summarizeShards(format: "html", in: directory)
            #expect(result.status == 0, "\(result)")
            let page = result.stdoutText
            #expect(page.hasPrefix("<!DOCTYPE html>\n") && page.hasSuffix("</html>\n"), "\(page.prefix(200))")
            #expect(page.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "))
            #expect(page.contains("<title>aasa fleet report: 4 domains</title>"))
            let data = try #require(page.range(of: "<script type=\"application/json\" id=\"aasa-data\">"))
            let end = try #require(page.range(of: "</script>", range: data.upperBound..<page.endIndex))
            let json = try JSONSerialization.jsonObject(with: Data(page[data.upperBound..<end.lowerBound].utf8))
            let domains = try #require((json as? [String: Any])?["domains"] as? [[String: Any]])
            #expect(
                domains.compactMap { $0["domain"] as? String } == [
                    "a.example.com", "b.example.com", "c.example.com", "d.example.com",
                ])
            #expect(domains[1]["verdict"] as? String == "legacy", "b.example.com's last record wins")
            // signed-file's next step, in its documentation and for the details' findings.
            #expect(page.contains("<p>Next step: <code>aasa convert</code>: Writes the embedded JSON as plain JSON"))
            #expect(page.contains(#""fixes":{"signed-file":"`aasa convert`: Writes the embedded JSON"#))
            for text in [
                "CN=old.example.com", "CN=*.example.com", "<code>served-at-root-only</code>",
                "1 later record replaced an earlier one",
            ] {
                #expect(page.contains(text), "no \(text) in the page")
            }
        }
    }

    /// The settings of a record as `aasa audit` writes them, with `changes` applied.
    static func settings(_ changes: [String: Any] = [:]) -> [String: Any] {
        var settings: [String: Any] = [
            "checkTime": NSNull(), "historical": false, "cdn": false, "systemRoots": true, "extraAnchors": 0,
            "proxy": false, "timeoutSeconds": 10, "retries": 2, "maximumBodyBytes": 135_168, "rate": NSNull(),
            "maximumPerAddress": NSNull(), "disabledRules": [String](), "ruleSeverities": [String: String](),
        ]
        settings.merge(changes) { $1 }
        return settings
    }

    @Test("the page's headline gives the settings of the run, or of each run when shards were audited differently")
    func htmlHeadlineGivesTheSettings() throws {
        let legacy = Self.settings([
            "checkTime": "2015-09-15T00:00:00Z", "historical": true, "systemRoots": false, "extraAnchors": 1,
        ])
        let cdn = Self.settings([
            "cdn": true, "proxy": true, "timeoutSeconds": 2.5, "rate": 50, "maximumPerAddress": 4,
            "disabledRules": ["served-at-root-only"], "ruleSeverities": ["content-type": "warning"],
        ])
        let legacyWords =
            "<code>--at 2015-09-15T00:00:00Z</code>, <code>--historical</code>, "
            + "<code>trust: 1 extra anchor only (--no-system-roots)</code>, <code>--timeout 10 s</code>, "
            + "<code>--retries 2</code>"
        try withTemporaryDirectory { directory in
            // One run: one line.
            let one = try ["a", "b"].map { try Self.record("\($0).example.com", "current", settings: legacy) }
            try Data(one.joined(separator: "\n").utf8).write(to: directory.child("one.jsonl"))
            let single = CLI.run(["audit", "summarize", "one.jsonl", "--format", "html"], in: directory)
            #expect(single.status == 0, "\(single)")
            #expect(single.stdoutText.contains("<p id=\"settings\">Settings: \(legacyWords).</p>"), "\(single)")

            // Shards of different runs, and a record of aasa 0.2.0 that says nothing of its settings.
            let mixed = [
                try Self.record("a.example.com", "current", settings: legacy),
                try Self.record("b.example.com", "current", settings: legacy),
                try Self.record("c.example.com", "current", settings: cdn),
                try Self.record("d.example.com", "current"),
            ]
            try Data(mixed.joined(separator: "\n").utf8).write(to: directory.child("mixed.jsonl"))
            let result = CLI.run(["audit", "summarize", "mixed.jsonl", "--format", "html"], in: directory)
            #expect(result.status == 0, "\(result)")
            let page = result.stdoutText
            for text in [
                "<p id=\"settings\">The records were audited with 2 different settings: 1 record does not say how (aasa 0.2.0 and earlier).</p>",
                "<li>2 domains: \(legacyWords)</li>",
                "<li>1 domain: <code>--cdn</code>, <code>trust: the system roots</code>, <code>through a proxy</code>, "
                    + "<code>--timeout 2.5 s</code>, <code>--retries 2</code>, <code>--rate 50</code>, "
                    + "<code>--max-per-address 4</code>, <code>--disable served-at-root-only</code>, "
                    + "<code>--severity content-type=warning</code></li>",
            ] {
                #expect(page.contains(text), "no \(text) in \(page.prefix(3000))")
            }
            // Given once in the headline, not in each domain's entry of the data block.
            #expect(!page.contains("\"settings\":") && !page.contains("\"historical\""))
        }
    }

    /// One reader of a record (``AuditLine``) for every format: a record with a key of another
    /// type than the schema's is no record, skipped with a warning that names the key (never the
    /// line's text), and the page, the text and the JSON summary all count the same domains.
    @Test("a record with a key of another type than the schema's is skipped with the key named, in every format")
    func recordOfAnotherShapeIsSkippedAlike() throws {
        try withTemporaryDirectory { directory in
            let good = try Self.record("a.example.com", "current")
            let odd = try Self.record("b.example.com", "broken", findings: [("no-file", "error")])
                .replacingOccurrences(of: #""paths":[]"#, with: #""paths":"not a list \u001b[2J""#)
            #expect(odd.contains(#""paths":"not a list"#))
            try Data([good, odd].joined(separator: "\n").utf8).write(to: directory.child("r.jsonl"))
            let warning =
                "r.jsonl:2: warning: an audit record whose \"paths\" is not as the audit schema has it: skipped"
            let html = CLI.run(["audit", "summarize", "r.jsonl", "--format", "html"], in: directory)
            #expect(html.stderrLines == [warning], "\(html)")
            let page = html.stdoutText
            let data = try #require(page.range(of: "<script type=\"application/json\" id=\"aasa-data\">"))
            let end = try #require(page.range(of: "</script>", range: data.upperBound..<page.endIndex))
            let json = try JSONSerialization.jsonObject(with: Data(page[data.upperBound..<end.lowerBound].utf8))
            let domains = try #require((json as? [String: Any])?["domains"] as? [[String: Any]])
            #expect(domains.map { $0["domain"] as? String } == ["a.example.com"])
            let summary = CLI.run(["audit", "summarize", "r.jsonl", "--format", "json"], in: directory)
            #expect(summary.stderrLines == [warning], "\(summary)")
            let document = try JSONSerialization.jsonObject(with: Data(summary.stdoutText.utf8)) as? [String: Any]
            #expect(document?["domains"] as? Int == 1, "\(summary)")
            #expect(html.status == summary.status, "\(html) \(summary)")
        }
    }

    /// The rows of ``shards(in:)``: b.example.com as its second record says (legacy, the new signer).
    static let expectedCSVRows = [
        "a.example.com,current,0,0,0,,,,,,",
        "b.example.com,legacy,0,0,1,signed-file,CN=*.example.com,CN=Test CA,2030-06-30T12:00:00Z,no,BB:02",
        "c.example.com,legacy,0,1,1,served-at-root-only signed-file,CN=old.example.com,CN=Test CA,2020-01-01T00:00:00Z,yes,AA:01",
        "d.example.com,needs-attention,1,1,0,content-type,,,,,",
    ]

    @Test func overlappingShardsCountEachDomainOnceAndReportEachBadLine() throws {
        try withTemporaryDirectory { directory in
            try Self.shards(in: directory)
            let result = CLI.run(
                ["audit", "summarize", "shard-1.jsonl", "shard-2.jsonl", "--at", "2026-01-01"], in: directory)
            #expect(result.status == 0, "\(result)")
            #expect(
                result.stderrLines == [
                    "shard-2.jsonl:2: warning: not JSON (a line cut short, or not audit output): skipped",
                    "shard-2.jsonl:4: warning: an audit record of schemaVersion 2; this aasa reads schemaVersion 1: skipped",
                    "shard-2.jsonl:5: warning: not JSON (a line cut short, or not audit output): skipped",
                ], "\(result)")
            let text = result.stdoutText
            #expect(
                text.hasPrefix(
                    "Fleet summary: 4 domains from 5 audit records in 2 files, 8 lines (1 duplicate merged, 3 lines skipped)\n"
                        + "Signer expiry judged at 2026-01-01T00:00:00Z\n"), "\(text)")
            for line in [
                "  shard-1.jsonl      3        3        0",
                "  shard-2.jsonl      5        2        3",
                "  current          1", "  legacy           2", "  needs-attention  1",
                "  signed-file          deprecation        2         2",
                "  content-type         error              1         2",
                "  served-at-root-only  warning            1         1",
                "Signed files: 2 domains, 2 signers, 1 expired (1 domain)",
                "  2020-01-01T00:00:00Z        1  expired  CN=old.example.com  CN=Test CA  AA:01",
                "  2030-06-30T12:00:00Z        1  valid    CN=*.example.com    CN=Test CA  BB:02",
            ] {
                #expect(text.contains(line + "\n"), "no line '\(line)' in:\n\(text)")
            }
            // b.example.com's first record (broken, no-file) was replaced by its second.
            #expect(!text.contains("broken") && !text.contains("no-file"), "\(text)")
            // docs/audit.md shows this very output as its example.
            let guide = try String(
                contentsOf: Repository.root.appendingPathComponent("docs/audit.md"), encoding: .utf8)
            let example = try #require(
                guide.components(separatedBy: "```text\n").first { $0.hasPrefix("Fleet summary: ") }?
                    .components(separatedBy: "```").first)
            #expect(example == text, "docs/audit.md's example differs from:\n\(text)")
        }
    }

    @Test func jsonHasTheSameCountsAndValidatesAgainstTheFleetSchema() throws {
        try withTemporaryDirectory { directory in
            let result = try Self.summarizeShards(format: "json", in: directory)
            #expect(result.status == 0, "\(result)")
            let outcome = SchemaValidation.json(result.stdout, schema: Self.schema)
            #expect(outcome.valid, "\(outcome)\n\(result)")
            let document = try result.jsonObject()
            #expect(document["schemaVersion"] as? Int == 1)
            #expect(document["at"] as? String == "2026-01-01T00:00:00Z")
            #expect(document["domains"] as? Int == 4)
            #expect(document["records"] as? Int == 5)
            #expect(document["duplicates"] as? Int == 1)
            #expect(document["skipped"] as? Int == 3)
            #expect(document["lines"] as? Int == 8)
            #expect(document["unreadableFiles"] as? Int == 0)
            #expect(
                document["verdicts"] as? [String: Int] == ["current": 1, "legacy": 2, "needs-attention": 1])
            let rules = try #require(document["rules"] as? [[String: Any]])
            #expect(rules.map { $0["rule"] as? String } == ["signed-file", "content-type", "served-at-root-only"])
            #expect(rules.map { $0["domains"] as? Int } == [2, 1, 1])
            #expect(rules.map { $0["findings"] as? Int } == [2, 2, 1])
            #expect(rules.map { $0["severity"] as? String } == ["deprecation", "error", "warning"])
            let signers = try #require(document["signers"] as? [[String: Any]])
            #expect(signers.map { $0["subject"] as? String } == ["CN=old.example.com", "CN=*.example.com"])
            #expect(signers.map { $0["expired"] as? Bool } == [true, false])
            #expect(signers.map { $0["notAfter"] as? String } == ["2020-01-01T00:00:00Z", "2030-06-30T12:00:00Z"])
            #expect(document["signedDomains"] as? Int == 2)
            #expect(document["expiredSigners"] as? Int == 1)
            let files = try #require(document["files"] as? [[String: Any]])
            #expect(files.map { $0["skipped"] as? Int } == [0, 3])
            #expect(files.allSatisfy { $0["error"] is NSNull })

            // The schema is closed: a renamed key fails it.
            let renamed = result.stdoutText.replacingOccurrences(of: "\"duplicates\" :", with: "\"merged\" :")
            #expect(renamed != result.stdoutText)
            #expect(!SchemaValidation.json(Data(renamed.utf8), schema: Self.schema).valid)
        }
    }

    /// The last record read wins: the same shards in the other order give b.example.com its broken verdict back.
    @Test func theLastRecordOfADomainWins() throws {
        try withTemporaryDirectory { directory in
            try Self.shards(in: directory)
            let result = CLI.run(
                ["audit", "summarize", "shard-2.jsonl", "shard-1.jsonl", "--format", "json"], in: directory)
            let document = try result.jsonObject()
            #expect(
                document["verdicts"] as? [String: Int] == [
                    "current": 1, "legacy": 1, "needs-attention": 1, "broken": 1,
                ])
            #expect(document["duplicates"] as? Int == 1)
        }
    }

    /// Blank lines are no records and no warnings; a line over the 4 MiB cap is one warning,
    /// and the records around it are counted; domains are compared without ASCII case.
    @Test func blankAndOverLongLinesAndDomainCase() throws {
        let long = "{\"schemaVersion\":1,\"domain\":\"" + String(repeating: "x", count: 4 * 1024 * 1024) + "\"}"
        let lines = [
            try Self.record("a.example.com", "broken"), "", "   ", long,
            try Self.record("A.Example.COM", "current"), try Self.record("b.example.com", "current"),
        ]
        let result = CLI.run(
            ["audit", "summarize", "-", "--format", "json"], stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 0, "\(result.status) \(result.stderr)")
        #expect(
            result.stderrLines == ["<stdin>:4: warning: a line longer than 4 MiB is no audit record: skipped"],
            "\(result.stderr)")
        let document = try result.jsonObject()
        #expect(document["lines"] as? Int == 6)
        #expect(document["records"] as? Int == 3)
        #expect(document["skipped"] as? Int == 1)
        #expect(document["duplicates"] as? Int == 1)
        #expect(document["verdicts"] as? [String: Int] == ["current": 2])
    }

    /// Expiry is judged at --at: the same signer is valid the day before its notAfter and expired after.
    @Test func expiryIsJudgedAtTheGivenTime() throws {
        let line = try Self.record("a.example.com", "legacy", signer: Self.oldSigner) + "\n"
        for (at, expired) in [("2019-12-31T23:59:59Z", false), ("2020-01-01T00:00:01Z", true)] {
            let result = CLI.run(["audit", "summarize", "-", "--at", at, "--format", "json"], stdin: Data(line.utf8))
            #expect(result.status == 0, "\(result)")
            let signers = try #require(try result.jsonObject()["signers"] as? [[String: Any]])
            #expect(signers.count == 1)
            #expect(signers.first?["expired"] as? Bool == expired, "--at \(at)")
        }
    }

    @Test func anUnreadableFileIsAnErrorAndExit2AfterTheSummaryOfTheOthers() throws {
        try withTemporaryDirectory { directory in
            try Self.shards(in: directory)
            let result = CLI.run(["audit", "summarize", "shard-1.jsonl", "missing.jsonl"], in: directory)
            #expect(result.status == 2, "\(result)")
            #expect(
                result.stderrLines == ["missing.jsonl: error: cannot read result file: No such file or directory"],
                "\(result)")
            #expect(
                result.stdoutText.hasPrefix(
                    "Fleet summary: 3 domains from 3 audit records in 2 files, 3 lines (1 file unreadable)\n"),
                "\(result)")
        }
    }

    /// A gate on the summary must not pass on nothing: no record in any file is status 2 with one
    /// line; a file of records beside it is summarized as before.
    @Test func noRecordAtAllIsAnErrorAndExit2() throws {
        for (input, lines) in [("", 0), ("\n\n", 2), ("not audit output\n", 1)] {
            let result = CLI.run(["audit", "summarize", "-"], stdin: Data(input.utf8))
            #expect(result.status == 2, "\(input.debugDescription): \(result)")
            #expect(
                result.stderrLines.last
                    == "summarize: error: no audit record in 1 file: give the output of 'aasa audit --format jsonl'",
                "\(result)")
            #expect(result.stderrLines.count == (lines == 1 ? 2 : 1), "\(result)")
        }
        let one = CLI.run(
            ["audit", "summarize", "-"], stdin: Data((try Self.record("a.example.com", "current") + "\n").utf8))
        #expect(one.status == 0 && one.stderr.isEmpty, "\(one)")
    }

    /// The natural slip: the one document of `audit --format json` (pretty-printed: its first line
    /// is `{`) or an array of records. One line says what it is and what summarize reads, with no
    /// warning per line; a JSONL file given beside it is still counted.
    @Test func aFormatJSONDocumentIsRecognisedWithOneLine() throws {
        try withTemporaryDirectory { directory in
            try Self.shards(in: directory)
            let record = try Self.record("z.example.com", "current")
            try Data(("{\n  \"aasaVersion\" : \"0.2.0\",\n  \"domains\" : [\n    " + record + "\n  ]\n}\n").utf8)
                .write(to: directory.appendingPathComponent("audit.json"))
            try Data(("[\n" + record + "\n]\n").utf8).write(to: directory.appendingPathComponent("array.json"))
            for name in ["audit.json", "array.json"] {
                let result = CLI.run(["audit", "summarize", name], in: directory)
                #expect(result.status == 2, "\(result)")
                #expect(
                    result.stderrLines == [
                        "\(name): error: this is one JSON document, as 'aasa audit --format json' writes it; summarize "
                            + "reads 'aasa audit --format jsonl' (one record per line): nothing of this file is counted"
                    ], "\(result)")
            }
            let beside = CLI.run(["audit", "summarize", "shard-1.jsonl", "audit.json"], in: directory)
            #expect(beside.status == 2 && beside.stderrLines.count == 1, "\(beside)")
            #expect(
                beside.stdoutText.hasPrefix("Fleet summary: 3 domains from 3 audit records in 2 files"), "\(beside)")
        }
    }

    /// Hostile text from a result file: a subject with Markdown, HTML and an escape sequence,
    /// a file name with a pipe. Markdown gets literal text; the terminal gets no raw ESC.
    @Test func hostileTextIsEscapedInMarkdownAndText() throws {
        try withTemporaryDirectory { directory in
            let hostile = Signer(subject: "CN=<b>x</b>|[link](http://e)\u{1B}[31m", notAfter: "2030-01-01T00:00:00Z")
            let line = try Self.record(
                "h.example.com", "legacy", findings: [("signed-file", "deprecation")], signer: hostile)
            try Data((line + "\n\u{1B}]0;title\u{07}\n").utf8).write(to: directory.child("a|b.jsonl"))
            let markdown = CLI.run(["audit", "summarize", "a|b.jsonl", "--format", "markdown"], in: directory)
            #expect(markdown.status == 0, "\(markdown)")
            let text = markdown.stdoutText
            #expect(
                text.contains(
                    "| CN\\=&lt;b&gt;x&lt;\\/b&gt;\\|\\[link\\]\\(http\\:\\/\\/e\\)\\\\u{1B}\\[31m | CN\\=Test CA |"),
                "\(text)")
            #expect(text.contains("| a\\|b\\.jsonl | 2 | 1 | 1 | yes |"), "\(text)")
            #expect(!text.contains("\u{1B}") && !text.contains("<b>"), "\(text)")
            let plain = CLI.run(["audit", "summarize", "a|b.jsonl"], in: directory)
            #expect(!plain.stdoutText.contains("\u{1B}") && !plain.stderr.contains("\u{1B}"), "\(plain)")
            #expect(plain.stdoutText.contains("CN=<b>x</b>|[link](http://e)\\u{1B}[31m"), "\(plain)")
            #expect(
                plain.stderrLines == ["a|b.jsonl:2: warning: not JSON (a line cut short, or not audit output): skipped"]
            )
        }
    }

    /// `aasa audit summarize` is parsed through `AASACommand.parsedDirectly` (audit as the root,
    /// summarize its subcommand) and through the whole tree alike; `aasa audit` keeps its own
    /// arguments, and a domain named "summarize" needs `--`.
    @Test func summarizeIsASubcommandOfAuditAndAuditIsUnchanged() throws {
        let help = CLI.run(["audit", "summarize", "--help"])
        #expect(help.status == 0, "\(help)")
        #expect(help.stdoutText.contains("USAGE: aasa audit summarize [<options>] <file.jsonl> ..."), "\(help)")
        #expect(help.stdoutText == CLI.run(["help", "audit", "summarize"]).stdoutText)
        let auditHelp = CLI.run(["audit", "--help"])
        #expect(auditHelp.status == 0 && auditHelp.stdoutText.contains("USAGE: aasa audit"), "\(auditHelp)")
        #expect(auditHelp.stdoutText.contains("summarize"), "\(auditHelp)")
        // audit's own validation, as before: no domain is a usage error.
        let noDomain = CLI.run(["audit"])
        #expect(noDomain.status == 64 && noDomain.stderr.contains("no domain to audit"), "\(noDomain)")
        // After `--`, "summarize" is a domain: audit's validation runs on it (no network: --timeout 0 is refused).
        let domain = CLI.run(["audit", "--timeout", "0", "--", "summarize"])
        #expect(domain.status == 64 && domain.stderr.contains("--timeout must be more than 0"), "\(domain)")
        let noFile = CLI.run(["audit", "summarize"])
        #expect(noFile.status == 64 && noFile.stderr.contains("no result file"), "\(noFile)")
        #expect(noFile.stderr.hasSuffix("  See 'aasa audit summarize --help' for more information.\n"), "\(noFile)")
        let version = CLI.run(["audit", "summarize", "--version"])
        #expect(version.status == 0 && version.stdoutText == CLI.run(["--version"]).stdoutText, "\(version)")
        let badTime = CLI.run(["audit", "summarize", "-", "--at", "soon"])
        #expect(badTime.status == 64 && badTime.stderr.contains("--at 'soon' is not a time"), "\(badTime)")
        // Nothing read is no success (noRecordAtAllIsAnErrorAndExit2); the summary is still printed.
        let empty = CLI.run(["audit", "summarize", "-"], stdin: Data())
        #expect(empty.status == 2, "\(empty)")
        #expect(empty.stdoutText.hasPrefix("Fleet summary: 0 domains from 0 audit records in 1 file, 0 lines\n"))
    }
}
