import Foundation
import Testing

/// `aasa audit` at scale over the WAN simulation (benchmarks/wan-sim.sh, issue #17): 2,000 domains,
/// each in a category of the mix (no file, plain JSON, signed, redirect, wrong type, oversized,
/// error status, slow DNS, NXDOMAIN, refused, hanging), looked up through a real DNS server and
/// fetched over a delay line. One simulation serves every test (``WANSimulationRun``). Without
/// root (network namespaces need it) the suite is skipped with that reason; as root, where the
/// simulation cannot be built every test fails with the script's reason.
@Suite(.enabled(if: geteuid() == 0, "the WAN simulation makes network namespaces: run the tests as root (CI does)"))
struct WANSimulationTests {
    /// The mix's categories (benchmarks/wan-sim/make-mix.py).
    static let categories: Set<String> = [
        "none", "json", "signed", "redirect", "wrong-type", "oversized", "http-error", "slow-dns", "nxdomain",
        "refused", "hang",
    ]

    func run() throws -> WANSimulationRun { try WANSimulationRun.shared.get() }

    /// Checks that `reports` hold every domain of the mix exactly once, each with the verdict
    /// and key finding its category dictates, and that each category has its full count.
    func expectWholeMix(_ reports: [WANSimulationRun.Report], in run: WANSimulationRun, _ what: String) {
        let domains = reports.map(\.domain)
        #expect(domains.count == WANSimulationRun.domainCount, "\(what): \(domains.count) reports")
        #expect(Set(domains).count == domains.count, "\(what): a domain reported twice")
        #expect(Set(domains) == Set(run.domains), "\(what): not the mix's domains")
        let wrong = reports.filter { !run.matches($0) }
        #expect(
            wrong.isEmpty,
            "\(what): \(wrong.count) verdicts differ from the manifest, e.g. \(wrong.prefix(5).map { ($0, run.expectations[$0.domain]) })"
        )
        var matching: [String: Int] = [:]
        for report in reports where run.matches(report) {
            matching[run.expectations[report.domain]?.category ?? "?", default: 0] += 1
        }
        for category in Self.categories.sorted() {
            #expect(matching[category, default: 0] == run.categoryCounts[category], "\(what): \(category)")
        }
    }

    @Test func theMixHasEveryCategoryWithItsShare() throws {
        let run = try run()
        #expect(run.domains.count == WANSimulationRun.domainCount)
        #expect(Set(run.domains).count == run.domains.count)
        #expect(Set(run.categoryCounts.keys) == Self.categories)
        var counted: [String: Int] = [:]
        for expectation in run.expectations.values { counted[expectation.category, default: 0] += 1 }
        #expect(counted == run.categoryCounts)
        // Every category is there in numbers: at least 2 % of the mix each, 10 % hang.
        for category in Self.categories {
            #expect(counted[category, default: 0] >= WANSimulationRun.domainCount / 50, "\(category)")
        }
        #expect(counted["hang"] == WANSimulationRun.domainCount / 10)
    }

    /// Issue #30: the HTML report of the whole mix, as Chromium renders it.
    @Test(.enabled(if: HeadlessChromium.isAvailable, Comment(rawValue: HeadlessChromium.skipReason)))
    func theFleetReportOfTheWholeMixRendersInChromium() throws {
        let run = try run()
        let page = try #require(run.page)
        #expect(page.summarizeStatus == 0, "\(page.summarizeStderr)")
        #expect(page.load.dom.contains("data-ready=\"true\""), "\(page.load.log)")
        #expect(page.load.consoleErrors.isEmpty, "\(page.load.consoleErrors)")
        #expect(page.load.dom.contains("data-matching=\"\(WANSimulationRun.domainCount)\""))
        var verdicts: [String: Int] = [:]
        for report in run.resumed { verdicts[report.verdict, default: 0] += 1 }
        for (verdict, count) in verdicts {
            #expect(page.load.dom.contains("data-verdict=\"\(verdict)\" data-count=\"\(count)\""), "\(verdict)")
        }
        let marks = page.load.dom.components(separatedBy: "<circle class=\"mark ").count - 1
        #expect(page.signers > 0 && marks == page.signers, "\(marks) marks for \(page.signers) signers")
        // The first page of the table: 100 rows of the 2,000.
        #expect(page.load.dom.components(separatedBy: "<tr class=\"domain ").count - 1 == 100)
        // The address's filter: exactly the legacy domains (the signed files, fewer than a page),
        // and the first one's detail open, with its signature and signer.
        let legacy = verdicts["legacy", default: 0]
        #expect(legacy > 0 && legacy <= 100, "\(legacy)")
        let rows = page.legacy.dom.components(separatedBy: "<tr class=\"domain ").dropFirst()
        #expect(rows.count == legacy && rows.allSatisfy { $0.hasPrefix("verdict-legacy\"") }, "\(rows.count)")
        #expect(page.legacy.dom.contains("data-matching=\"\(legacy)\""))
        let detail = page.legacy.dom.components(separatedBy: "<tr class=\"detail-row\">").dropFirst().first ?? ""
        #expect(detail.contains("<dt>signature</dt><dd>valid</dd>"), "\(detail.prefix(2000))")
        #expect(detail.contains("<dt>signer</dt><dd>CN=*.example.com</dd>"), "\(detail.prefix(2000))")
    }

    @Test func scanKilledWithSIGKILLMidwayAndResumedReportsEveryDomainOnceWithItsVerdict() throws {
        let run = try run()
        #expect(run.killedStatus == 128 + SIGKILL, "the first run must end by SIGKILL, not finish")
        #expect(run.linesAtKill >= WANSimulationRun.killAfterLines, "\(run.linesAtKill)")
        #expect(run.linesAtKill < WANSimulationRun.domainCount, "killed mid-way: \(run.linesAtKill)")
        #expect(run.resumedStatus == 1, "\(run.resumedStderr)")  // the mix has errors
        let skipped = run.linesAtKill
        #expect(
            run.resumedStderr.contains(
                "\(skipped) domains were already reported there; \(WANSimulationRun.domainCount - skipped) appended"),
            "\(run.resumedStderr)")
        expectWholeMix(run.resumed, in: run, "the resumed file")
    }

    @Test func threeShardsTogetherAreTheWholeListWithoutOverlapEachWithItsVerdict() throws {
        let run = try run()
        #expect(run.shards.count == 3)
        for (index, shard) in run.shards.enumerated() {
            #expect(run.shardStatuses[index] == 1, "shard \(index + 1) of 3")
            // A stable hash shares 2,000 names out evenly enough: no shard is near empty.
            #expect(shard.count > WANSimulationRun.domainCount / 5, "shard \(index + 1): \(shard.count)")
        }
        for (first, second) in [(0, 1), (0, 2), (1, 2)] {
            let overlap = Set(run.shards[first].map(\.domain)).intersection(run.shards[second].map(\.domain))
            #expect(overlap.isEmpty, "shards \(first + 1) and \(second + 1) share \(overlap.prefix(5))")
        }
        expectWholeMix(run.shards.flatMap { $0 }, in: run, "the three shards")
    }

    /// The polite run's reports (each domain once, as the manifest says) and its requests at nginx.
    func politeRequests(_ polite: WANSimulationRun.PoliteRun, in run: WANSimulationRun) -> AccessLog {
        #expect(polite.status == 1, "\(polite.stderr)")  // the mix has errors
        let names = Set(run.domains.prefix(WANSimulationRun.politeDomains))
        #expect(polite.reports.count == names.count && Set(polite.reports.map(\.domain)) == names)
        let wrong = polite.reports.filter { !run.matches($0) }
        #expect(wrong.isEmpty, "\(wrong.count) verdicts differ from the manifest: \(wrong.prefix(3))")
        let log = AccessLog(requests: polite.log.requests.filter { names.contains($0.host) })
        #expect(log.requests.count >= names.count / 2, "\(log.requests.count) requests")
        return log
    }

    @Test func maxPerAddressHoldsUnderLoadAsTheServerSeesIt() throws {
        let run = try run()
        let log = politeRequests(run.capped, in: run)
        // No address ever served more than 4 of these domains at once, and the CDN addresses,
        // shared by most domains, reached the cap.
        let cap = WANSimulationRun.politeCap
        let atOnce = log.mostDomainsAtOnceByAddress
        #expect(atOnce.values.allSatisfy { $0 <= cap }, "\(atOnce)")
        #expect(atOnce.values.contains(cap), "\(atOnce)")
        // The control: the shards' runs had no cap, and the log shows it.
        let free = run.shardsLog.mostDomainsAtOnceByAddress
        #expect(free.values.contains { $0 > cap }, "\(free)")
    }

    @Test func rateHoldsUnderLoadAsTheServerSeesIt() throws {
        let run = try run()
        let log = politeRequests(run.paced, in: run)
        // The requests' average rate is at most 40 a second, and no second holds much more (the
        // delay line's jitter and a loaded machine move a request's arrival by tens of
        // milliseconds after its slot; the exact spacing is PolitenessUnitTests').
        let rate = Double(WANSimulationRun.politeRate)
        let count = Double(log.requests.count)
        #expect(log.startSpan >= (count - 1) / rate - 1, "\(log.requests.count) in \(log.startSpan) s")
        #expect(Double(log.mostStartsInASecond) <= rate * 1.5, "\(log.mostStartsInASecond) in one second")
        // The control: the shards' runs had no rate, and the log shows it.
        #expect(Double(run.shardsLog.mostStartsInASecond) > rate * 1.5, "\(run.shardsLog.mostStartsInASecond)")
    }
}
