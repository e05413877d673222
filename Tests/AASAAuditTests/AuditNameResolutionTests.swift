import AASA
import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import AASAAudit

/// An audit in which no name resolved says so once, from counts (issue #27).
struct NameLookupCountsTests {
    @Test func lookupsAreCountedByWhatTheResolverSaid() {
        let tally = NameLookupTally()
        tally.resolved(cdn: false)
        tally.failed(HostResolver.Failure(kind: .noAddress, detail: "Name or service not known"), cdn: false)
        tally.failed(HostResolver.Failure(kind: .serverFailure, detail: "Temporary failure"), cdn: true)
        tally.failed(HostResolver.Failure(kind: .timeout, detail: ""), cdn: false)
        tally.failed(HostResolver.Failure(kind: .other, detail: "EIO"), cdn: false)
        // No descriptor for the lookup: the fetcher looks the name up itself, so it is not counted.
        tally.failed(HostResolver.Failure(kind: .descriptorLimit(errno: EMFILE), detail: ""), cdn: false)
        #expect(
            tally.current == NameLookupCounts(resolved: 1, noSuchName: 1, unanswered: 3, cdnLookups: 1),
            "\(tally.current)")
        #expect(tally.current.lookups == 5 && !tally.current.noneResolved)
        #expect(tally.current.noneResolvedMessage == nil)
    }

    @Test func theLineSaysWhichKindOfSilenceItWas() throws {
        #expect(NameLookupCounts().noneResolvedMessage == nil, "no lookup, nothing to say")
        #expect(NameLookupCounts(resolved: 1, unanswered: 99_999).noneResolvedMessage == nil)

        let silent = try #require(NameLookupCounts(unanswered: 6, cdnLookups: 3).noneResolvedMessage)
        #expect(
            silent
                == "no name resolved: all 6 name lookups (3 of them of the CDN's host) got no answer (the name servers did not answer, failed, or could not be reached): this machine's DNS answered nothing, so this run's verdicts are about this machine, not the domains"
        )
        let denied = try #require(NameLookupCounts(noSuchName: 2, unanswered: 1).noneResolvedMessage)
        #expect(
            denied
                == "no name resolved: all 3 name lookups failed (2 answered 'no such name', 1 got no answer): if these names exist, this machine's DNS does not see them, and this run's verdicts are about this machine, not the domains"
        )
        let one = try #require(NameLookupCounts(noSuchName: 1).noneResolvedMessage)
        #expect(one.hasPrefix("no name resolved: the one name lookup failed (1 answered 'no such name'):"), "\(one)")
    }

    @Test func theAuditorCountsTheLookupsItMakesAndOnlyThose() throws {
        let noTrust = TrustConfiguration(useSystemRoots: false, anchors: [])
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        // localhost comes from /etc/hosts: a lookup, and no DNS server asked.
        let direct = try Auditor(configuration: AuditConfiguration(trust: noTrust))
        defer { direct.shutdown() }
        _ = try direct.route(AuditDomain(host: "localhost"), on: eventLoop).wait()
        _ = try direct.route(host: "localhost", port: 443, cdn: true, on: eventLoop).wait()
        #expect(direct.nameLookups == NameLookupCounts(resolved: 2, cdnLookups: 1), "\(direct.nameLookups)")
        // --resolve and a proxy settle the name without a lookup here: nothing counted.
        let configured = try Auditor(
            configuration: AuditConfiguration(
                trust: noTrust, resolve: [ResolveRule(host: "localhost", port: nil, address: "127.0.0.9")]))
        defer { configured.shutdown() }
        let proxied = try Auditor(
            configuration: AuditConfiguration(
                trust: noTrust, proxy: ProxyConfiguration(proxy: ProxyURL(host: "127.0.0.1", port: 3128))))
        defer { proxied.shutdown() }
        for auditor in [configured, proxied] {
            _ = try auditor.route(AuditDomain(host: "localhost"), on: eventLoop).wait()
            _ = try auditor.route(host: "localhost", port: 443, cdn: true, on: eventLoop).wait()
            #expect(auditor.nameLookups.lookups == 0, "\(auditor.nameLookups)")
        }
    }
}

/// `aasa audit` on a machine whose names do not resolve: run in a network and mount namespace
/// of its own (`unshare -r -n -m`, as the proxy tests' tinyproxy runs), whose resolv.conf names
/// 127.0.0.1 and whose nsswitch.conf is `files dns`, so that no lookup leaves the namespace;
/// loopback is down (offline) or up with a stand-in name server on 127.0.0.1:53 that never
/// answers or answers "no such name" for everything.
struct AuditNoNameResolvesTests {
    enum NameServer: String {
        /// Loopback down, nothing listens: the machine is offline.
        case offline
        /// Reads every query, answers none.
        case silent
        /// Answers NXDOMAIN to every query.
        case nxdomain
    }

