import AASA
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

@testable import AASAAudit

/// `--max-per-address` and `--rate` (issue #17) as the server sees them: nginx's access log
/// of the paced-N.example.com hosts, whose /.well-known answer takes about half a second.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason), .serialized)
struct AuditPolitenessTests {
    func audit(_ server: NginxServer, domains: Int, _ options: [String]) throws -> AccessLog {
        let names = (1...domains).map { "paced-\($0).example.com:\(server.port)" }
        let result = TestProcess.aasa(
            ["audit"] + names + ["--concurrency", String(domains), "--format", "jsonl", "--no-progress"] + options
                + server.auditOptions)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.split(separator: "\n").count == domains)
        let log = try AccessLog(contentsOf: server.pacedLog)
        // Both paths of every domain reached the server once.
        #expect(log.requests.count == 2 * domains, "\(log.requests.count) requests logged")
        #expect(Set(log.requests.map(\.host)).count == domains)
        return log
    }

    @Test func maxPerAddressCapsTheDomainsTheServerSeesAtOnce() throws {
        try withNginx { server in
            let log = try audit(server, domains: 12, ["--max-per-address", "3"])
            // Every domain shares 127.0.0.1: never more than 3 at once, and the cap is reached.
            #expect(log.mostDomainsAtOnceByAddress == ["127.0.0.1": 3], "\(log.domainTimes)")
        }
    }

    @Test func withoutTheCapTheSameRunOverlapsMore() throws {
        // The control: the measurement above sees a broken cap (all 12 at once).
        try withNginx { server in
            let log = try audit(server, domains: 12, [])
            #expect(log.mostDomainsAtOnceByAddress["127.0.0.1", default: 0] > 3)
        }
    }

    @Test func rateSpacesTheRequestsTheServerSees() throws {
        try withNginx { server in
            let log = try audit(server, domains: 15, ["--rate", "10"])
            // 30 requests at 10 a second: sent over 2.9 s (less the jitter of a send reaching
            // nginx's log), and no second holds more than 10 sends (one more allowed for that
            // jitter). Sends, not request starts: a new connection's request reaches nginx only
            // after its TLS handshake, which a loaded machine (ThreadSanitizer) stretches.
            let span = (log.sends.max() ?? 0) - (log.sends.min() ?? 0)
            #expect(span >= 2.9 - AccessLog.sendJitter, "30 requests sent over \(span) s: \(log.sends)")
            #expect(AccessLog.mostIn(window: 1, log.sends) <= 11, "\(log.sends)")
        }
    }

    /// Issue #24, at the boundary as the server sees it: with `--rate 3` the fourth request is
    /// sent one whole second after the first, so no one-second window holds 4 sends. What the
    /// server logs is a send plus its delay to nginx (a thread scheduled late, nginx's cached
    /// millisecond clock): seen 10 ms late for one send and on time for the next three on a
    /// machine loaded three times over, so the window is 1 s less ``AccessLog/sendJitter``.
    /// The exact nanosecond boundary is ``PolitenessUnitTests``' (the pacer's own slots); a
    /// pacer that lets a fourth request into the second (a burst, or slots 1/(rate+1) apart)
    /// puts it 250 ms early or more, which this measure sees, as its control `--rate 4` shows.
    @Test(arguments: [3, 4])
    func rateAtItsBoundaryAsTheServerSeesIt(rate: Int) throws {
        try withNginx { server in
            let log = try audit(server, domains: 6, ["--rate", String(rate)])
            let most = AccessLog.mostIn(window: 1 - AccessLog.sendJitter, log.sends)
            #expect(log.sends.count == 12)
            if rate == 3 {
                #expect(most == 3, "sends \(log.sends.map { $0 - (log.sends.min() ?? 0) })")
            } else {
                #expect(most >= 4, "the measure sees a fourth send in a second: \(most)")
            }
        }
    }

    @Test func withoutARateTheSameRequestsComeAtOnce() throws {
        try withNginx { server in
            let log = try audit(server, domains: 15, [])
            #expect(AccessLog.mostIn(window: 1, log.sends) > 11, "\(log.sends)")
        }
    }

    @Test func invalidRatesAndCapsAreUsageErrors() {
        for options in [
            ["--rate", "0"], ["--rate", "-1"], ["--rate", "nan"], ["--rate", "1e-10"], ["--rate", "0.0009"],
            ["--rate", "1000001"], ["--max-per-address", "0"],
            ["--max-per-address", "1001"],
        ] {
            let result = TestProcess.aasa(["audit", "example.com", "--resolve", "*:*:127.0.0.1"] + options)
            #expect(result.status == 64, "\(options): \(result)")
            #expect(result.stderr.contains(options[0]), "\(result.stderr)")
        }
    }
}

