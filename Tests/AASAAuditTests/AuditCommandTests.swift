import Foundation
import Testing

/// `aasa audit` as a user runs it: the built binary against nginx on 127.0.0.1; stdout,
/// stderr and the exit status.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct AuditCommandTests {
    func audit(_ server: NginxServer, _ args: [String], stdin: Data? = nil) -> TestProcess.Result {
        TestProcess.aasa(["audit"] + args + server.auditOptions, stdin: stdin)
    }

    @Test func textReportHasABlockPerDomainAndASummaryTable() throws {
        try withNginx { server in
            let result = audit(server, [server.domain(.plain), server.domain(.signedRoot), server.domain(.missing)])
            #expect(result.status == 1, "\(result)")
            let text = result.stdoutText
            #expect(text.contains("\(server.domain(.plain)): current"))
            #expect(text.contains("\(server.domain(.signedRoot)): legacy"))
            #expect(text.contains("\(server.domain(.missing)): broken"))
            #expect(text.contains("[served-at-root-only]"))
            #expect(text.contains("[no-file]"))
            #expect(text.contains("next step:"))
            #expect(text.contains("TLS: verified"))
            #expect(text.contains("Summary: 3 domains: 1 current, 1 legacy, 1 broken"))
            let table = try #require(text.range(of: "DOMAIN "))
            let rows = text[table.lowerBound...].split(separator: "\n")
            #expect(rows.count == 4)
            #expect(rows[1].hasPrefix(server.domain(.plain)))
            #expect(rows[2].contains("root") && rows[2].contains("pkcs7-der"))
            // Blocks come in input order.
            let plain = try #require(text.range(of: "\(server.domain(.plain)): "))
            let missing = try #require(text.range(of: "\(server.domain(.missing)): "))
            #expect(plain.lowerBound < missing.lowerBound)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
        }
    }

    @Test func jsonIsOneDocumentInInputOrder() throws {
        try withNginx { server in
            let hosts: [NginxServer.Host] = [.missing, .plain, .redirect, .signedRoot, .wrongHost]
            let result = audit(server, hosts.map(server.domain) + ["--format", "json"])
            #expect(result.status == 1, "\(result)")
            let document = try result.jsonObject()
            let domains = try #require(document["domains"] as? [[String: Any]])
            #expect(domains.map { $0["domain"] as? String } == hosts.map(server.domain))
            for domain in domains {
                let paths = try #require(domain["paths"] as? [[String: Any]])
                #expect(paths.count == 2)
                for path in paths {
                    for key in ["url", "status", "contentType", "kind", "signed"] {
                        #expect(path.keys.contains(key), "path without \(key): \(path)")
                    }
                    #expect(path["signed"] is Bool)
                }
                let diagnostics = try #require(domain["diagnostics"] as? [[String: Any]])
                for diagnostic in diagnostics {
                    #expect(diagnostic["rule"] is String)
                    #expect(["error", "warning", "deprecation", "info"].contains(diagnostic["severity"] as? String))
                }
            }
            let signed = try #require(domains[3]["paths"] as? [[String: Any]])
            #expect(signed[1]["kind"] as? String == "pkcs7-der")
            #expect(signed[1]["signed"] as? Bool == true)
            #expect(signed[1]["contentType"] as? String == "application/pkcs7-mime")
            let redirect = try #require(domains[2]["paths"] as? [[String: Any]])
            #expect(redirect[0]["status"] as? Int == 301)
            #expect(
                redirect[0]["location"] as? String == "https://www.example.com/.well-known/apple-app-site-association")
            let tls = try #require(domains[4]["tls"] as? [String: Any])
            #expect(tls["verdict"] as? String == "host-mismatch")
            let summary = try #require(document["summary"] as? [String: Any])
            #expect(summary["domains"] as? Int == 5)
            #expect((summary["rules"] as? [String: Int])?["no-file"] == 3)
        }
    }

    @Test func jsonLinesHaveOneObjectPerDomain() throws {
        try withNginx { server in
            let hosts: [NginxServer.Host] = [.plain, .both, .wrongType, .error]
            let result = audit(server, hosts.map(server.domain) + ["--format", "jsonl", "--concurrency", "2"])
            #expect(result.status == 1, "\(result)")
            let lines = try result.jsonLines()
            #expect(lines.count == 4)
            #expect(Set(lines.compactMap { $0["domain"] as? String }) == Set(hosts.map(server.domain)))
            #expect(result.stdoutText.split(separator: "\n").count == 4)
        }
    }

    /// Issue #15: with TMPDIR missing, the text summary silently dropped every row. It now says
    /// how many domains it leaves out and why; the blocks above it are whole. Issue #24: that
    /// `error:` line came with status 0 for a clean domain (1 with a failing one); output not
    /// written is status 2 (docs/exit-codes.md), which wins over 1.
    @Test(arguments: [false, true])
    func summaryTableSaysWhatItCannotKeep(withFailingDomain: Bool) throws {
        try withNginx { server in
            let domains = [server.domain(.plain)] + (withFailingDomain ? [server.domain(.missing)] : [])
            let result = ProcessRunner.run(
                TestPaths.aasa, ["audit"] + domains + server.auditOptions,
                environment: ["TMPDIR": "/nonexistent-aasa-tmp"])
            #expect(result.status == 2, "\(result)")
            #expect(result.stdoutText.contains("\(server.domain(.plain)): current"), "\(result)")
            let line = try #require(result.stderrLines.first { $0.contains("summary table") }, "\(result)")
            let count = withFailingDomain ? "2 domains" : "1 domain"
            #expect(
                line.hasPrefix("audit: error: the summary table leaves out \(count): cannot create a temporary file"))
            #expect(line.contains("/nonexistent-aasa-tmp"))
        }
    }

    /// audit reads its trust flags through the same option group as verify (issue #14), so
    /// --ca-dir works for TLS and signers alike: the test root in a hash directory, nothing else.
    @Test func caDirectoryIsTrustedForTLSAndSigners() throws {
        try withNginx { server in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aasa-cadir-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try FileManager.default.copyItem(
                atPath: TestPaths.cert("root-ca.pem"), toPath: directory.appendingPathComponent("root-ca.pem").path)
            try TestProcess.requireSuccess(Executables.openssl.path, ["rehash", directory.path])
            let options = ["--resolve", "*:*:127.0.0.1", "--ca-dir", directory.path, "--no-system-roots"]
            let result = TestProcess.aasa(["audit", server.domain(.plain), server.domain(.signedRoot)] + options)
            #expect(result.stdoutText.contains("TLS: verified"), "\(result)")
            #expect(result.stdoutText.contains("\(server.domain(.signedRoot)): legacy"), "\(result)")
            // Without any anchor, the same TLS is not trusted: the directory is what was used.
            let empty = directory.appendingPathComponent("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let untrusted = TestProcess.aasa(
                [
                    "audit", server.domain(.plain), "--resolve", "*:*:127.0.0.1", "--ca-dir", empty.path,
                    "--no-system-roots",
                ])
            #expect(!untrusted.stdoutText.contains("TLS: verified"), "\(untrusted)")
        }
    }

    /// The policy's warning for a file signed with SHA-1, as `verify` and `check` give it.
    static let sha1Warning = "SignerInfo 1 uses the digest SHA1, which is deprecated (collisions are practical)"

    @Test func sha1SignedFileGetsThePolicyWarningInText() throws {
        try withNginx { server in
            let domain = server.domain(.sha1Signed)
            let result = audit(server, [domain])
            #expect(result.status == 0, "\(result)")  // a warning: only --fail-on warning fails
            let text = result.stdoutText
            #expect(text.contains("\(domain): legacy"), "\(result)")
            #expect(text.contains("  signature: valid\n"), "\(result)")
            let lines = text.split(separator: "\n").map(String.init)
            #expect(lines.contains("    warning: [signature-weak-algorithm] \(Self.sha1Warning)"), "\(result)")
            #expect(!text.contains("[signature-not-valid]"), "\(result)")
            // What the file does, in check's words (DocumentEffect, issue #13).
            #expect(lines.contains { $0.hasPrefix("  does: universal links for ") }, "\(result)")
            // The summary table (DOMAIN VERDICT FILE KIND TLS ERR WARN DEPR) counts it in WARN.
            let row = try #require(lines.last { $0.hasPrefix(domain) }).split(separator: " ").map(String.init)
            #expect(row.count == 8, "\(row)")
            #expect(row.count == 8 && row[5] == "0" && (Int(row[6]) ?? 0) >= 1, "\(row)")
            #expect(audit(server, [domain, "--fail-on", "warning"]).status == 1)
        }
    }

    @Test func sha1SignedFileGetsThePolicyWarningInJSON() throws {
        try withNginx { server in
            let domain = server.domain(.sha1Signed)
            let result = audit(server, [domain, "--format", "json"])
            #expect(result.status == 0, "\(result)")
            let document = try result.jsonObject()
            let report = try #require((document["domains"] as? [[String: Any]])?.first)
            let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
            let weak = diagnostics.filter { $0["rule"] as? String == "signature-weak-algorithm" }
            #expect(weak.count == 1, "\(diagnostics)")
            #expect(weak.first?["severity"] as? String == "warning")
            #expect(weak.first?["message"] as? String == Self.sha1Warning)
            #expect(weak.first?["url"] as? String == "https://\(domain)/.well-known/apple-app-site-association")
            let file = try #require(report["file"] as? [String: Any])
            #expect((file["signature"] as? [String: Any])?["verdict"] as? String == "valid")
            let effect = try #require(file["effect"] as? [String: Any], "\(file.keys)")
            #expect((effect["universalLinks"] as? [[String: Any]])?.isEmpty == false, "\(effect)")
            let items = try #require(file["items"] as? [[String: Any]])
            #expect(
                items.contains {
                    $0["rule"] as? String == "signature-weak-algorithm" && $0["severity"] as? String == "warning"
                })
            let summary = try #require(document["summary"] as? [String: Any])
            #expect((summary["rules"] as? [String: Int])?["signature-weak-algorithm"] == 1)
            // JSON lines carry the same diagnostic.
            let lines = try audit(server, [domain, "--format", "jsonl"]).jsonLines()
            let jsonl = (lines.first?["diagnostics"] as? [[String: Any]]) ?? []
            #expect(
                jsonl.contains {
                    $0["rule"] as? String == "signature-weak-algorithm" && $0["message"] as? String == Self.sha1Warning
                })
        }
    }

    @Test func failOnSetsWhatFails() throws {
        try withNginx { server in
            // signed-root: a warning (served-at-root-only) and deprecations, no error.
            let legacy = server.domain(.signedRoot)
            #expect(audit(server, [legacy]).status == 0)
            #expect(audit(server, [legacy, "--fail-on", "warning"]).status == 1)
            #expect(audit(server, [legacy, "--fail-on", "deprecation"]).status == 1)
            let current = server.domain(.plain)
            #expect(audit(server, [current, "--fail-on", "deprecation"]).status == 0)
            let result = audit(server, [current, "--fail-on", "deprecation", "--format", "json"])
            let summary = try result.jsonObject()["summary"] as? [String: Any]
            #expect(summary?["failOn"] as? String == "deprecation")
        }
    }

    @Test func domainsFileWithCommentsAndStandardInput() throws {
        try withNginx { server in
            let list = """
                # staging fleet
                \(server.domain(.plain))   # the good one

                \(server.domain(.both))
                """
            let result = audit(server, ["--domains-file", "-", "--format", "jsonl"], stdin: Data(list.utf8))
            #expect(result.status == 0, "\(result)")
            #expect(try result.jsonLines().count == 2)

            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aasa-audit-list-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("domains.txt")
            try Data((list + "\nnot a domain/\n").utf8).write(to: file)
            let mixed = audit(server, ["--domains-file", file.path, "--format", "json"])
            #expect(mixed.status == 2, "\(mixed)")
            #expect(mixed.stderr.contains("\(file.path):5: error:"))
            let domains = try mixed.jsonObject()["domains"] as? [Any]
            #expect(domains?.count == 2)
        }
    }

    @Test func resolveForOneNameOnly() throws {
        try withNginx { server in
            let result = TestProcess.aasa([
                "audit", server.domain(.plain), "--resolve", "plain.example.com:\(server.port):127.0.0.1",
                "--ca-file", TestPaths.cert("ca-bundle.pem"), "--no-system-roots", "--format", "jsonl",
            ])
            #expect(result.status == 0, "\(result)")
            let report = try #require(try result.jsonLines().first)
            #expect(report["verdict"] as? String == "current")
        }
    }

    @Test func cdnOptionComparesWithTheCDNCopy() throws {
        try withNginx { server in
            let result = audit(
                server,
                [
                    server.domain(.plain), server.domain(.missing), "--cdn", "--cdn-base-url", server.cdnBaseURL,
                    "--format", "json",
                ])
            #expect(result.status == 1)
            let domains = try #require(try result.jsonObject()["domains"] as? [[String: Any]])
            #expect((domains[0]["cdn"] as? [String: Any])?["comparison"] as? String == "identical")
            let missing = try #require(domains[1]["cdn"] as? [String: Any])
            #expect((missing["failure"] as? [String: String])?["Apple-Failure-Reason"] == "SWCERR00301 Timeout")
            let text = audit(server, [server.domain(.missing), "--cdn", "--cdn-base-url", server.cdnBaseURL]).stdoutText
            #expect(text.contains("Apple-Failure-Reason: SWCERR00301 Timeout"))
            #expect(text.contains("[cdn-no-file]"))
        }
    }

    @Test func timeoutIsBounded() throws {
        try withNginx { server in
            let result = audit(server, [server.domain(.slow), "--timeout", "1", "--format", "jsonl"])
            #expect(result.status == 1)
            #expect(result.seconds < 60, "\(result)")
            let report = try #require(try result.jsonLines().first)
            #expect((report["durationMs"] as? Double ?? .infinity) < 10_000)
            let rules = (report["diagnostics"] as? [[String: Any]])?.compactMap { $0["rule"] as? String } ?? []
            #expect(rules.contains("timeout"))
        }
    }
}