    static let nameServer = #"""
        import socket, subprocess, sys, threading
        mode = sys.argv[1]
        server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        server.bind(("127.0.0.1", 53))
        def serve():
            while True:
                query, peer = server.recvfrom(4096)
                if mode != "nxdomain" or len(query) < 12:
                    continue
                end = 12
                while end < len(query) and query[end] != 0:
                    end += query[end] + 1
                flags = 0x8000 | ((query[2] & 0x79) << 8) | 0x80 | 3
                server.sendto(query[:2] + flags.to_bytes(2, "big") + query[4:6] + bytes(6) + query[12:end + 5], peer)
        threading.Thread(target=serve, daemon=True).start()
        sys.exit(subprocess.call(sys.argv[2:]))
        """#

    static let inside = #"""
        set -e
        mount --bind "$1" /etc/resolv.conf
        mount --bind "$2" /etc/nsswitch.conf
        mount --bind "$3" /etc/hosts
        mode=$4 server=$5
        shift 5
        if [ "$mode" = offline ]; then exec "$@"; fi
        ip link set lo up
        exec python3 "$server" "$mode" "$@"
        """#

    /// Runs `aasa audit ARGS` in the namespace, with `hosts` as its /etc/hosts.
    func audit(_ mode: NameServer, _ args: [String], hosts: String = "127.0.0.1 localhost\n") throws
        -> TestProcess.Result
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aasa-no-dns-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = [
            ("resolv.conf", "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n"),
            ("nsswitch.conf", "hosts: files dns\n"), ("hosts", hosts), ("name-server.py", Self.nameServer),
        ]
        for (name, text) in files {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let result = TestProcess.run(
            Executables.onPath("unshare", otherwise: "/usr/bin/unshare").path,
            ["-r", "-n", "-m", "/bin/sh", "-c", Self.inside, "inside"]
                + [path("resolv.conf"), path("nsswitch.conf"), path("hosts"), mode.rawValue, path("name-server.py")]
                + [TestPaths.aasa.path, "audit"] + args + ["--proxy", "", "--no-progress"], timeout: 60)
        try #require(result.launched && !result.timedOut, "\(result)")
        return result
    }

    static let domains = ["a.example.test", "b.example.test", "c.example.test"]
    static let line = "audit: error: no name resolved:"

    /// The stderr lines that say no name resolved.
    func noneResolvedLines(_ result: TestProcess.Result) -> [String] {
        result.stderrLines.filter { $0.contains("no name resolved") }
    }

    @Test func offlineEveryDomainIsBrokenAndTheRunSaysWhyOnce() throws {
        let result = try audit(
            .offline, Self.domains + ["--cdn", "--cdn-base-url", "https://cdn.example.test/a/v1/", "--timeout", "5"])
        #expect(result.status == 2, "\(result)")
        let lines = noneResolvedLines(result)
        #expect(
            lines == [
                Self.line
                    + " all 6 name lookups (3 of them of the CDN's host) got no answer (the name servers did not answer, failed, or could not be reached): this machine's DNS answered nothing, so this run's verdicts are about this machine, not the domains (exit status 2)"
            ], "\(result)")
        let text = result.stdoutText
        for domain in Self.domains {
            #expect(text.contains("\(domain): broken"), "\(result)")
            #expect(text.contains("[connection-failed] \(domain): \(domain) does not resolve"), "\(result)")
            #expect(
                text.contains(
                    "[cdn-not-reached] Apple's CDN was not reached: https://cdn.example.test/a/v1/\(domain): cdn.example.test does not resolve"
                ), "\(result)")
        }
        #expect(!text.contains("has no copy"), "\(result)")
        #expect(text.components(separatedBy: "whether it has a copy is unknown").count == 4, "\(result)")
    }

    @Test func aNameServerThatNeverAnswersIsSaidOnce() throws {
        let result = try audit(.silent, Self.domains + ["--timeout", "4", "--format", "jsonl"])
        #expect(result.status == 2, "\(result)")
        let lines = noneResolvedLines(result)
        #expect(lines.count == 1, "\(result)")
        #expect(lines.first?.hasPrefix(Self.line + " all 3 name lookups got no answer") == true, "\(result)")
        let reports = try result.jsonLines()
        #expect(reports.count == 3 && reports.allSatisfy { $0["verdict"] as? String == "broken" }, "\(result)")
    }

    @Test func aNameServerThatKnowsNoNameIsSaidOnceWithItsAnswer() throws {
        let result = try audit(.nxdomain, Self.domains + ["--format", "json"])
        #expect(result.status == 2, "\(result)")
        #expect(
            noneResolvedLines(result) == [
                Self.line
                    + " all 3 name lookups failed (3 answered 'no such name'): if these names exist, this machine's DNS does not see them, and this run's verdicts are about this machine, not the domains (exit status 2)"
            ], "\(result)")
        let summary = try #require(try result.jsonObject()["summary"] as? [String: Any], "\(result)")
        #expect((summary["verdicts"] as? [String: Int])?["broken"] == 3, "\(result)")
    }

    @Test func oneNameThatResolvesIsEnoughForAnOrdinaryRun() throws {
        // The same name server, but /etc/hosts knows one of the names (nothing listens at its
        // port 443, so it is broken too): the run's verdicts stand on their own, exit 1.
        let result = try audit(.nxdomain, Self.domains, hosts: "127.0.0.1 localhost b.example.test\n")
        #expect(result.status == 1, "\(result)")
        #expect(noneResolvedLines(result).isEmpty, "\(result)")
        #expect(result.stdoutText.contains("Summary: 3 domains: 3 broken"), "\(result)")
        #expect(result.stdoutText.contains("cannot connect to b.example.test"), "\(result)")
    }
}

/// With `--cdn`: "no copy" only when the CDN answered; "not reached" when no answer came.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct CDNNotReachedTests {
    func auditor(cdnBaseURL: String) throws -> Auditor {
        let anchors = try X509Certificate.load(
            from: Data(contentsOf: URL(fileURLWithPath: TestPaths.cert("ca-bundle.pem"))))
        return try Auditor(
            configuration: AuditConfiguration(
                trust: TrustConfiguration(useSystemRoots: false, anchors: anchors), timeout: 5, retries: 0,
                resolve: [ResolveRule(host: "*", port: nil, address: "127.0.0.1")], checkCDN: true,
                cdnBaseURL: cdnBaseURL, threads: 1))
    }

    @Test func aCDNThatAnswers404HasNoCopyAndOneThatCannotBeReachedIsUnknown() async throws {
        try await withNginx { server in
            let answering = try auditor(cdnBaseURL: server.cdnBaseURL)
            defer { answering.shutdown() }
            let missing = await answering.report(for: try AuditDomain.parse(server.domain(.missing)))
            let noCopy = try #require(missing.diagnostics.first { $0.rule == HostingRules.cdnNoFile }, "\(missing)")
            #expect(noCopy.message.hasPrefix("Apple's CDN has no copy: "), "\(noCopy.message)")
            #expect(noCopy.message.contains("answers 404 Not Found"), "\(noCopy.message)")
            #expect(!missing.diagnostics.contains { $0.rule == HostingRules.cdnNotReached })

            // Nothing listens at this port of 127.0.0.1: refused, no answer.
            let closed = try NginxServer.freePort()
            let unreachable = try auditor(cdnBaseURL: "https://cdn.example.com:\(closed)/a/v1/")
            defer { unreachable.shutdown() }
            let plain = await unreachable.report(for: try AuditDomain.parse(server.domain(.plain)))
            #expect(!plain.diagnostics.contains { $0.rule == HostingRules.cdnNoFile }, "\(plain.diagnostics)")
            let unknown = try #require(
                plain.diagnostics.first { $0.rule == HostingRules.cdnNotReached }, "\(plain.diagnostics)")
            #expect(
                unknown.message.hasPrefix(
                    "Apple's CDN was not reached: https://cdn.example.com:\(closed)/a/v1/plain.example.com: cannot connect to "
                ), "\(unknown.message)")
            #expect(unknown.message.contains("Connection refused"), "\(unknown.message)")
            #expect(unknown.message.hasSuffix("; whether it has a copy is unknown"), "\(unknown.message)")
            #expect(unknown.severity == .error && plain.verdict == .broken)
            #expect(plain.cdn?.fetch.error?.rule == "connection-failed" && plain.cdn?.comparison == "not-compared")
            // The origin was audited as usual.
            #expect(plain.file?.url == "https://\(server.domain(.plain))/.well-known/apple-app-site-association")
            #expect(plain.diagnostics.count == 1, "\(plain.diagnostics)")
        }
    }

    @Test func theCommandSaysNotReachedAndTheRuleCanBeRelevelled() throws {
        try withNginx { server in
            let closed = try NginxServer.freePort()
            let args =
                ["audit", server.domain(.plain), "--cdn", "--cdn-base-url", "https://cdn.example.com:\(closed)/a/v1/"]
                + server.auditOptions
            let result = TestProcess.aasa(args)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdoutText.contains("error: [cdn-not-reached] Apple's CDN was not reached: "), "\(result)")
            #expect(result.stdoutText.contains("whether it has a copy is unknown"), "\(result)")
            #expect(!result.stdoutText.contains("[cdn-no-file]"), "\(result)")
            #expect(!result.stderr.contains("no name resolved"), "no lookup was made: \(result)")
            let relevelled = TestProcess.aasa(args + ["--severity", "cdn-not-reached=warning"])
            #expect(relevelled.status == 0, "\(relevelled)")
            #expect(relevelled.stdoutText.contains("warning: [cdn-not-reached]"), "\(relevelled)")
        }
    }
}
