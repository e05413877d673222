import AASA
import AASAReports
import AASATestSupport
import Foundation
import Testing

/// The report formats as a library user meets them (issue #26): a ``Report`` built from real
/// lint and verification results, each writer's bytes checked against the format's published
/// schema where there is one (SARIF 2.1.0, JUnit) and field by field otherwise. The CLI's
/// SARIFOutputTests and CIReportFormatTests run the same formats end to end.
@Suite struct ReportWriterTests {
    /// Line 5 holds "é" (2 bytes, 1 UTF-16 unit) and "😀" (4 bytes, 2 units) before the
    /// duplicate app ID: its byte column is 62, its UTF-16 column 59. "extra" is an unknown key.
    static let json = Data(
        """
        {
          "applinks": {
            "details": [
              {
                "appIDs": ["é😀.x", "ABCDE12345.com.example.app", "ABCDE12345.com.example.app"],
                "components": [{ "/": "/help/*" }],
                "extra": 1
              }
            ]
          }
        }

        """.utf8)

    /// Markup, quotes, a control character, a line feed and a right-to-left override.
    static let hostileName = "<b>&\"'|[x](javascript:e)\u{1}\n\u{202E}*.json"

    static func lintSubject(_ path: String, _ data: Data = json) -> ReportSubject {
        let report = Linter.lint(data)
        return ReportSubject(path: path, lint: report, diagnostics: report.diagnostics)
    }

    static func report(_ subjects: [ReportSubject], unreadable: [UnreadableInput] = [], failOn: Severity = .error)
        -> Report
    {
        Report(
            context: ReportContext(
                command: "lint", rules: RuleBook.lint(), failOn: failOn, workingDirectory: "/srv/site",
                date: Date(timeIntervalSince1970: 1_790_000_000)),
            subjects: subjects, unreadable: unreadable)
    }

    func sarifRun(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let (run, problems) = SARIFCheck.check(data)
        #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
        return try #require(run, sourceLocation: sourceLocation)
    }

    func results(_ run: [String: Any]) -> [[String: Any]] { run["results"] as? [[String: Any]] ?? [] }

    func physical(_ result: [String: Any]) -> [String: Any] {
        ((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]) ?? [:]
    }

    @Test("SARIF: schema-valid; UTF-16 columns; relative, absolute and stdin artifacts; unreadable inputs")
    func sarif() throws {
        let subjects = [Self.lintSubject("plain.json"), Self.lintSubject("/abs/a b.json"), Self.lintSubject("-")]
        let report = Self.report(subjects, unreadable: [UnreadableInput(path: "gone.json", message: "no such file")])
        let run = try sarifRun(try SARIFWriter().write(report))
        let all = results(run)
        #expect(all.count == 3 * Linter.lint(Self.json).diagnostics.count)
        let uris = all.map { (physical($0)["artifactLocation"] as? [String: Any])?["uri"] as? String }
        #expect(Set(uris.compactMap { $0 }) == ["plain.json", "file:///abs/a%20b.json", "stdin"], "\(uris)")
        let duplicate = try #require(all.first { $0["ruleId"] as? String == "duplicate-appid" })
        #expect(physical(duplicate)["region"] as? [String: Int] == ["startLine": 5, "startColumn": 59])
        let root = (run["originalUriBaseIds"] as? [String: [String: String]])?["%SRCROOT%"]?["uri"]
        #expect(root == "file:///srv/site/")
        let invocation = (run["invocations"] as? [[String: Any]])?.first
        #expect(invocation?["executionSuccessful"] as? Bool == false)
        let driver = (run["tool"] as? [String: Any])?["driver"] as? [String: Any]
        #expect(driver?["name"] as? String == "aasa" && driver?["version"] as? String == AASAVersion.number)
        #expect((driver?["rules"] as? [Any])?.count == RuleBook.lint().rules.count)
    }

