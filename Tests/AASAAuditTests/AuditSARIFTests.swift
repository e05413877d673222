import AASATestSupport
import Foundation
import Testing

/// `aasa audit --format sarif` against nginx on 127.0.0.1: one valid SARIF log for every
/// domain, each finding on the URL it concerns (``SARIFCheck``).
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct AuditSARIFTests {
    @Test func sarifHasAResultPerFindingOnTheFilesURL() throws {
        try withNginx { server in
            let hosts: [NginxServer.Host] = [.plain, .signedRoot, .missing, .wrongType]
            let result = TestProcess.aasa(
                ["audit"] + hosts.map(server.domain) + ["--format", "sarif"] + server.auditOptions)
            #expect(result.status == 1, "\(result)")
            let (run, problems) = SARIFCheck.check(result.stdout)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))\n\(result)")
            let results = try #require(run?["results"] as? [[String: Any]])
            let rules = Set(results.compactMap { $0["ruleId"] as? String })
            #expect(rules.isSuperset(of: ["served-at-root-only", "no-file", "content-type"]), "\(rules)")
            let artifacts = try #require(run?["artifacts"] as? [[String: Any]])
            #expect(artifacts.count == hosts.count)
            for artifact in artifacts {
                let uri = (artifact["location"] as? [String: Any])?["uri"] as? String ?? ""
                #expect(uri.hasPrefix("https://") && uri.hasSuffix("apple-app-site-association"), "\(uri)")
            }
        }
    }
}
