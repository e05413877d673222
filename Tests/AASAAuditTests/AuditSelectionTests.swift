import AASA
import AASAAudit
import Foundation
import Testing

/// `aasa audit --disable`, `--severity` and the configuration file, against nginx.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct AuditSelectionTests {
    func audit(_ server: NginxServer, _ args: [String]) -> TestProcess.Result {
        TestProcess.aasa(["audit", "--no-config"] + args + server.auditOptions)
    }

    @Test func disabledRulesLeaveTheReportVerdictAndStatus() throws {
        try withNginx { server in
            // signed-root: a warning (served-at-root-only) and deprecations, no error.
            let legacy = server.domain(.signedRoot)
            #expect(audit(server, [legacy, "--fail-on", "warning"]).status == 1)
            let result = audit(server, [legacy, "--fail-on", "warning", "--disable", "served-at-root-only"])
            #expect(result.status == 0, "\(result)")
            #expect(!result.stdoutText.contains("[served-at-root-only]"), "\(result)")
            #expect(result.stdoutText.contains("1 finding suppressed (rule selection)"), "\(result)")

            let json = audit(server, [legacy, "--disable", "served-at-root-only", "--format", "json"])
            let document = try json.jsonObject()
            let summary = try #require(document["summary"] as? [String: Any])
            #expect(summary["suppressed"] as? Int == 1)
            let domain = try #require((document["domains"] as? [[String: Any]])?.first)
            let rules = (domain["diagnostics"] as? [[String: Any]])?.compactMap { $0["rule"] as? String } ?? []
            #expect(!rules.isEmpty && !rules.contains("served-at-root-only"), "\(rules)")
            let items = ((domain["file"] as? [String: Any])?["items"] as? [[String: Any]]) ?? []
            #expect(!items.contains { $0["rule"] as? String == "served-at-root-only" })
            #expect(domain["verdict"] as? String == "legacy")
            // The record says which rules were left out.
            let settings = try #require(domain["settings"] as? [String: Any])
            #expect(settings["disabledRules"] as? [String] == ["served-at-root-only"], "\(settings)")
        }
    }

    @Test func severityChangesTheVerdictAndStatus() throws {
        try withNginx { server in
            let legacy = server.domain(.signedRoot)
            let result = audit(server, [legacy, "--severity", "signed-file=error", "--format", "json"])
            #expect(result.status == 1, "\(result)")
            let domain = try #require((try result.jsonObject()["domains"] as? [[String: Any]])?.first)
            #expect(domain["verdict"] as? String == "broken")
            let settings = try #require(domain["settings"] as? [String: Any])
            #expect(settings["ruleSeverities"] as? [String: String] == ["signed-file": "error"], "\(settings)")
            let signed = (domain["diagnostics"] as? [[String: Any]])?.first { $0["rule"] as? String == "signed-file" }
            #expect(signed?["severity"] as? String == "error")
        }
    }

    @Test func configurationFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-audit-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("aasa.json")
        try Data(#"{"rules": {"served-at-root-only": "error"}}"#.utf8).write(to: config)
        try withNginx { server in
            let configured = TestProcess.aasa(
                ["audit", server.domain(.signedRoot), "--config", config.path] + server.auditOptions)
            #expect(configured.status == 1, "served-at-root-only raised to error: \(configured)")
            try Data(#"{"rules": {"served-at-root-onyl": "error"}}"#.utf8).write(to: config)
            let bad = TestProcess.aasa(
                ["audit", server.domain(.signedRoot), "--config", config.path] + server.auditOptions)
            #expect(bad.status == 2, "\(bad)")
            #expect(bad.stdout.isEmpty, "\(bad)")
            #expect(
                bad.stderr.contains(
                    "error: rules.served-at-root-onyl: no such rule (did you mean 'served-at-root-only'?)"), "\(bad)")
        }
    }
}
