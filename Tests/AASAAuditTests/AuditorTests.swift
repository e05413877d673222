import AASA
import Foundation
import Testing

@testable import AASAAudit

/// The auditor against a real nginx on 127.0.0.1, one scenario per server block.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct AuditorTests {
    /// Audits `hosts` on `server`, trusting only the test root and sending every name to 127.0.0.1.
    func audit(
        _ server: NginxServer, _ hosts: [NginxServer.Host], cdn: Bool = false, timeout: TimeInterval = 5,
        retries: Int = 0, historical: HistoricalTrustStore? = nil
    ) async throws -> [DomainReport] {
        let anchors = try X509Certificate.load(
            from: Data(contentsOf: URL(fileURLWithPath: TestPaths.cert("ca-bundle.pem"))))
        var configuration = AuditConfiguration(
            trust: TrustConfiguration(useSystemRoots: false, anchors: anchors), timeout: timeout, retries: retries,
            resolve: [ResolveRule(host: "*", port: nil, address: "127.0.0.1")], checkCDN: cdn,
            cdnBaseURL: server.cdnBaseURL,
            threads: 2)
        configuration.historical = historical
        let auditor = try Auditor(configuration: configuration)
        defer { auditor.shutdown() }
        var reports: [DomainReport] = []
        for host in hosts {
            reports.append(await auditor.report(for: try AuditDomain.parse(server.domain(host))))
        }
        return reports
    }

    func rules(_ report: DomainReport) -> [String] { report.diagnostics.map(\.rule.rawValue) }

    @Test func plainJSONAtWellKnownIsCurrent() async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [.plain]).first)
            #expect(report.verdict == .current, "\(report.diagnostics)")
            #expect(report.diagnostics.isEmpty)
            #expect(report.paths.count == 2)
            #expect(report.paths[0].status == 200)
            #expect(report.paths[0].contentType == "application/json")
            #expect(report.paths[0].kind == "json")
            #expect(report.paths[0].signed == false)
            #expect(report.paths[0].address == "127.0.0.1")
            #expect(report.paths[0].timings.connectMs != nil && report.paths[0].timings.firstByteMs != nil)
            #expect(report.paths[1].status == 404)
            #expect(report.paths[1].kind == nil)
            #expect(report.file?.url == "https://\(server.domain(.plain))/.well-known/apple-app-site-association")
            let tls = try #require(report.tls)
            #expect(tls.verified)
            #expect(tls.version != nil)
            #expect(tls.chain.first?.subject == "CN=*.example.com")
            #expect(tls.chain.first?.subjectAlternativeNames == ["DNS:*.example.com"])
            #expect(tls.chain.count == 2)
        }
    }

    @Test func signedFileAtRootOnlyIsLegacyAndNotAtWellKnown() async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [.signedRoot]).first)
            #expect(rules(report).contains("served-at-root-only"))
            #expect(rules(report).contains("signed-file"))
            #expect(report.verdict == .legacy)
            #expect(report.paths[0].status == 404)
            #expect(report.paths[1].status == 200)
            #expect(report.paths[1].contentType == "application/pkcs7-mime")
            #expect(report.paths[1].kind == "pkcs7-der")
            #expect(report.paths[1].signed)
            let file = try #require(report.file)
            #expect(file.signed)
            #expect(file.url.hasSuffix(":\(server.port)/apple-app-site-association"))
            #expect(file.signature?.valid == true)
            #expect(file.signature?.identity == "same-certificate")
            #expect(!rules(report).contains("content-type"))
            #expect(!rules(report).contains("signer-not-domain-identity"))
        }
    }

    @Test func wellKnownWinsWhenBothPathsServeTheSameContent() async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [.both]).first)
            #expect(report.verdict == .current, "\(report.diagnostics)")
            #expect(report.file?.url.contains("/.well-known/") == true)
            #expect(report.paths[1].signed)
            #expect(!rules(report).contains("root-file-differs"))
        }
    }

    @Test func redirectIsReportedWithItsLocationAndNotFollowed() async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [.redirect]).first)
            #expect(rules(report).contains("redirect"))
            #expect(rules(report).contains("no-file"))
            #expect(report.verdict == .broken)
            #expect(report.paths[0].status == 301)
            #expect(report.paths[0].location == "https://www.example.com/.well-known/apple-app-site-association")
            let finding = try #require(report.diagnostics.first { $0.rule == HostingRules.redirect })
            #expect(finding.message.contains("301"))
            #expect(finding.message.contains("https://www.example.com/.well-known/apple-app-site-association"))
            #expect(finding.severity == .error)
        }
    }

    @Test func missingFileIsNoFileOnly() async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [.missing]).first)
            #expect(rules(report) == ["no-file"])
            #expect(report.paths.map(\.status) == [404, 404])
            #expect(report.file == nil)
        }
    }

    @Test func wrongContentTypeIsAWarning() async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [.wrongType]).first)
            #expect(rules(report) == ["content-type"])
            #expect(report.verdict == .needsAttention)
            #expect(report.diagnostics.first?.message.contains("text/html") == true)
        }
    }

    @Test func oversizedFileStopsAtTheCap() async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [.large]).first)
            #expect(rules(report).contains("file-too-large"))
            #expect(rules(report).contains("no-file"))
            #expect(report.paths[0].truncated)
            #expect((report.paths[0].size ?? 0) <= AuditConfiguration.defaultMaximumBodySize)
            #expect((report.paths[0].declaredSize ?? 0) > 131_072)
        }
    }

    @Test func slowResponseTimesOut() async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [.slow], timeout: 1).first)
            #expect(rules(report).contains("timeout"))
            #expect(report.paths[0].error?.rule == "timeout")
            // Measured by the auditor itself (the test's own wall time also counts waiting for
            // a thread while the rest of the suite runs).
            #expect(report.paths[0].timings.totalMs >= 900)
            #expect(report.paths[0].timings.totalMs < 5_000)
            #expect(report.durationMs < 10_000)
        }
    }

    @Test func errorStatusIsHTTPStatus() async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [.error]).first)
            #expect(Set(rules(report)) == ["http-status", "no-file"])
            #expect(report.paths[0].status == 503)
        }
    }

    @Test func unaskedContentEncodingIsAWarning() async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [.encoded]).first)
            #expect(rules(report) == ["content-encoding"])
            #expect(report.paths[0].contentEncoding == "gzip")
        }
    }

    @Test(arguments: [
        (NginxServer.Host.untrusted, "untrusted", "CN=example.com"),
        (NginxServer.Host.expired, "expired", "CN=expired.example.com"),
        (NginxServer.Host.wrongHost, "host-mismatch", "CN=other.example.org"),
    ])
    func tlsFailuresSayWhy(host: NginxServer.Host, verdict: String, subject: String) async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [host]).first)
            #expect(Set(rules(report)) == ["tls-error", "no-file"], "\(report.diagnostics)")
            let tls = try #require(report.tls)
            #expect(!tls.verified)
            #expect(tls.verdict == verdict)
            #expect(tls.chain.first?.subject == subject)
            try #require(report.paths.count == 2, "\(report.paths)")
            #expect(report.paths.allSatisfy { $0.status == nil && $0.error?.rule == "tls-error" })
            let message = try #require(report.diagnostics.first { $0.rule == HostingRules.tlsError }?.message)
            switch verdict {
            case "expired": #expect(message.contains("expired at 2016-01-01"))
            case "host-mismatch": #expect(message.contains("not valid for \(host.rawValue)"))
            default: #expect(message.contains("untrusted"))
            }
        }
    }

    @Test func signerThatIsNotTheTLSIdentityIsReported() async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [.foreignSigner]).first)
            #expect(rules(report).contains("signer-not-domain-identity"))
            let signature = try #require(report.file?.signature)
            #expect(signature.valid)
            #expect(signature.identity == "not-identity")
            #expect(signature.signer?.subject == "CN=other.example.org")
        }
    }

    @Test func expiredSignerIsReported() async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [.expiredSigner]).first)
            #expect(rules(report).contains("signer-expired"))
            #expect(rules(report).contains("certificate-expired"))
            #expect(!rules(report).contains("signature-not-valid"), "an expired chain is not a broken signature")
            #expect(report.file?.signature?.verdict == "expired")
            #expect(report.verdict == .broken)
        }
    }

    /// `--historical` in the audit: the served file whose signer expired is `valid-then` against
    /// a store that trusted the test root throughout, and stays `expired` without the mode.
    @Test func expiredSignerIsValidThenInTheHistoricalMode() async throws {
        try await withNginx { server in
            let root = try #require(
                try X509Certificate.load(from: Data(contentsOf: URL(fileURLWithPath: TestPaths.cert("root-ca.pem"))))
                    .first)
            let since = Date(timeIntervalSince1970: 0)
            let store = HistoricalTrustStore(
                name: "a test store",
                roots: [
                    HistoricalRoot(
                        certificate: root, periods: [TrustPeriod(from: since, lastSeen: Date(), removedBy: nil)])
                ],
                snapshots: [since])
            let report = try #require(try await audit(server, [.expiredSigner], historical: store).first)
            let signature = try #require(report.file?.signature)
            #expect(signature.verdict == "valid-then", "\(signature)")
            #expect(!rules(report).contains("signature-not-valid"), "\(report.diagnostics)")
            let today = try #require(try await audit(server, [.expiredSigner]).first)
            #expect(today.file?.signature?.verdict == "expired")
        }
    }

    @Test func sha1SignedFileIsValidWithThePolicyWarning() async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [.sha1Signed]).first)
            let signature = try #require(report.file?.signature)
            #expect(signature.valid && signature.verdict == "valid", "\(signature)")
            #expect(signature.identity == "same-certificate")
            let weak = report.diagnostics.filter { $0.rule.rawValue == "signature-weak-algorithm" }
            #expect(weak.count == 1, "\(report.diagnostics)")
            #expect(weak.first?.severity == .warning)
            #expect(
                weak.first?.message
                    == "SignerInfo 1 uses the digest SHA1, which is deprecated (collisions are practical)")
            #expect(weak.first?.url == "https://\(server.domain(.sha1Signed))/.well-known/apple-app-site-association")
            #expect(!rules(report).contains("signature-not-valid"))
            // The check item for the warning, as `aasa check` gives it.
            #expect(report.file?.items.contains { $0.rule.rawValue == "signature-weak-algorithm" } == true)
            // Signed and legacy: the deprecations decide the verdict; the warning is counted.
            #expect(report.verdict == .legacy, "\(report.diagnostics)")
            #expect(report.count(.warning) >= 1)
        }
    }

    @Test func signerWithAnotherKeyButValidForTheHostIsTheIdentity() async throws {
        try await withNginx { server in
            let report = try #require(try await audit(server, [.apex]).first)
            #expect(report.tls?.verified == true)
            #expect(report.file?.signature?.identity == "valid-for-host")
            #expect(!rules(report).contains("signer-not-domain-identity"))
        }
    }

    @Test func cdnCopyIsComparedWithTheOrigin() async throws {
        try await withNginx { server in
            let reports = try await audit(server, [.plain, .both, .signedRoot, .wrongType, .missing], cdn: true)
            #expect(
                reports.map { $0.cdn?.comparison } == [
                    "identical", "same-meaning", "same-meaning", "different", "not-compared",
                ])
            #expect(reports[3].diagnostics.contains { $0.rule == HostingRules.cdnDiffers })
            let missing = reports[4]
            #expect(missing.diagnostics.contains { $0.rule == HostingRules.cdnNoFile })
            #expect(missing.cdn?.failure["Apple-Failure-Reason"] == "SWCERR00301 Timeout")
            #expect(missing.cdn?.fetch.url == "https://cdn.example.com:\(server.port)/a/v1/missing.example.com")
            let message = try #require(missing.diagnostics.first { $0.rule == HostingRules.cdnNoFile }?.message)
            #expect(message.contains("Apple-Failure-Reason: SWCERR00301 Timeout"))
            #expect(reports[0].diagnostics.isEmpty)
        }
    }

    @Test func manyDomainsAtOnce() async throws {
        try await withNginx { server in
            let anchors = try X509Certificate.load(
                from: Data(contentsOf: URL(fileURLWithPath: TestPaths.cert("ca-bundle.pem"))))
            let auditor = try Auditor(
                configuration: AuditConfiguration(
                    trust: TrustConfiguration(useSystemRoots: false, anchors: anchors),
                    resolve: [ResolveRule(host: "*.example.com", port: server.port, address: "127.0.0.1")], threads: 2))
            defer { auditor.shutdown() }
            let hosts = Array(repeating: NginxServer.Host.plain, count: 40) + Array(repeating: .signedRoot, count: 40)
            let reports = try await withThrowingTaskGroup(of: DomainReport.self) { group in
                for host in hosts {
                    group.addTask { await auditor.report(for: try AuditDomain.parse(server.domain(host))) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(reports.count == 80)
            #expect(reports.filter { $0.verdict == .current }.count == 40)
            #expect(reports.filter { $0.verdict == .legacy }.count == 40)
        }
    }
}

/// Connection errors, without nginx: nothing listens on the port.
struct ConnectionErrorTests {
    @Test func refusedConnectionsAreRetriedThenReportedForBothPaths() async throws {
        // A port that was free a moment ago; nothing listens on it.
        let port = try NginxServer.freePort()

        let auditor = try Auditor(
            configuration: AuditConfiguration(
                trust: TrustConfiguration(useSystemRoots: false, anchors: []), timeout: 2, retries: 2, retryDelay: 0.01,
                resolve: [ResolveRule(host: "closed.example.com", port: port, address: "127.0.0.1")], threads: 1))
        defer { auditor.shutdown() }
        let report = await auditor.report(for: AuditDomain(host: "closed.example.com", port: port))
        #expect(Set(report.diagnostics.map(\.rule.rawValue)) == ["connection-failed", "no-file"])
        // The first path tried 3 times; the second needs the same connection, so it is not
        // requested (0 attempts) and shares the first's failure.
        try #require(report.paths.count == 2)
        #expect(report.paths.map(\.attempts) == [3, 0])
        #expect(report.paths.allSatisfy { $0.error?.rule == "connection-failed" && $0.status == nil })
        #expect(report.paths[0].error == report.paths[1].error)
        #expect(report.tls == nil)
        let message = try #require(report.diagnostics.first { $0.rule == HostingRules.connectionFailed }?.message)
        #expect(message.contains("127.0.0.1"))
    }

    @Test func theTextReportSaysTheSecondPathWasNotRequested() throws {
        let port = try NginxServer.freePort()
        let result = TestProcess.aasa([
            "audit", "closed.example.com:\(port)", "--resolve", "*:*:127.0.0.1", "--retries", "0", "--no-system-roots",
            "--ca-file", TestPaths.cert("ca-bundle.pem"),
        ])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(
            lines.count { $0.contains("not requested: its connection is the one that failed above") } == 1, "\(result)")
        #expect(lines.count { $0.contains("Connection refused") } >= 2, "\(result)")
    }

    @Test func aServerThatNeverFinishesTheHandshakeIsConnectedToOnceForBothPaths() async throws {
        // The kernel completes the TCP handshake of a listening socket that never accepts:
        // connected, and nothing ever speaks.
        let listener = try NginxServer.loopbackSocket(listening: true)
        defer { close(listener.fd) }

        let auditor = try Auditor(
            configuration: AuditConfiguration(
                trust: TrustConfiguration(useSystemRoots: false, anchors: []), timeout: 1, retries: 2,
                resolve: [ResolveRule(host: "mute.example.com", port: listener.port, address: "127.0.0.1")],
                threads: 1))
        defer { auditor.shutdown() }
        let report = await auditor.report(for: AuditDomain(host: "mute.example.com", port: listener.port))
        try #require(report.paths.count == 2)
        #expect(report.paths.map(\.error?.rule) == ["timeout", "timeout"])
        #expect(report.paths[0].error?.message.contains("TLS handshake") == true, "\(report.paths[0])")
        #expect(report.paths.map(\.attempts) == [1, 0])
        // One connection, not one per path: the second path waited for the first's connection.
        _ = fcntl(listener.fd, F_SETFL, fcntl(listener.fd, F_GETFL) | O_NONBLOCK)
        var connections = 0
        while case let accepted = accept(listener.fd, nil, nil), accepted >= 0 {
            connections += 1
            close(accepted)
        }
        #expect(connections == 1)
    }
}
