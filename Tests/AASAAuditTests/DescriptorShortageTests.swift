import AASA
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import AASAAudit

/// Issue #15, without a server: how a shortage of file descriptors is recognised, and the
/// report it gives (`AuditDescriptorTests` runs the CLI out of descriptors).
struct DescriptorShortageTests {
    @Test func emfileAndEnfileAreShortagesAndNothingElseIs() {
        #expect(DescriptorShortage.code(in: IOError(errnoCode: EMFILE, reason: "socket")) == EMFILE)
        #expect(DescriptorShortage.code(in: IOError(errnoCode: ENFILE, reason: "socket")) == ENFILE)
        for other in [ECONNREFUSED, ECONNRESET, ENETUNREACH, ENOMEM, EACCES] {
            #expect(DescriptorShortage.code(in: IOError(errnoCode: other, reason: "connect")) == nil)
        }
        #expect(DescriptorShortage.code(in: ChannelError.connectTimeout(.seconds(1))) == nil)
        // With descriptors to spare, a probe finds no shortage.
        #expect(DescriptorShortage.probe() == nil)
        #expect(DescriptorShortage.check(count: 8) == nil)
    }

    @Test func theWordingNamesThisMachineNotTheDomain() {
        let emfile = FetchFailure.descriptorLimit(errno: EMFILE, waited: 10)
        #expect(emfile.isLocal)
        #expect(emfile.rule == HostingRules.localDescriptorLimit)
        #expect(emfile.message.hasPrefix("not audited: this machine ran out of file descriptors (Too many open files"))
        #expect(emfile.message.contains("open-file limit (`ulimit -n`: "))
        #expect(emfile.message.contains("within 10.0 s; this says nothing about the domain"))
        let enfile = FetchFailure.descriptorLimit(errno: ENFILE, waited: 0.5)
        #expect(enfile.message.contains("the system's table of open files is full"))
        #expect(enfile.message.contains("within 0.50 s"))
        for failure in [FetchFailure.connection("x"), .tls("x"), .timeout("x"), .interrupted("x")] {
            #expect(!failure.isLocal)
        }
        // Documented like a hosting rule, but never a finding on the domain.
        let entry = HostingRules.entries[HostingRules.localDescriptorLimit]
        #expect(entry?.summary.hasPrefix("Not about the domain") == true)
    }

    @Test func pauseBacksOffAndStaysShort() throws {
        for _ in 0..<100 {
            let first = try #require(HTTPSFetcher.descriptorPause(after: 0, within: 10))
            #expect(first >= 0.005 && first <= 0.01)
            let later = try #require(HTTPSFetcher.descriptorPause(after: 5, within: 10))
            #expect(later >= 0.125 && later <= 0.25)
        }
    }

    /// Issue #24, at the exact boundary: the wait for a descriptor never runs past `--timeout`.
    /// The last pause is cut to what is left, and at the limit there is none; before, a pause
    /// was taken whole whenever it fit after the previous attempt's start, which let the wait
    /// run past the limit by that attempt's own time.
    @Test func pauseNeverRunsPastTheLimit() {
        let limit = 2.5
        for random in [0.5, 0.75, 1.0] {
            for waited in [0, 0.001, 1, 2.25, 2.3, 2.4999, limit - 1e-9] {
                let pause = HTTPSFetcher.descriptorPause(after: waited, within: limit, random: random)
                #expect(
                    pause.map { $0 > 0 && waited + $0 <= limit } == true, "\(waited) + \(String(describing: pause))")
            }
            // A last pause that would pass the limit is cut to reach it exactly.
            #expect(
                HTTPSFetcher.descriptorPause(after: 2.4, within: limit, random: random)
                    == min(0.25 * random, limit - 2.4))
            for waited in [limit, limit + 1e-9, 3, 100] {
                #expect(HTTPSFetcher.descriptorPause(after: waited, within: limit, random: random) == nil, "\(waited)")
            }
        }
    }

    /// A domain of which one URL could not be fetched for lack of descriptors is `not-audited`,
    /// with the local finding alone: nothing else that was or was not fetched is judged.
    @Test func aLocalFailureMakesTheDomainNotAudited() throws {
        let domain = AuditDomain(host: "example.com")
        func result(_ path: String, _ failure: FetchFailure?, status: Int? = nil) -> FetchResult {
            let target = FetchTarget(host: domain.host, port: domain.port, path: path)
            let response = status.map {
                FetchedResponse(status: $0, headers: HTTPHeaders(), body: Data("{}".utf8), truncated: false)
            }
            return FetchResult(
                target: target, address: "127.0.0.1", attempts: 1,
                timings: PathReport.Timings(connectMs: nil, tlsMs: nil, firstByteMs: nil, totalMs: 1), tls: nil,
                response: response, failure: failure, descriptorWait: failure == nil ? 0.25 : 10)
        }
        let local = FetchFailure.descriptorLimit(errno: EMFILE, waited: 10)
        let analysis = DomainAnalysis(
            domain: domain, wellKnown: result(Auditor.paths[0], nil, status: 404),
            root: result(Auditor.paths[1], local), cdn: nil,
            verifier: Verifier(trust: try TrustStore(TrustConfiguration(useSystemRoots: false))), checkTime: Date())
        let report = analysis.report(startedAt: Date(), durationMs: 1)
        #expect(report.verdict == .notAudited)
        #expect(report.file == nil)
        #expect(report.diagnostics.map(\.rule) == [HostingRules.localDescriptorLimit])
        #expect(try #require(report.diagnostics.first).url == nil)
        #expect(report.paths[0].status == 404 && report.paths[0].descriptorWaitMs == 250)
        #expect(report.paths[1].error?.rule == "local-descriptor-limit")
        #expect(report.paths[1].descriptorWaitMs == 10_000)

        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
        #expect(json?["verdict"] as? String == "not-audited")
        let paths = json?["paths"] as? [[String: Any]]
        #expect(paths?[1]["descriptorWaitMs"] as? Double == 10_000)
    }

    @Test func auditVerdictsFollowCheck() {
        #expect(AuditVerdict(.current) == .current)
        #expect(AuditVerdict(.legacy) == .legacy)
        #expect(AuditVerdict(.needsAttention) == .needsAttention)
        #expect(AuditVerdict(.broken) == .broken)
        #expect(
            AuditVerdict.allCases.map(\.rawValue) == [
                "current", "legacy", "needs-attention", "broken", "not-audited",
            ])
    }
}