/// The pieces alone, at their exact boundaries.
struct PolitenessUnitTests {
    /// Issue #24: `--rate 3` at the exact boundary. 1/3 s is not a whole number of
    /// nanoseconds: rounded down, the fourth slot would come 999,999,999 ns after the first,
    /// and a one-second window would hold 4 starts.
    @Test func pacerAtRateThreeNeverPutsFourSlotsInASecond() {
        let pacer = RequestPacer(rate: 3)
        let now = NIODeadline.uptimeNanoseconds(7_000_000_000)
        let slots = (0..<30).map { _ in pacer.reserve(now: now) }
        #expect(slots.count == 30)
        for index in 0..<(slots.count - 3) {
            #expect(slots[index + 3] - slots[index] >= .seconds(1), "slots \(index) and \(index + 3)")
        }
        let seconds = slots.map { Double($0.uptimeNanoseconds) / 1e9 }
        #expect(AccessLog.mostIn(window: 1, seconds) == 3)
    }

    /// Rates the option refuses are taken into the pacer's range by the library, never trapped
    /// on (issue #24: 1e-10 made an interval of 1e19 ns, past Int64).
    @Test func pacerTakesAnyRateWithoutTrapping() {
        let now = NIODeadline.uptimeNanoseconds(1_000_000_000)
        for rate in [1e-10, 0, -1, .nan, .infinity, 1e300] {
            let pacer = RequestPacer(rate: rate)
            #expect(RequestPacer.rates.contains(pacer.rate), "\(rate)")
            #expect(pacer.reserve(now: now) == now)
            #expect(pacer.reserve(now: now) > now)
        }
    }

    @Test func pacerGivesRateSlotsPerSecondAndNoMore() {
        let pacer = RequestPacer(rate: 10)
        let now = NIODeadline.uptimeNanoseconds(5_000_000_000)
        let slots = (0..<21).map { _ in pacer.reserve(now: now) }
        #expect(slots[0] == now)
        // 100 ms apart: the 11th slot is exactly one second after the first.
        #expect(slots[10] - slots[0] == .seconds(1))
        #expect(slots.filter { $0 < now + .seconds(1) }.count == 10)
        #expect(zip(slots, slots.dropFirst()).allSatisfy { $1 - $0 == .milliseconds(100) })
        // A caller after a quiet spell starts at once.
        #expect(pacer.reserve(now: now + .seconds(60)) == now + .seconds(60))
    }

