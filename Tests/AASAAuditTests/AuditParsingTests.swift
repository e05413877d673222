import AASA
import Foundation
import Testing

@testable import AASAAudit

/// Domains, `--resolve` rules, JSON meaning and the rule catalogue: no network.
struct AuditDomainTests {
    @Test(arguments: [
        ("example.com", "example.com", 443),
        ("Example.COM.", "example.com", 443),
        ("staging.example.com:8443", "staging.example.com", 8443),
        ("https://example.com/", "example.com", 443),
        ("https://shop.example.com:444", "shop.example.com", 444),
        ("  www.example.com  ", "www.example.com", 443),
        ("xn--bcher-kva.example", "xn--bcher-kva.example", 443),
    ])
    func parsesDomains(text: String, host: String, port: Int) throws {
        let domain = try AuditDomain.parse(text)
        #expect(domain.host == host)
        #expect(domain.port == port)
        #expect(domain.description == (port == 443 ? host : "\(host):\(port)"))
    }

    @Test(arguments: [
        "", "http://example.com", "example.com/path", "https://example.com/.well-known/apple-app-site-association",
        "example.com:0", "example.com:70000", "example.com:x", "127.0.0.1", "bücher.example", "-bad.example.com",
        "a..b", "user@example.com",
    ])
    func rejectsWhatIsNotADomain(text: String) {
        #expect(throws: AuditDomain.ParseError.self) { try AuditDomain.parse(text) }
    }
}

struct ResolveRuleTests {
    @Test func parsesCurlSyntax() throws {
        let rule = try ResolveRule.parse("example.com:443:127.0.0.1")
        #expect(rule == ResolveRule(host: "example.com", port: 443, address: "127.0.0.1"))
        #expect(try ResolveRule.parse("example.com:443:[::1]").address == "::1")
        #expect(try ResolveRule.parse("example.com:443:::1").address == "::1")
        #expect(try ResolveRule.parse("*.example.com:*:127.0.0.1").port == nil)
    }

    @Test(arguments: [
        "example.com:443", "example.com:443:localhost", ":443:127.0.0.1", "example.com:0:127.0.0.1",
        "exa mple.com:443:127.0.0.1",
    ])
    func rejectsBadRules(text: String) {
        #expect(throws: ResolveRule.ParseError.self) { try ResolveRule.parse(text) }
    }

    @Test func matchesNamesPatternsAndPorts() throws {
        let exact = try ResolveRule.parse("a.example.com:8443:127.0.0.2")
        let pattern = try ResolveRule.parse("*.example.com:8443:127.0.0.3")
        let any = try ResolveRule.parse("*:*:127.0.0.4")
        #expect(exact.matches(host: "A.example.com", port: 8443))
        #expect(!exact.matches(host: "a.example.com", port: 443))
        #expect(pattern.matches(host: "deep.b.example.com", port: 8443))
        #expect(!pattern.matches(host: "example.com", port: 8443))
        #expect(!pattern.matches(host: "badexample.com", port: 8443))
        let rules = [any, pattern, exact]
        #expect(rules.address(forHost: "a.example.com", port: 8443) == "127.0.0.2")
        #expect(rules.address(forHost: "b.example.com", port: 8443) == "127.0.0.3")
        #expect(rules.address(forHost: "example.org", port: 1) == "127.0.0.4")
        #expect([pattern].address(forHost: "example.org", port: 8443) == nil)
    }
}

struct JSONMeaningTests {
    @Test func sameMeaningIgnoresLayoutOrderAndNumberSpelling() {
        let a = Data(#"{"a": 1, "b": [true, null, "x"]}"#.utf8)
        let b = Data("{\n  \"b\" : [ true, null, \"x\" ],\n  \"a\" : 1.0\n}\n".utf8)
        #expect(CopyComparison(a, a) == .identical)
        #expect(CopyComparison(a, b) == .sameMeaning)
        #expect(CopyComparison(a, Data(#"{"a": 2, "b": [true, null, "x"]}"#.utf8)) == .different)
        #expect(CopyComparison(a, Data(#"{"a": 1, "b": ["x", null, true]}"#.utf8)) == .different)
        #expect(CopyComparison(a, Data("not json".utf8)) == .different)
    }

    @Test func comparisonParsesWithTheAuditLimits() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let a = Data(#"{"x": \#(deep)}"#.utf8)
        let b = Data("{\n  \"x\": \(deep)\n}\n".utf8)
        #expect(CopyComparison(a, b) == .different, "600 levels are past the default 512: not JSON")
        #expect(CopyComparison(a, b, limits: InputLimits(maximumJSONDepth: 601)) == .sameMeaning)
    }
}

struct HostingRuleCatalogueTests {
    static let required = [
        "served-at-root-only", "redirect", "http-status", "content-type", "tls-error", "signer-not-domain-identity",
        "signer-expired", "no-file",
    ]

    @Test func catalogueHasTheRequiredRulesOnce() {
        let ids = HostingRules.all.map(\.id.rawValue)
        #expect(Set(ids).count == ids.count)
        for id in Self.required { #expect(ids.contains(id), "\(id) is missing") }
        // No clash with a lint rule: a hosting ID never means something else in `aasa lint`.
        for id in ids { #expect(RuleCatalogue.entries[RuleID(rawValue: id)] == nil, "\(id) is also a lint rule") }
    }

    @Test func everyHostingRuleIsDocumented() throws {
        let rules = try String(contentsOf: TestPaths.repoRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        let section = try #require(
            rules.range(of: "## Findings reported by `aasa audit`"), "docs/rules.md has no audit section")
        let text = rules[section.upperBound...]
        for entry in HostingRules.all {
            #expect(text.contains("### \(entry.id.rawValue)"), "docs/rules.md does not document \(entry.id.rawValue)")
            #expect(text.contains("**Severity:** \(entry.severity.rawValue)"))
        }
    }
}
