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
    /// One line of the paced log.
    struct Request {
        let start: Double
        let end: Double
        let connectionStart: Double
        let host: String
        let uri: String
    }

    static func requests(_ server: NginxServer) throws -> [Request] {
        let text = try String(contentsOf: server.pacedLog, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let fields = line.split(separator: " ").map(String.init)
            let numbers = fields.prefix(3).compactMap(Double.init)
            guard fields.count == 7, numbers.count == 3 else { throw NginxServer.ServerError("log line: \(line)") }
            return Request(
                start: numbers[0] - numbers[1], end: numbers[0], connectionStart: numbers[0] - numbers[2],
                host: fields[4], uri: fields[6])
        }
    }

    /// The most intervals open at one time (half-open: one that ends as another starts does not overlap it).
    static func mostAtOnce(_ intervals: [(start: Double, end: Double)]) -> Int {
        var events: [(time: Double, change: Int)] = []
        for interval in intervals {
            events.append((interval.start, 1))
            events.append((interval.end, -1))
        }
        // At one time, ends before starts.
        events.sort { first, second in
            first.time != second.time ? first.time < second.time : first.change < second.change
        }
        var open = 0
        var most = 0
        for (_, change) in events {
            open += change
            most = max(most, open)
        }
        return most
    }

    /// Each domain's time at the server: from its first connection's start to its last answer.
    static func domainsAtOnce(_ requests: [Request]) -> Int {
        let byHost = Dictionary(grouping: requests, by: \.host)
        return mostAtOnce(
            byHost.values.map { lines in
                (lines.map(\.connectionStart).min() ?? 0, lines.map(\.end).max() ?? 0)
            })
    }

    /// The most request starts in any one-second window [t, t + 1).
    static func mostStartsInASecond(_ requests: [Request]) -> Int {
        let starts = requests.map(\.start).sorted()
        var most = 0
        var first = 0
        for (index, start) in starts.enumerated() {
            while starts[first] <= start - 1 { first += 1 }
            most = max(most, index - first + 1)
        }
        return most
    }

    func audit(_ server: NginxServer, domains: Int, _ options: [String]) throws -> [Request] {
        let names = (1...domains).map { "paced-\($0).example.com:\(server.port)" }
        let result = TestProcess.aasa(
            ["audit"] + names + ["--concurrency", String(domains), "--format", "jsonl", "--no-progress"] + options
                + server.auditOptions)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.split(separator: "\n").count == domains)
        let requests = try Self.requests(server)
        // Both paths of every domain reached the server once.
        #expect(requests.count == 2 * domains, "\(requests.count) requests logged")
        #expect(Set(requests.map(\.host)).count == domains)
        return requests
    }

    @Test func maxPerAddressCapsTheDomainsTheServerSeesAtOnce() throws {
        try withNginx { server in
            let requests = try audit(server, domains: 12, ["--max-per-address", "3"])
            // Every domain shares 127.0.0.1: never more than 3 at once, and the cap is reached.
            #expect(Self.domainsAtOnce(requests) == 3)
        }
    }

    @Test func withoutTheCapTheSameRunOverlapsMore() throws {
        // The control: the measurement above sees a broken cap (all 12 at once).
        try withNginx { server in
            let requests = try audit(server, domains: 12, [])
            #expect(Self.domainsAtOnce(requests) > 3)
        }
    }

    @Test func rateSpacesTheRequestsTheServerSees() throws {
        try withNginx { server in
            let requests = try audit(server, domains: 15, ["--rate", "10"])
            // 30 requests at 10 a second: spread over at least 2.9 s, and no second holds more
            // than 10 starts (one more allowed for the handshake's jitter between the slot and
            // the request reaching nginx).
            let starts = requests.map(\.start)
            let span = (starts.max() ?? 0) - (starts.min() ?? 0)
            #expect(span >= 2.85, "30 requests in \(span) s")
            #expect(Self.mostStartsInASecond(requests) <= 11)
        }
    }

    @Test func withoutARateTheSameRequestsComeAtOnce() throws {
        try withNginx { server in
            let requests = try audit(server, domains: 15, [])
            #expect(Self.mostStartsInASecond(requests) > 11)
        }
    }

    @Test func invalidRatesAndCapsAreUsageErrors() {
        for options in [
            ["--rate", "0"], ["--rate", "-1"], ["--rate", "nan"], ["--max-per-address", "0"],
            ["--max-per-address", "1001"],
        ] {
            let result = TestProcess.aasa(["audit", "example.com"] + options)
            #expect(result.status == 64, "\(options): \(result)")
            #expect(result.stderr.contains(options[0]), "\(result.stderr)")
        }
    }
}

/// The pieces alone, at their exact boundaries.
struct PolitenessUnitTests {
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
