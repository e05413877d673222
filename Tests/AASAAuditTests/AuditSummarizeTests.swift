import Foundation
import Testing

/// `aasa audit summarize` over real `aasa audit --format jsonl` output (nginx on 127.0.0.1):
/// two shards that overlap, summarized, and every count checked against the records
/// themselves. Hand-written edge cases are in AASACLITests/AuditSummarizeCommandTests.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct AuditSummarizeTests {
    static let schema = Repository.root.appendingPathComponent("docs/schemas/fleet.schema.json")

    @Test func realAuditShardsAreSummarizedWithEachDomainOnce() throws {
        try withNginx { server in try Self.summarizeShards(server) }
    }

    /// What the summary must say, from the records themselves (the last record of a domain wins).
    struct Expected {
        var domains = 0
        var verdicts: [String: Int] = [:]
        var ruleDomains: [String: Int] = [:]
        var ruleFindings: [String: Int] = [:]
        var signerDomains: [String: Int] = [:]

        init(_ records: [[String: Any]]) throws {
            var last: [String: [String: Any]] = [:]
            for record in records { last[try #require(record["domain"] as? String)] = record }
            domains = last.count
            for record in last.values {
                verdicts[try #require(record["verdict"] as? String), default: 0] += 1
                let rules = try #require(record["diagnostics"] as? [[String: Any]]).compactMap { $0["rule"] as? String }
                for rule in rules { ruleFindings[rule, default: 0] += 1 }
                for rule in Set(rules) { ruleDomains[rule, default: 0] += 1 }
                let signature = (record["file"] as? [String: Any])?["signature"] as? [String: Any]
                if let signer = signature?["signer"] as? [String: Any] {
                    signerDomains[try #require(signer["sha256Fingerprint"] as? String), default: 0] += 1
                }
            }
        }
    }

    static func summarizeShards(_ server: NginxServer) throws {
        do {
            let first: [NginxServer.Host] = [.plain, .signedRoot, .expiredSigner, .foreignSigner, .missing]
            let second: [NginxServer.Host] = [.missing, .both, .wrongType]
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aasa-summarize-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            var records: [[String: Any]] = []
            for (index, hosts) in [first, second].enumerated() {
                let audit = TestProcess.aasa(
                    ["audit"] + hosts.map(server.domain) + ["--format", "jsonl"] + server.auditOptions)
                #expect(audit.status == 1, "\(audit)")
                let lines = try audit.jsonLines()
                try #require(lines.count == hosts.count, "\(audit)")
                records += lines
                try audit.stdout.write(to: directory.appendingPathComponent("shard-\(index + 1).jsonl"))
            }
            // The real --format json document of the first shard: recognised, one line, status 2.
            let document = TestProcess.aasa(
                ["audit"] + first.map(server.domain) + ["--format", "json"] + server.auditOptions)
            try document.stdout.write(to: directory.appendingPathComponent("shard-1.json"))
            let slip = TestProcess.aasa(
                ["audit", "summarize", directory.appendingPathComponent("shard-1.json").path])
            #expect(slip.status == 2 && slip.stderrLines.count == 1, "\(slip)")
            #expect(slip.stderr.contains("error: this is one JSON document, as 'aasa audit --format json' writes it"))
            let expected = try Expected(records)
            #expect(expected.domains == 7)
            #expect(expected.signerDomains.count >= 2, "\(expected.signerDomains)")

            let result = TestProcess.aasa(
                [
                    "audit", "summarize", directory.appendingPathComponent("shard-1.jsonl").path,
                    directory.appendingPathComponent("shard-2.jsonl").path, "--format", "json",
                ])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            let outcome = SchemaValidation.json(result.stdout, schema: Self.schema)
            #expect(outcome.valid, "\(outcome)")
            let summary = try result.jsonObject()
            #expect(summary["records"] as? Int == 8)
            #expect(summary["duplicates"] as? Int == 1)
            #expect(summary["domains"] as? Int == 7)
            #expect(summary["skipped"] as? Int == 0)
            #expect(summary["verdicts"] as? [String: Int] == expected.verdicts)
            let rules = try #require(summary["rules"] as? [[String: Any]])
            #expect(rules.count == expected.ruleDomains.count)
            for rule in rules {
                let name = try #require(rule["rule"] as? String)
                #expect(rule["domains"] as? Int == expected.ruleDomains[name], "\(name)")
                #expect(rule["findings"] as? Int == expected.ruleFindings[name], "\(name)")
            }
            let signers = try #require(summary["signers"] as? [[String: Any]])
            #expect(signers.count == expected.signerDomains.count)
            for signer in signers {
                let fingerprint = try #require(signer["sha256Fingerprint"] as? String)
                #expect(signer["domains"] as? Int == expected.signerDomains[fingerprint])
            }
            // expired-signer.example.com is signed by leaf-expired: expired now.
            let expired = signers.filter { $0["expired"] as? Bool == true }
            #expect(expired.count == 1 && expired.first?["domains"] as? Int == 1, "\(signers)")
            let notAfters = signers.compactMap { $0["notAfter"] as? String }
            #expect(notAfters == notAfters.sorted())

            let text = TestProcess.aasa(
                [
                    "audit", "summarize", directory.appendingPathComponent("shard-1.jsonl").path,
                    directory.appendingPathComponent("shard-2.jsonl").path,
                ])
            #expect(text.status == 0, "\(text)")
            #expect(
                text.stdoutText.hasPrefix(
                    "Fleet summary: 7 domains from 8 audit records in 2 files, 8 lines (1 duplicate merged)\n"),
                "\(text)")
        }
    }
}
