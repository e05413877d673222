import AASA
import AASAReports
import Foundation
import Testing

@testable import AASAAudit

/// The fleet audit as a library user runs it (issue #26): `FleetAudit` over a list of domains
/// against the test nginx on 127.0.0.1, in the callback form the CLI uses and as an
/// `AsyncSequence`, without the `aasa` command.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct FleetAuditTests {
    func auditor(_ server: NginxServer) throws -> Auditor {
        let anchors = try X509Certificate.load(
            from: Data(contentsOf: URL(fileURLWithPath: TestPaths.cert("ca-bundle.pem"))))
        return try Auditor(
            configuration: AuditConfiguration(
                trust: TrustConfiguration(useSystemRoots: false, anchors: anchors), timeout: 5,
                resolve: [ResolveRule(host: "*", port: nil, address: "127.0.0.1")], threads: 2))
    }

    /// Slow answers first, so that later domains finish before earlier ones.
    static let hosts: [NginxServer.Host] = [.slow, .plain, .signedRoot, .missing, .slow, .both, .plain]

    func names(_ server: NginxServer) -> [String] {
        var names = Self.hosts.map { server.domain($0) }
        names.insert("not a domain", at: 3)
        return names
    }

    @Test("callbacks: reports in input order, the invalid entry in its place, at most `concurrency` in flight")
    func orderedCallbacks() throws {
        try withNginx { server in
            let auditor = try auditor(server)
            defer { auditor.shutdown() }
            var events: [String] = []
            var mostInFlight = 0
            let outcome = FleetAudit(auditor: auditor, concurrency: 3).run(
                FleetEntryList(names: names(server)),
                invalid: { origin, _ in events.append("invalid \(origin)") },
                tick: { mostInFlight = max(mostInFlight, $0) },
                report: { events.append($0.domain) })
            let expected = names(server).map { $0 == "not a domain" ? "invalid not a domain" : $0 }
            // The invalid entry is reported when it is taken, before the reports of the domains
            // before it that are still in flight; the reports keep their order.
            #expect(events.filter { !$0.hasPrefix("invalid") } == expected.filter { !$0.hasPrefix("invalid") })
            #expect(events.contains("invalid not a domain"))
            #expect(outcome == FleetAudit.Outcome(audited: Self.hosts.count, invalidEntries: 1))
            #expect(mostInFlight >= 1 && mostInFlight <= 3, "\(mostInFlight)")
        }
    }

    @Test("unordered: every report once, as each finishes")
    func unorderedCallbacks() throws {
        try withNginx { server in
            let auditor = try auditor(server)
            defer { auditor.shutdown() }
            var domains: [String] = []
            let outcome = FleetAudit(auditor: auditor, concurrency: 8, ordered: false).run(
                FleetEntryList(names: names(server)), report: { domains.append($0.domain) })
            #expect(domains.sorted() == Self.hosts.map { server.domain($0) }.sorted())
            #expect(outcome.audited == Self.hosts.count && outcome.invalidEntries == 1)
        }
    }

    @Test("AsyncSequence: the same events in order, then finished; a slow consumer gets every report")
    func asyncSequence() async throws {
        try await withNginx { server in
            let auditor = try auditor(server)
            defer { auditor.shutdown() }
            var domains: [String] = []
            var invalid: [String] = []
            var finished: FleetAudit.Outcome?
            // A window of 4 events (concurrency 1): the consumer sleeps, the audit waits for it.
            for await event in FleetAudit(auditor: auditor, concurrency: 1).reports(
                from: FleetEntryList(names: names(server)))
            {
                #expect(finished == nil, "nothing after finished")
                switch event {
                case .report(let report):
                    domains.append(report.domain)
                    try await Task.sleep(for: .milliseconds(20))
                case .invalid(let origin, _): invalid.append(origin)
                case .finished(let outcome): finished = outcome
                }
            }
            #expect(domains == Self.hosts.map { server.domain($0) })
            #expect(invalid == ["not a domain"])
            #expect(finished == FleetAudit.Outcome(audited: Self.hosts.count, invalidEntries: 1))
        }
    }

    @Test("AsyncSequence: a consumer that falls behind and stops leaves no run waiting, and the list unread")
    func asyncSequenceStoppedEarly() async throws {
        try await withNginx { server in
            let auditor = try auditor(server)
            defer { auditor.shutdown() }
            let list = CountingList((1...200).map { _ in server.domain(.plain) })
            let events = FleetAudit(auditor: auditor, concurrency: 2).reports(from: list)
            var seen = 0
            for await event in events {
                if case .report = event { seen += 1 }
                // A consumer that falls behind, then stops: the run has filled its window of 8
                // events and waits for room that will never come unless the stop frees it.
                if seen == 1 {
                    try await Task.sleep(for: .seconds(1))
                    break
                }
            }
            #expect(seen == 1)
            // The run ends once the domains in flight finish: it neither waits for a consumer
            // that is gone nor reads the rest of the list.
            let deadline = Date().addingTimeInterval(10)
            while !events.source.hasFinished && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
            #expect(events.source.hasFinished, "the run still waits for the consumer")
            #expect(list.taken < 200, "the run went on reading the list: \(list.taken) taken")
        }
    }
}