    @Test("SARIF: a rule outside the command's rule book gets its help added, not a dangling index")
    func sarifRuleOutsideTheBook() throws {
        let diagnostic = Diagnostic(DeprecationReport.expiredRule, "expired", at: .file)
        let subject = ReportSubject(
            path: "f.p7m", mimeType: nil, positions: .none, findings: [.init(diagnostic: diagnostic)])
        let run = try sarifRun(try SARIFWriter().write(Self.report([subject])))
        let rules = ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]]
        #expect(rules?.count == RuleBook.lint().rules.count + 1)
        #expect(rules?.last?["id"] as? String == DeprecationReport.expiredRule.rawValue)
    }

    @Test("JUnit: valid against the JUnit schema; a case per input, failures at --fail-on, errors for unreadable")
    func junit() throws {
        let report = Self.report(
            [Self.lintSubject("plain.json"), Self.lintSubject(Self.hostileName, Data("{}".utf8))],
            unreadable: [UnreadableInput(path: "gone.json", message: "no such <file>")], failOn: .warning)
        let data = JUnitWriter().write(report)
        let validation = SchemaValidation.xml(
            data, schema: Repository.root.appendingPathComponent("Tests/Fixtures/schemas/JUnit.xsd"))
        #expect(validation.valid, "\(validation)")
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("tests=\"3\" failures=\"2\" errors=\"1\""), "\(text)")
        #expect(text.contains("timestamp=\"2026-09-21T"), "the context's date: \(text)")
        #expect(!text.contains("<b>") && !text.contains("\u{202E}") && !text.contains("\u{1}"))
        #expect(text.contains("no such &lt;file&gt;"))
    }

    @Test("GitLab Code Quality: an issue per finding, unique fingerprints, GitLab's severities")
    func gitlab() throws {
        let data = try GitLabCodeQualityWriter().write(
            Self.report([Self.lintSubject("a.json"), Self.lintSubject("a.json")]))
        let issues = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let count = Linter.lint(Self.json).diagnostics.count
        #expect(issues.count == 2 * count)
        let fingerprints = issues.compactMap { $0["fingerprint"] as? String }
        #expect(Set(fingerprints).count == issues.count, "the same file twice: the second gets #2: \(fingerprints)")
        #expect(fingerprints.filter { $0.hasSuffix("#2") }.count == count)
        #expect(
            Set(issues.compactMap { $0["severity"] as? String }).isSubset(of: ["info", "minor", "major", "critical"]))
        let duplicate = try #require(issues.first { $0["check_name"] as? String == "duplicate-appid" })
        #expect((duplicate["location"] as? [String: Any])?["lines"] as? [String: Int] == ["begin": 5])
    }

    @Test("Markdown: a row per input, rule links from the rule book, hostile text escaped")
    func markdown() throws {
        let book = RuleBook(ids: RuleCatalogue.all.map(\.id), base: "https://docs.example.org/rules.md")
        var report = Self.report(
            [Self.lintSubject(Self.hostileName)], unreadable: [UnreadableInput(path: "x|y", message: "[m](n)")])
        report.context.rules = book
        let text = String(decoding: MarkdownWriter().write(report), as: UTF8.self)
        #expect(text.hasPrefix("## aasa lint: 2 files, 0 failing at error, 1 unreadable\n"), "\(text)")
        #expect(text.contains("[duplicate-appid](https://docs.example.org/rules.md#duplicate-appid)"), "\(text)")
        #expect(text.contains("| x\\|y | unreadable | | | | |"), "\(text)")
        #expect(!text.contains("<b>") && !text.contains("](javascript:e)") && !text.contains("](n)"))
        #expect(!text.contains("\u{1}") && !text.contains("\u{202E}"))
    }

    @Test("diagnostic lines: PATH:LINE:COL: severity: [rule] message (at path), one per finding")
    func diagnosticLines() throws {
        let subject = Self.lintSubject("a.json")
        let text = String(decoding: DiagnosticLineWriter().record(subject), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count == subject.findings.count)
        #expect(
            lines.contains {
                $0.hasPrefix("a.json:5:62: warning: [duplicate-appid] ")
                    && $0.hasSuffix("(at applinks.details[0].appIDs[2])")
            }, "\(text)")
        let stdin = Diagnostic(.invalidJSON, "bad", at: .file)
        #expect(DiagnosticLineWriter.line(stdin, path: "-") == "<stdin>: error: [invalid-json] bad")
    }

    @Test("verification: a valid file has no finding; an invalid one its rule at error")
    func verificationSubjects() throws {
        let example = try Data(
            contentsOf: Repository.root.appendingPathComponent("examples/apple-app-site-association.p7m"))
        let trust = try TrustStore(
            TrustConfiguration(
                useSystemRoots: false, anchorFiles: [Repository.root.appendingPathComponent("certs/ca-bundle.pem").path]
            ))
        let valid = Verifier(trust: trust).verify(example)
        #expect(ReportSubject(path: "e.p7m", verification: valid).findings.isEmpty, "\(valid.verdict)")
        let untrusted = try Verifier(trust: TrustStore(TrustConfiguration(useSystemRoots: false))).verify(example)
        let findings = ReportSubject(path: "e.p7m", verification: untrusted).findings
        #expect(findings.count == 1 && findings.first?.diagnostic.severity == .error, "\(findings)")
    }

    @Test("rule book: extra rules and their next steps; a rule no registry knows gets generic help")
    func ruleBook() {
        let lint = RuleBook.lint()
        #expect(lint.rules.map(\.id) == RuleCatalogue.all.map(\.id))
        #expect(
            lint.rules.allSatisfy {
                $0.url == nil && $0.text.hasSuffix("Documentation: `aasa rules \($0.id.rawValue)`.")
            })
        let unknown = lint.help(for: RuleID(rawValue: "no-such-rule"))
        #expect(unknown.summary == "A finding of rule no-such-rule.")
        #expect(lint.home == nil)
        let forge = RuleBook.lint(base: "https://git.example.org/team/aasa/blob/v1/docs/rules.md")
        #expect(forge.home == "https://git.example.org/team/aasa")
        #expect(forge.rules.allSatisfy { $0.url == forge.base! + "#" + $0.id.rawValue })
        #expect(
            forge.rules.first?.markdown.hasSuffix("or [docs/rules.md](\(forge.base!)#\(forge.rules[0].id.rawValue)).")
                == true)
    }
}

