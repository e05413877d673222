import Foundation
import Testing

/// `aasa audit --format json` and `jsonl` against docs/schemas/audit.schema.json (docs/json.md),
/// over every nginx scenario but the slow one (a timeout): served files plain and signed,
/// redirects, errors, TLS failures, truncated bodies, Apple's CDN copy, entries that are not
/// domains. The other outputs' schemas are tested in AASACLITests/JSONSchemaTests.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct AuditJSONSchemaTests {
    static let schema = Repository.root.appendingPathComponent("docs/schemas/audit.schema.json")

    /// Every scenario that answers within the audit's timeout.
    static let hosts = NginxServer.Host.allCases.filter { $0 != .slow }

    @Test func jsonAndJSONLinesValidateAgainstTheAuditSchema() throws {
        #expect(Self.hosts.count == NginxServer.Host.allCases.count - 1)
        try withNginx { server in
            let domains = Self.hosts.map(server.domain)
            let runs: [(format: String, extra: [String], stdin: Data?, status: Int32)] = [
                ("json", ["--cdn", "--cdn-base-url", server.cdnBaseURL], nil, 1),
                ("jsonl", ["--concurrency", "4"], nil, 1),
                // a listed entry that is not a domain: exit 2, no report for it, counted in the summary
                ("json", ["--domains-file", "-"], Data("not a domain\n".utf8), 2),
            ]
            #expect(runs.count == 3)
            for run in runs {
                let result = TestProcess.aasa(
                    ["audit"] + domains + run.extra + ["--format", run.format] + server.auditOptions, stdin: run.stdin)
                #expect(result.status == run.status, "\(run.format) \(run.extra): \(result)")
                let outcome = SchemaValidation.json(result.stdout, schema: Self.schema, lines: run.format == "jsonl")
                #expect(outcome.valid, "\(run.format) \(run.extra): \(outcome)")
                let reports =
                    run.format == "jsonl"
                    ? try result.jsonLines() : try #require(try result.jsonObject()["domains"] as? [[String: Any]])
                #expect(reports.count == domains.count, "\(run.format) \(run.extra)")
                if run.stdin != nil {
                    let summary = try result.jsonObject()["summary"] as? [String: Any]
                    #expect(summary?["invalidEntries"] as? Int == 1, "\(result)")
                }
                for report in reports {
                    #expect(report["schemaVersion"] as? Int == 1)
                    #expect(report["aasaVersion"] is String)
                    // How the run audited: the CA file of the options, no system roots, --cdn.
                    let settings = try #require(report["settings"] as? [String: Any], "\(report)")
                    #expect(settings["cdn"] as? Bool == run.extra.contains("--cdn"), "\(settings)")
                    #expect(settings["systemRoots"] as? Bool == false && settings["extraAnchors"] as? Int == 1)
                    #expect(settings["proxy"] as? Bool == false && settings["checkTime"] is NSNull, "\(settings)")
                }
            }
        }
    }

    /// The audit schema is closed: a report with a diagnostic's key renamed fails, and so
    /// does one whose diagnostic leaves out a null position.
    @Test func aRenamedKeyFailsTheAuditSchema() throws {
        try withNginx { server in
            let result = TestProcess.aasa(
                ["audit", server.domain(.signedRoot), "--format", "jsonl"] + server.auditOptions)
            #expect(SchemaValidation.json(result.stdout, schema: Self.schema, lines: true).valid, "\(result)")
            let text = result.stdoutText
            let edits: [(String, String)] = [(#""severity":"#, #""level":"#), (#""line":null,"#, "")]
            #expect(edits.count == 2)
            for (from, to) in edits {
                #expect(text.contains(from), "no \(from) in \(text)")
                let edited = Data(text.replacingOccurrences(of: from, with: to).utf8)
                #expect(!SchemaValidation.json(edited, schema: Self.schema, lines: true).valid, "\(from) → \(to)")
            }
        }
    }
}