    @Test func addressSlotsQueueInOrderAndForgetIdleAddresses() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let slots = AddressSlots(limit: 2)
        let first = slots.acquire("192.0.2.1", on: loop)
        let second = slots.acquire("192.0.2.1", on: loop)
        let third = slots.acquire("192.0.2.1", on: loop)
        let fourth = slots.acquire("192.0.2.1", on: loop)
        let other = slots.acquire("192.0.2.2", on: loop)
        try first.wait()
        try second.wait()
        try other.wait()
        #expect(slots.held(at: "192.0.2.1") == 2)
        // The limit holds: the third and fourth wait, in their order.
        let order = NIOLockedValueBox<[Int]>([])
        third.whenSuccess { order.withLockedValue { $0.append(3) } }
        fourth.whenSuccess { order.withLockedValue { $0.append(4) } }
        try loop.submit {}.wait()
        #expect(order.withLockedValue { $0 }.isEmpty)
        slots.release("192.0.2.1")
        try third.wait()
        try loop.submit {}.wait()
        #expect(order.withLockedValue { $0 } == [3])
        #expect(slots.held(at: "192.0.2.1") == 2)
        slots.release("192.0.2.1")
        try fourth.wait()
        #expect(order.withLockedValue { $0 } == [3, 4])
        slots.release("192.0.2.1")
        slots.release("192.0.2.1")
        slots.release("192.0.2.2")
        #expect(slots.trackedAddresses == 0)
    }

    @Test func localhostResolvesFromTheHostsFileOnThePool() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let resolver = HostResolver(threads: 2)
        defer { resolver.shutdown() }
        let found = try resolver.addresses(of: "localhost", port: 8443, on: group.next(), timeout: 5).wait()
        #expect(found.contains { $0.ipAddress == "127.0.0.1" && $0.port == 8443 }, "\(found)")
    }

    @Test func lookupErrorsSayWhoseFaultTheyAre() {
        #expect(HostResolver.failure(code: EAI_NONAME, errno: 0).kind == .noAddress)
        #expect(HostResolver.failure(code: -5, errno: 0).kind == .noAddress)  // EAI_NODATA
        #expect(HostResolver.failure(code: EAI_AGAIN, errno: 0).kind == .serverFailure)
        #expect(HostResolver.failure(code: EAI_SYSTEM, errno: EMFILE).kind == .descriptorLimit(errno: EMFILE))
        #expect(HostResolver.failure(code: EAI_SYSTEM, errno: EIO).kind == .other)
        // A machine without descriptors is not the domain's fault: the fetcher's own lookup
        // waits for one (issue #15).
        if case .fetcherLookup = DomainRoute(
            lookupFailure: HostResolver.Failure(kind: .descriptorLimit(errno: EMFILE), detail: ""), host: "a.example",
            timeout: 1)
        {
        } else {
            Issue.record("a descriptor shortage in the lookup must not fail the domain")
        }
        let missing = DomainRoute(
            lookupFailure: HostResolver.Failure(kind: .noAddress, detail: "Name or service not known"),
            host: "a.example", timeout: 1)
        #expect(missing.failure?.message == "a.example does not resolve (Name or service not known)")
        let slow = DomainRoute(
            lookupFailure: HostResolver.Failure(kind: .timeout, detail: ""), host: "a.example", timeout: 2.5)
        #expect(slow.failure?.message == "a.example did not resolve within 2.5 s")
        #expect(slow.failure?.rule == HostingRules.timeout)
    }
}

/// Where a domain's requests go, decided once per domain (issue #17).
struct DomainRouteTests {
    func route(_ host: String, _ configuration: AuditConfiguration) throws -> DomainRoute {
        let auditor = try Auditor(configuration: configuration)
        defer { auditor.shutdown() }
        return try auditor.route(AuditDomain(host: host), on: MultiThreadedEventLoopGroup.singleton.next()).wait()
    }

    static let noTrust = TrustConfiguration(useSystemRoots: false, anchors: [])

    @Test func aProxiedDomainIsNotLookedUpHere() throws {
        // The proxy resolves the name (CONNECT host:port); a local lookup would leak the scan
        // to this machine's resolver, and fail where only the proxy reaches DNS.
        let proxied = AuditConfiguration(
            trust: Self.noTrust, proxy: ProxyConfiguration(proxy: ProxyURL(host: "127.0.0.1", port: 3128)))
        guard case .proxied = try route("localhost", proxied) else {
            Issue.record("a proxied domain was looked up locally")
            return
        }
        // The same name without the proxy is looked up (from /etc/hosts).
        let direct = try route("localhost", AuditConfiguration(trust: Self.noTrust))
        #expect(direct.lookedUp?.contains { $0.ipAddress == "127.0.0.1" } == true, "\(direct)")
        #expect(direct.slotAddress != nil)
        // --resolve names the address without a lookup.
        let configured = try route(
            "localhost",
            AuditConfiguration(
                trust: Self.noTrust, resolve: [ResolveRule(host: "localhost", port: nil, address: "127.0.0.9")]))
        #expect(configured.slotAddress == "127.0.0.9" && configured.lookedUp == nil)
    }
}
