import Foundation
import Testing

@testable import AASAAudit

/// Issue #17: `aasa audit` through a real HTTP proxy (tinyproxy) in front of the test nginx,
/// everything on 127.0.0.1. Through `--proxy` or `HTTPS_PROXY` the verdicts are the direct
/// ones, and tinyproxy's log shows a CONNECT for every URL (TLS and its chain inside the
/// tunnel are the origin's, or the TLS findings would differ); NO_PROXY bypasses it; a proxy
/// that cannot be used makes the domain not-audited with the proxy's reason, never a finding
/// on the domain; credentials are sent and never printed.
@Suite(.enabled(if: TinyproxyServer.isAvailable, TinyproxyServer.skipReason))
struct AuditProxyTests {
    /// Scenarios with distinct verdicts and findings (TLS failures included), none slow.
    static let hosts: [NginxServer.Host] = [
        .plain, .signedRoot, .both, .redirect, .missing, .wrongType, .untrusted, .expired, .wrongHost, .apex,
    ]

    /// `aasa ARGS` with `environment` and none of the proxy variables the test process may
    /// have (`env -u`): an inherited `https_proxy` would win over the `HTTPS_PROXY` a test sets.
    static func aasa(_ args: [String], environment: [String: String] = [:]) -> TestProcess.Result {
        let unset = (ProxyConfiguration.proxyVariables + ProxyConfiguration.noProxyVariables)
            .filter { environment[$0] == nil }.flatMap { ["-u", $0] }
        return ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), unset + [TestPaths.aasa.path] + args, environment: environment)
    }

    func audit(
        _ server: NginxServer, _ args: [String], environment: [String: String] = [:]
    ) -> TestProcess.Result {
        Self.aasa(
            ["audit", "--format", "json", "--retries", "0"] + args + server.directOptions, environment: environment)
    }

    /// The paths that opened a connection (a tunnel) of their own: not `reusedConnection`.
    /// The connections the reports say were opened: each path on no reused connection, but
    /// those not requested (`attempts` 0: the connection they needed had failed), counting
    /// every attempt.
    static func ownConnections(_ domains: [[String: Any]]) -> Int {
        domains.flatMap { $0["paths"] as? [[String: Any]] ?? [] }.filter { ($0["reusedConnection"] as? Bool) != true }
            .reduce(0) { $0 + ($1["attempts"] as? Int ?? 1) }
    }

    /// Each domain's verdict and sorted rule IDs.
    func outcomes(_ result: TestProcess.Result) throws -> [String: String] {
        let domains = try #require(try result.jsonObject()["domains"] as? [[String: Any]], "\(result)")
        var found: [String: String] = [:]
        for domain in domains {
            let rules = (domain["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }.sorted()
            found[domain["domain"] as? String ?? "?"] = "\(domain["verdict"] as? String ?? "?") \(rules)"
        }
        return found
    }

    @Test func throughTheProxyFlagAndHTTPSProxyTheVerdictsAreTheDirectOnesAndEveryURLIsTunnelled() throws {
        try withNginx { server in
            try withTinyproxy { proxy in
                let domains = Self.hosts.map(server.domain)
                let direct = audit(server, domains + ["--proxy", ""])
                #expect(direct.status == 1, "\(direct)")
                let expected = try outcomes(direct)
                #expect(expected.count == Self.hosts.count)
                #expect(proxy.tunnels.isEmpty, "the direct run used the proxy")

                let flagged = audit(server, domains + ["--proxy", proxy.url])
                #expect(flagged.status == direct.status, "\(flagged)")
                #expect(try outcomes(flagged) == expected)
                // Every domain, by name (the proxy resolves it): a tunnel for each path that did
                // not go on the connection of the path before (HTTP keep-alive through the tunnel).
                let tunnels = proxy.tunnels
                let report = try flagged.jsonObject()["domains"] as? [[String: Any]] ?? []
                let ownConnections = Self.ownConnections(report)
                #expect(tunnels.count == ownConnections, "\(tunnels)")
                #expect(ownConnections >= Self.hosts.count && ownConnections < 2 * Self.hosts.count)
                #expect(Set(tunnels) == Set(domains))
                // Through a proxy the domain's address is unknown: the report does not give the proxy's.
                let addresses = report.flatMap { ($0["paths"] as? [[String: Any]] ?? []).map { $0["address"] } }
                #expect(addresses.count == 2 * Self.hosts.count)
                #expect(addresses.allSatisfy { $0 is NSNull }, "\(addresses)")

                let fromEnvironment = audit(server, domains, environment: ["HTTPS_PROXY": proxy.url])
                #expect(fromEnvironment.status == direct.status, "\(fromEnvironment)")
                #expect(try outcomes(fromEnvironment) == expected)
                let fromEnvironmentReport = try fromEnvironment.jsonObject()["domains"] as? [[String: Any]] ?? []
                #expect(proxy.tunnels.count == ownConnections + Self.ownConnections(fromEnvironmentReport))
            }
        }
    }

    @Test func noProxyBypassesTheProxyForMatchingHostsOnly() throws {
        try withNginx { server in
            try withTinyproxy { proxy in
                let all = audit(
                    server, [server.domain(.plain), server.domain(.apex)],
                    environment: ["HTTPS_PROXY": proxy.url, "NO_PROXY": ".example.com"])
                #expect(all.status == 0, "\(all)")
                #expect(proxy.tunnels.isEmpty)
                // plain.example.com is bypassed; example.com, above it, is not.
                let one = audit(
                    server, [server.domain(.plain), server.domain(.apex)],
                    environment: ["HTTPS_PROXY": proxy.url, "no_proxy": "plain.example.com"])
                #expect(one.status == 0, "\(one)")
                // One tunnel: both paths on it (keep-alive).
                #expect(proxy.tunnels == [server.domain(.apex)])
                // --noproxy overrides NO_PROXY; '' sends everything through the proxy.
                let none = audit(
                    server, [server.domain(.plain), "--noproxy", ""],
                    environment: ["HTTPS_PROXY": proxy.url, "NO_PROXY": "*"])
                #expect(none.status == 0, "\(none)")
                #expect(proxy.tunnels.count == 2)
            }
        }
    }

    @Test func resolveAppliesToTheProxyNotToTheProxiedDomain() throws {
        try withNginx { server in
            try withTinyproxy { proxy in
                // Nothing listens on 127.0.0.2: a connection that used this rule would be refused.
                let elsewhere = ["--resolve", "*.example.com:*:127.0.0.2"]
                let direct = audit(server, [server.domain(.plain), "--proxy", ""] + elsewhere)
                #expect(direct.status == 1, "\(direct)")
                let refused = try outcomes(direct)
                #expect(refused == [server.domain(.plain): "broken [\"connection-failed\", \"no-file\"]"])
                // Through the proxy the rule is not used: the proxy resolves the name.
                let proxied = audit(server, [server.domain(.plain), "--proxy", proxy.url] + elsewhere)
                #expect(proxied.status == 0, "\(proxied)")
                let tunnelled = try outcomes(proxied)
                #expect(tunnelled == [server.domain(.plain): "current []"])
                #expect(proxy.tunnels == [server.domain(.plain)])
            }
        }
    }

    @Test func basicAuthenticationRightWrongAndMissing() throws {
        try withNginx { server in
            try withTinyproxy(.init(basicAuth: ("alice", "s3cret"))) { proxy in
                let authority = "127.0.0.1:\(proxy.port)"
                let right = audit(server, [server.domain(.plain), "--proxy", "http://alice:s3cret@\(authority)"])
                #expect(right.status == 0, "\(right)")
                #expect(try outcomes(right) == [server.domain(.plain): "current []"])

                // Percent-encoded in the URL, decoded before it is sent.
                let encoded = audit(server, [server.domain(.plain), "--proxy", "http://alice:s3cr%65t@\(authority)"])
                #expect(encoded.status == 0, "\(encoded)")

                let wrong = audit(server, [server.domain(.plain), "--proxy", "http://alice:hunter2@\(authority)"])
                try expectNotAudited(
                    wrong, server.domain(.plain),
                    containing: [
                        "the proxy http://***@\(authority) refused the tunnel", "'HTTP/1.0 401 Unauthorized'",
                        "refused the credentials given",
                    ])
                for output in [wrong.stdoutText, wrong.stderr] { #expect(!output.contains("hunter2")) }

                let missing = audit(server, [server.domain(.plain), "--proxy", "http://\(authority)"])
                try expectNotAudited(
                    missing, server.domain(.plain),
                    containing: ["407 Proxy Authentication Required", "asks for credentials"])
                // The text report says it too, with exit status 2.
                let text = Self.aasa(
                    ["audit", "--retries", "0", server.domain(.plain), "--proxy", "http://alice:hunter2@\(authority)"]
                        + server.directOptions)
                #expect(text.status == 2, "\(text)")
                #expect(text.stdoutText.contains("\(server.domain(.plain)): not-audited"), "\(text)")
                #expect(text.stdoutText.contains("[local-proxy-failure]"))
                #expect(
                    text.stdoutText.contains(
                        "1 domain was not audited: the proxy could not be used, which says nothing about it (exit status 2)"
                    ),
                    "\(text)")
                #expect(!text.stdoutText.contains("hunter2") && !text.stderr.contains("hunter2"))
            }
        }
    }

    @Test func aProxyPortWhereNothingListensIsTheProxysFailure() throws {
        try withNginx { server in
            let port = try NginxServer.freePort()
            let result = audit(server, [server.domain(.plain), "--proxy", "http://127.0.0.1:\(port)"])
            try expectNotAudited(
                result, server.domain(.plain),
                containing: ["cannot use the proxy http://127.0.0.1:\(port): ", "Connection refused"])
        }
    }

    @Test func aProxyThatForbidsThePortIsTheProxysFailure() throws {
        try withNginx { server in
            try withTinyproxy(.init(connectPorts: [443])) { proxy in
                let result = audit(server, [server.domain(.plain), "--proxy", proxy.url])
                try expectNotAudited(
                    result, server.domain(.plain),
                    containing: [
                        "the proxy http://127.0.0.1:\(proxy.port) refused the tunnel to \(server.domain(.plain)): 'HTTP/1.1 403 Access violation'"
                    ])
                // One tunnel asked for: the second path needs the same one, and is not requested.
                #expect(proxy.tunnels == [server.domain(.plain)])
            }
        }
    }

    @Test func aProxyThatCannotReachTheDomainReportsTheDomainsConnectionFailure() throws {
        try withNginx { server in
            try withTinyproxy { proxy in
                // Nothing listens there: tinyproxy answers 500 Unable to connect.
                let domain = "\(NginxServer.Host.plain.rawValue):\(try NginxServer.freePort())"
                let result = audit(server, [domain, "--proxy", proxy.url])
                #expect(result.status == 1, "\(result)")
                #expect(try outcomes(result) == [domain: "broken [\"connection-failed\", \"no-file\"]"])
                let json = try result.jsonObject()["domains"] as? [[String: Any]] ?? []
                let messages = (json.first?["diagnostics"] as? [[String: Any]] ?? []).compactMap {
                    $0["message"] as? String
                }
                #expect(
                    messages.contains {
                        $0.contains(
                            "the proxy http://127.0.0.1:\(proxy.port) could not open a tunnel to \(domain): 'HTTP/1.1 500 Unable to connect'"
                        )
                    }, "\(messages)")
            }
        }
    }

    @Test func aHostileProxysStatusLineCannotForgeTheTextReport() throws {
        try withNginx { server in
            let line = "HTTP/1.1 403 \u{1B}]0;pwned\u{7}\u{1B}[2J\u{202E}\u{9B}31mok"
            let proxy = try ScriptedProxy(reply: Array("\(line)\r\nX: y\r\n\r\n".utf8))
            defer { proxy.stop() }
            let text = Self.aasa(
                ["audit", "--retries", "0", server.domain(.plain), "--proxy", proxy.url] + server.directOptions)
            #expect(text.status == 2, "\(text)")
            #expect(AuditHostileTextTests.violations(text.stdoutText).isEmpty, "\(text.stdoutText)")
            #expect(
                text.stdoutText.contains("'HTTP/1.1 403 \\u{1B}]0;pwned\\u{7}\\u{1B}[2J\\u{202E}\\u{9B}31mok'"),
                "\(text.stdoutText)")
            // JSON keeps the exact line.
            let json = audit(server, [server.domain(.plain), "--proxy", proxy.url])
            try expectNotAudited(json, server.domain(.plain), containing: ["'\(line)'"])
            // The first path asked for the tunnel (once a run: the second path needs the same
            // tunnel, and is not requested), by name, with no credentials.
            let requests = proxy.requests
            #expect(requests.count == 2, "\(requests)")
            for request in requests {
                #expect(
                    request.hasPrefix("CONNECT \(server.domain(.plain)) HTTP/1.1\r\nHost: \(server.domain(.plain))\r\n")
                )
                #expect(!request.contains("Proxy-Authorization"))
            }
        }
    }

    @Test func aProxyThatClosesOrDoesNotSpeakHTTPIsTheProxysFailure() throws {
        try withNginx { server in
            let silent = try ScriptedProxy(reply: [])
            defer { silent.stop() }
            let closed = audit(server, [server.domain(.plain), "--proxy", silent.url])
            try expectNotAudited(
                closed, server.domain(.plain),
                containing: [
                    "the proxy \(silent.url) closed the connection without answering the CONNECT for \(server.domain(.plain))"
                ])
            // A TLS alert, as a TLS port would send: refused at its first byte.
            let tls = try ScriptedProxy(reply: [0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x46])
            defer { tls.stop() }
            let binary = audit(server, [server.domain(.plain), "--proxy", tls.url])
            try expectNotAudited(
                binary, server.domain(.plain),
                containing: [
                    "the proxy \(tls.url) did not answer the CONNECT for \(server.domain(.plain)) in HTTP: '\u{15}\u{3}\u{1}"
                ])
        }
    }

    @Test func aProxyThatNeverAnswersTheConnectIsATimeoutNamingTheProxy() throws {
        try withNginx { server in
            let mute = try ScriptedProxy(reply: nil)
            defer { mute.stop() }
            let result = audit(server, [server.domain(.plain), "--proxy", mute.url, "--timeout", "1"])
            #expect(result.status == 1, "\(result)")
            let found = try outcomes(result)
            #expect(found == [server.domain(.plain): "broken [\"no-file\", \"timeout\", \"timeout\"]"], "\(result)")
            #expect(
                result.stdoutText.contains(
                    "no complete answer within 1 s: gave up while waiting for the proxy \(mute.url) to open the tunnel (it had not answered the CONNECT)"
                ), "\(result.stdoutText)")
            #expect(mute.requests.count == 1)  // the second path needs the same tunnel: not requested
        }
    }

    @Test func unsupportedProxiesAreUsageErrorsWithOneLine() throws {
        try withNginx { server in
            let https = audit(server, [server.domain(.plain), "--proxy", "https://u:pw@127.0.0.1:1"])
            #expect(https.status == 64, "\(https)")
            #expect(https.stderr.contains("https:// proxies (TLS to the proxy) are not supported"), "\(https)")
            #expect(!https.stderr.contains("pw@"))
            let socks = audit(server, [server.domain(.plain)], environment: ["HTTPS_PROXY": "socks5://127.0.0.1:1"])
            #expect(socks.status == 64, "\(socks)")
            #expect(socks.stderr.contains("the environment variable HTTPS_PROXY"), "\(socks)")
            #expect(socks.stderr.contains("SOCKS proxies are not supported"), "\(socks)")
        }
    }

    /// `result` reports `domain` not-audited, with local-proxy-failure as its only finding and
    /// a message holding each of `parts`, exits 2, and its JSON follows the audit schema.
    func expectNotAudited(_ result: TestProcess.Result, _ domain: String, containing parts: [String]) throws {
        #expect(result.status == 2, "\(result)")
        #expect(try outcomes(result) == [domain: "not-audited [\"local-proxy-failure\"]"], "\(result)")
        let json = try result.jsonObject()["domains"] as? [[String: Any]] ?? []
        let message = (json.first?["diagnostics"] as? [[String: Any]])?.first?["message"] as? String ?? ""
        for part in parts { #expect(message.contains(part), "\(message)") }
        #expect(message.hasSuffix("this says nothing about the domain"), "\(message)")
        let schema = SchemaValidation.json(result.stdout, schema: AuditJSONSchemaTests.schema)
        #expect(schema.valid, "\(schema)")
    }
}