/// The fleet summary without the CLI (issue #26): audited in process, summarized from the
/// reports, and the same summary from the reports' JSON lines as `audit summarize` reads them.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct FleetSummaryLibraryTests {
    @Test("FleetAudit then FleetSummary: the verdict counts, each domain once, signers; the same from JSON lines")
    func summarizeInProcess() throws {
        try withNginx { server in
            let auditor = try FleetAuditTests().auditor(server)
            defer { auditor.shutdown() }
            let hosts: [NginxServer.Host] = [.plain, .signedRoot, .missing, .plain, .expiredSigner]
            var reports: [DomainReport] = []
            _ = FleetAudit(auditor: auditor, concurrency: 4).run(
                FleetEntryList(names: hosts.map { server.domain($0) }), report: { reports.append($0) })
            #expect(reports.count == hosts.count)

            var inProcess = FleetSummary()
            var fromLines = FleetSummary()
            let decoder = AuditLine.decoder()
            for report in reports {
                inProcess.add(report)
                let line = try ReportJSON.line(Stamped(report, .audit))
                let text = String(decoding: line, as: UTF8.self)
                switch AuditLine.parse(text.trimmingCharacters(in: .newlines), decoder: decoder) {
                case .success(let record):
                    fromLines.add(record.report)
                    // The one reader gives back what audit wrote, key for key.
                    #expect(try ReportJSON.line(Stamped(record.report, .audit)) == line, "\(report.domain)")
                    #expect(record.aasaVersion == AASAVersion.number)
                case .failure(let problem): Issue.record("\(problem)")
                }
            }
            let at = Date()
            let summary = inProcess.report(at: at)
            #expect(summary.domains == 4 && summary.records == 5 && summary.duplicates == 1)
            #expect(summary.verdicts.map(\.domains).reduce(0, +) == 4)
            let counts = Dictionary(uniqueKeysWithValues: summary.verdicts.map { ($0.verdict, $0.domains) })
            var expected: [AuditVerdict: Int] = [:]
            for host in Set(hosts) {
                guard let report = reports.first(where: { $0.domain == server.domain(host) }) else { continue }
                expected[report.verdict, default: 0] += 1
            }
            #expect(counts == expected)
            #expect(summary.signedDomains >= 1, "the signed files' signers: \(summary.signers)")
            let again = fromLines.report(at: at)
            #expect(try ReportJSON.encode(again) == ReportJSON.encode(summary), "in process and from JSON lines")
        }
    }
}

/// A list that counts how many entries were taken.
final class CountingList: FleetEntrySource, @unchecked Sendable {
    // @unchecked: read by the run's thread, then by the test after the run stopped taking.
    private let names: [String]
    private let lock = NSLock()
    private var index = 0

    init(_ names: [String]) { self.names = names }

    var taken: Int { lock.withLock { index } }

    func next() -> FleetEntry? {
        lock.withLock {
            guard index < names.count else { return nil }
            defer { index += 1 }
            let name = names[index]
            return (try? AuditDomain.parse(name)).map(FleetEntry.domain)
                ?? .invalid(origin: name, message: "not a domain")
        }
    }
}

/// The shard and already-reported selection of a fleet audit, as a library user sets it.
struct DomainSelectionTests {
    static let domains = (1...40).compactMap { try? AuditDomain.parse("d\($0).example.com") }

    @Test("two shards take every domain exactly once; each counts the other's")
    func shardsPartition() throws {
        #expect(Self.domains.count == 40, "every name parsed")
        var taken: [String] = []
        for index in 1...2 {
            var selection = DomainSelection(shard: try AuditShard(index: index, count: 2))
            let mine = try Self.domains.filter { try selection.admits($0) }
            #expect(selection.otherShards == Self.domains.count - mine.count)
            #expect(!mine.isEmpty && mine.count < Self.domains.count, "\(mine.count) of \(Self.domains.count)")
            taken += mine.map(\.description)
        }
        #expect(taken.sorted() == Self.domains.map(\.description).sorted())
    }

    @Test("with a resume set: reported domains and repeats are skipped and counted")
    func alreadyReported() throws {
        var selection = DomainSelection(reported: [Self.domains[0].description])
        let list = [Self.domains[0], Self.domains[1], Self.domains[1], Self.domains[2]]
        let admitted = try list.filter { try selection.admits($0) }
        #expect(admitted.map(\.description) == [Self.domains[1], Self.domains[2]].map(\.description))
        #expect(selection.alreadyReported == 2)
    }
}
