import AASA
import Foundation
import Testing

@testable import AASAAudit

/// `aasa audit summarize --list` (``FleetDomainFilter``): each condition, their conjunction, and
/// one clear problem for each form that is not one.
@Suite("fleet domain filter: --list conditions")
struct FleetDomainFilterTests {
    static func row(_ domain: String, _ verdict: AuditVerdict, rules: [String] = [], signer expired: Bool? = nil)
        -> FleetDomainRow
    {
        FleetDomainRow(
            domain: domain, verdict: verdict, errors: 0, warnings: 0, deprecations: rules.count, rules: rules,
            signer: expired.map { _ in
                FleetSigner(subject: "CN=\(domain)", issuer: "CN=CA", notAfter: Date(), sha256Fingerprint: nil)
            },
            signerExpired: expired ?? false)
    }

    static let rows = [
        row("a.example.com", .current),
        row("b.example.com", .legacy, rules: ["signed-file"], signer: false),
        row("c.example.com", .legacy, rules: ["signed-file", "signer-expired"], signer: true),
        row("d.example.com", .broken, rules: ["no-file"]),
    ]

    static func listed(_ written: [String]) throws -> [String] {
        let filter = try FleetDomainFilter(parsing: written)
        return rows.filter(filter.matches).map(\.domain)
    }

    @Test("each condition selects exactly its domains, and several must all hold")
    func conditionsSelect() throws {
        #expect(try Self.listed([]) == Self.rows.map(\.domain))
        #expect(try Self.listed(["verdict=legacy"]) == ["b.example.com", "c.example.com"])
        #expect(try Self.listed(["verdict=not-audited"]) == [])
        #expect(try Self.listed(["rule=signed-file"]) == ["b.example.com", "c.example.com"])
        #expect(try Self.listed(["rule=no-file"]) == ["d.example.com"])
        #expect(try Self.listed(["signer=expired"]) == ["c.example.com"])
        #expect(try Self.listed(["signer=valid"]) == ["b.example.com"])
        #expect(try Self.listed(["signer=none"]) == ["a.example.com", "d.example.com"])
        #expect(try Self.listed(["verdict=legacy", "signer=valid"]) == ["b.example.com"])
        #expect(try Self.listed(["rule=signed-file", "rule=signer-expired"]) == ["c.example.com"])
    }

    @Test(
        "a condition that is not KEY=VALUE with a known key and value is one problem naming what is allowed",
        arguments: [
            ("verdict", "is not KEY=VALUE"), ("verdict=", "is not KEY=VALUE"), ("=broken", "'' is not a key"),
            ("domain=x", "'domain' is not a key: verdict, rule or signer"),
            ("verdict=bad", "'bad' is not a verdict: current, legacy, needs-attention, broken, not-audited"),
            ("signer=old", "'old' is not a signer state: expired, valid or none"),
        ])
    func problems(written: String, message: String) {
        #expect(throws: FleetDomainFilter.Problem.self) { try FleetDomainFilter(parsing: [written]) }
        do {
            _ = try FleetDomainFilter(parsing: ["verdict=broken", written])
            Issue.record("'\(written)' was accepted")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }
}
