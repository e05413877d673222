import Foundation
import Testing

/// Issue #15: running out of file descriptors is a problem of the machine that runs the audit,
/// never a verdict on a domain. `aasa audit` runs with every descriptor of a low limit taken by
/// its parent but a few (what other code holding descriptors looks like), for fewer and fewer
/// free ones: it must wait for a descriptor and give each domain its true verdict, or say that
/// the domain was not audited because of this machine's limit, or refuse to start with that
/// reason; never call a domain broken for "Too many open files", and never crash.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct AuditDescriptorTests {
    /// Every scenario that answers at once (not `slow`), so that a true verdict is known.
    static let hosts: [NginxServer.Host] = [
        .plain, .signedRoot, .both, .redirect, .missing, .wrongType, .large, .error, .encoded, .untrusted, .expired,
        .wrongHost, .foreignSigner, .expiredSigner, .sha1Signed, .apex,
    ]

    /// Runs the program `$3…` with `ulimit -n $1` (soft and hard: aasa raises the soft limit to
    /// the hard one) and every descriptor below it taken but `$2` (and those bash keeps for
    /// itself, which close at exec): the held ones are inherited.
    static let holder = """
        limit=$1; free=$2; shift 2
        ulimit -n "$limit" || exit 99
        held=()
        for ((i = 3; i < 10; i++)); do eval "exec $i</dev/null" && held+=("$i"); done
        while [ ${#held[@]} -lt "$limit" ] && exec {fd}</dev/null; do held+=("$fd"); done 2>/dev/null
        n=${#held[@]}
        for ((i = n - free; i < n; i++)); do eval "exec ${held[i]}<&-"; done
        exec "$@"
        """

    /// The limit: room for the event loops (3 descriptors each, one loop per core) and more.
    static let limit = 128 + 3 * ProcessInfo.processInfo.activeProcessorCount

    /// Where the anchors come from: `--ca-file` (read at start), or the system roots, made the
    /// test root by `SSL_CERT_FILE` (a bundle read on the first TLS check unless preloaded) and
    /// `SSL_CERT_DIR` (certs/, which has no hash names: every lookup there misses).
    enum Trust: String, CaseIterable {
        case caFile = "ca-file"
        case systemRoots = "system-roots"

        func options(_ server: NginxServer) -> [String] {
            self == .caFile ? server.auditOptions : ["--resolve", "*:*:127.0.0.1"]
        }

        var environment: [String: String] {
            self == .caFile
                ? [:] : ["SSL_CERT_FILE": TestPaths.cert("ca-bundle.pem"), "SSL_CERT_DIR": TestPaths.certs.path]
        }
    }

    func run(_ server: NginxServer, _ trust: Trust, free: Int? = nil, _ args: [String]) -> TestProcess.Result {
        let audit = ["audit"] + args + trust.options(server)
        guard let free else {
            return ProcessRunner.run(TestPaths.aasa, audit, environment: trust.environment, timeout: 120)
        }
        return ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", Self.holder, "aasa-holder", String(Self.limit), String(free), TestPaths.aasa.path] + audit,
            environment: trust.environment, timeout: 120)
    }

    /// verdict and sorted rules of each domain of a `--format json` document.
    static func outcomes(_ result: TestProcess.Result) throws -> [(verdict: String, rules: [String])] {
        let domains = try #require(try result.jsonObject()["domains"] as? [[String: Any]], "\(result)")
        return domains.map { domain in
            let rules = (domain["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
            return (domain["verdict"] as? String ?? "?", rules.sorted())
        }
    }

    static let localWording = "this machine ran out of file descriptors"

    @Test(arguments: Trust.allCases)
    func descriptorShortageIsWaitedForAndNeverAVerdictOnADomain(trust: Trust) throws {
        try withNginx { server in
            let domains = Self.hosts.map(server.domain)
            // The same audit with descriptors to spare: each domain's true verdict and findings.
            let options = ["--format", "json", "--concurrency", "100", "--retries", "0", "--timeout", "5"]
            let baseline = run(server, trust, domains + options)
            let truth = try Self.outcomes(baseline)
            try #require(truth.count == domains.count, "\(baseline)")
            #expect(!baseline.stdoutText.contains("Too many open files"), "\(baseline)")

            var refusedToStart = false
            var waitedThenTrue = false
            var notAudited: Int?
            // From no descriptor free up to plenty; stops once no request had to wait.
            for free in 0...(3 * ProcessInfo.processInfo.activeProcessorCount + 24) {
                let result = run(server, trust, free: free, domains + options)
                #expect(result.status != 99, "bash could not set ulimit -n \(Self.limit): \(result)")
                // Never a crash (SIGILL in SwiftNIO when an event loop got no descriptor).
                #expect([0, 1, 2].contains(result.status), "free \(free): \(result)")
                for line in result.stderrLines {
                    #expect(!line.contains("Too many open files") || line.contains("open-file limit"), "\(line)")
                }
                if result.stdout.isEmpty {
                    // Refused at start, with the reason.
                    #expect(result.status == 2, "free \(free): \(result)")
                    #expect(result.stderr.contains("audit: error: cannot start: the event loops need "), "\(result)")
                    #expect(result.stderr.contains("open-file limit"), "\(result)")
                    refusedToStart = true
                    continue
                }
                let seen = try Self.outcomes(result)
                try #require(seen.count == domains.count, "free \(free): \(result)")
                let document = try result.jsonObject()
                let reports = try #require(document["domains"] as? [[String: Any]])
                var waited = false
                var local = 0
                for (index, report) in reports.enumerated() {
                    let paths = report["paths"] as? [[String: Any]] ?? []
                    if paths.contains(where: { $0["descriptorWaitMs"] is Double }) { waited = true }
                    for diagnostic in report["diagnostics"] as? [[String: Any]] ?? [] {
                        let message = diagnostic["message"] as? String ?? ""
                        #expect(
                            !message.contains("Too many open files")
                                || diagnostic["rule"] as? String == "local-descriptor-limit",
                            "free \(free), \(domains[index]): \(diagnostic)")
                    }
                    for path in paths {
                        let message = (path["error"] as? [String: Any])?["message"] as? String ?? ""
                        if message.contains("Too many open files") {
                            #expect(
                                (path["error"] as? [String: Any])?["rule"] as? String == "local-descriptor-limit",
                                "free \(free), \(domains[index]): \(path)")
                        }
                    }
                    if seen[index].verdict == "not-audited" {
                        local += 1
                        #expect(seen[index].rules == ["local-descriptor-limit"], "\(report)")
                        let diagnostic = (report["diagnostics"] as? [[String: Any]])?.first
                        let message = diagnostic?["message"] as? String ?? ""
                        #expect(message.contains(Self.localWording), "\(message)")
                        #expect(message.contains("says nothing about the domain"), "\(message)")
                        #expect(diagnostic?["url"] is NSNull)
                    } else {
                        // Its true verdict and findings, whatever the waits.
                        #expect(seen[index].verdict == truth[index].verdict, "free \(free), \(domains[index])")
                        #expect(seen[index].rules == truth[index].rules, "free \(free), \(domains[index])")
                    }
                }
                #expect(result.status == (local > 0 ? 2 : baseline.status), "free \(free): \(result)")
                let verdicts = (document["summary"] as? [String: Any])?["verdicts"] as? [String: Int]
                #expect((verdicts?["not-audited"] ?? 0) == local, "\(String(describing: verdicts))")
                if local > 0 && notAudited == nil { notAudited = free }
                if waited && local == 0 { waitedThenTrue = true }
                if !waited && local == 0 { break }
            }
            // The sweep went through each case: refused at start, not audited, waited and done.
            #expect(refusedToStart, "no run was refused at start")
            #expect(waitedThenTrue, "no run waited for descriptors and then gave every true verdict")
            let tightest = try #require(notAudited, "no run had to report a domain not audited")

            // The text report of a run with no descriptor left for connections.
            let text = run(server, trust, free: tightest, domains + ["--concurrency", "100", "--timeout", "2"])
            #expect(text.status == 2, "\(text)")
            let lines = text.stdoutText.split(separator: "\n").map(String.init)
            let heads = lines.filter { line in domains.contains { line.hasPrefix("\($0): ") } }
            try #require(heads.count == domains.count, "\(text)")
            for (index, head) in heads.enumerated() {
                let verdict = head.dropFirst(domains[index].count + 2)
                #expect(verdict == "not-audited" || verdict == truth[index].verdict, "\(head)")
            }
            #expect(heads.contains { $0.hasSuffix(": not-audited") }, "\(text)")
            #expect(!text.stdoutText.contains("[connection-failed]"), "\(text)")
            #expect(
                lines.contains {
                    $0.hasPrefix("    error: [local-descriptor-limit] not audited: \(Self.localWording)")
                },
                "\(text)")
            #expect(
                lines.contains {
                    $0.contains("not audited: this machine ran out of file descriptors, which says nothing about")
                }, "\(text)")
            #expect(lines.contains { $0.contains("for a free file descriptor") }, "\(text)")
        }
    }
}