/// Usage and input errors: no server needed.
struct AuditCommandUsageTests {
    @Test(arguments: [
        [String](),
        ["example.com/path"],
        ["example.com", "--resolve", "example.com:443"],
        ["example.com", "--concurrency", "0"],
        ["example.com", "--format", "xml"],
        ["example.com", "--fail-on", "never"],
        ["example.com", "--cdn-base-url", "https://127.0.0.1/a/v1/"],
        ["example.com", "--no-system-roots"],
    ])
    func usageErrorsExit64(args: [String]) {
        let result = TestProcess.aasa(["audit"] + args)
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test func unreadableInputsExit2() {
        let missingList = TestProcess.aasa(["audit", "--domains-file", "/nonexistent/domains.txt"])
        #expect(missingList.status == 2, "\(missingList)")
        #expect(
            missingList.stderr
                == "/nonexistent/domains.txt: error: cannot read domain list: No such file or directory\n",
            "\(missingList)")
        // The library names the setting (the CDN base URL); the CLI names its flag.
        let badCDN = TestProcess.aasa([
            "audit", "example.com", "--cdn", "--cdn-base-url", "ftp://cdn.example/", "--proxy", "",
        ])
        #expect(badCDN.status == 2, "\(badCDN)")
        #expect(badCDN.stderr.hasPrefix("audit: error: --cdn-base-url "), "\(badCDN)")
        #expect(!badCDN.stderr.contains("the CDN base URL"), "\(badCDN)")
        let missingCA = TestProcess.aasa(["audit", "example.com", "--ca-file", "/nonexistent/ca.pem"])
        #expect(missingCA.status == 2, "\(missingCA)")
        #expect(missingCA.stderr.hasPrefix("/nonexistent/ca.pem: error:"))
    }

    @Test func emptyDomainListIsAnEmptyReport() throws {
        let result = TestProcess.aasa(
            ["audit", "--domains-file", "-", "--format", "json"], stdin: Data("# nothing\n\n".utf8))
        #expect(result.status == 0, "\(result)")
        let summary = try #require(try result.jsonObject()["summary"] as? [String: Any])
        #expect(summary["domains"] as? Int == 0)
    }
}
