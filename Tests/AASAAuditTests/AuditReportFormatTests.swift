import AASATestSupport
import Foundation
import Testing

/// `aasa audit --format sarif|junit|markdown` against nginx on 127.0.0.1: one valid SARIF log
/// for every domain, each finding on the URL it concerns (``SARIFCheck``); a JUnit test case
/// per domain (validated against the vendored JUnit.xsd); a Markdown row per domain.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct AuditReportFormatTests {
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

    @Test func junitAndMarkdownHaveACasePerDomain() throws {
        try withNginx { server in
            let hosts: [NginxServer.Host] = [.plain, .signedRoot, .missing]
            let junit = TestProcess.aasa(
                ["audit"] + hosts.map(server.domain) + ["--format", "junit"] + server.auditOptions)
            #expect(junit.status == 1, "\(junit)")
            let schema = Repository.fixtures.appendingPathComponent("schemas/JUnit.xsd")
            let validation = SchemaValidation.xml(junit.stdout, schema: schema)
            #expect(validation.valid, "\(validation)\n\(junit)")
            #expect(junit.stdoutText.contains("tests=\"3\" failures=\"1\" errors=\"0\""), "\(junit)")
            #expect(junit.stdoutText.contains("type=\"no-file\""), "\(junit)")

            let markdown = TestProcess.aasa(
                ["audit"] + hosts.map(server.domain) + ["--format", "markdown"] + server.auditOptions)
            #expect(markdown.status == 1, "\(markdown)")
            #expect(markdown.stdoutText.hasPrefix("## aasa audit: 3 domains, 1 failing at error\n"), "\(markdown)")
            #expect(markdown.stdoutText.split(separator: "\n").filter { $0.hasPrefix("| ") }.count == 1 + 3)
        }
    }
}