/// The JSON records that docs/schemas/ documents, encoded by the library as the CLI prints them.
@Suite struct ReportRecordTests {
    @Test("a verification record, stamped, is valid against docs/schemas/verify.schema.json: valid and untrusted")
    func verificationRecord() throws {
        let example = try Data(
            contentsOf: Repository.root.appendingPathComponent("examples/apple-app-site-association.p7m"))
        let anchors = [Repository.root.appendingPathComponent("certs/ca-bundle.pem").path]
        let schema = Repository.root.appendingPathComponent("docs/schemas/verify.schema.json")
        var verdicts: [String] = []
        for trust in [
            try TrustStore(TrustConfiguration(useSystemRoots: false, anchorFiles: anchors)),
            try TrustStore(TrustConfiguration(useSystemRoots: false)),
        ] {
            let options = VerificationOptions()
            let result = Verifier(trust: trust, options: options).verify(example)
            let record = VerificationReport(path: "example.p7m", result: result, options: options)
            let data = try ReportJSON.encode(Stamped(record, .verify))
            let validation = SchemaValidation.json(data, schema: schema)
            #expect(validation.valid, "\(validation)")
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["schemaVersion"] as? Int == JSONSchemaKind.verify.version)
            #expect(object["aasaVersion"] as? String == AASAVersion.number)
            #expect(object.keys.contains("reason") && object.keys.contains("historical"), "explicit nulls")
            verdicts.append(record.verdict)
        }
        #expect(verdicts == ["valid", "untrusted"])
    }
}
