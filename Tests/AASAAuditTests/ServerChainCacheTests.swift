import AASA
import Foundation
import Testing

@testable import AASAAudit

/// The per-run cache of TLS server chains never changes a verdict: each observation is compared
/// with the same chain checked from scratch for the same host.
struct ServerChainCacheTests {
    /// 2025-01-01, fixed so that every check falls in the same second.
    static let checkTime = Date(timeIntervalSince1970: 1_735_689_600)

    func verifier() throws -> Verifier {
        let anchors = try X509Certificate.load(
            from: Data(contentsOf: URL(fileURLWithPath: TestPaths.cert("ca-bundle.pem"))))
        return Verifier(
            trust: try TrustStore(TrustConfiguration(useSystemRoots: false, anchors: anchors)),
            options: VerificationOptions(purpose: .sslServer, time: Self.checkTime))
    }

    /// The DER encodings of `leaf` (a certs/ name) and, with `chain`, the test intermediate.
    func ders(_ leaf: String, chain: Bool = true) throws -> [[UInt8]] {
        var names = [leaf]
        if chain { names.append("intermediate-ca") }
        return try names.map { name in
            let certificates = try X509Certificate.load(
                from: Data(contentsOf: URL(fileURLWithPath: TestPaths.cert("\(name).pem"))))
            let certificate = try #require(certificates.first)
            return Array(try certificate.derRepresentation)
        }
    }

    /// What a check from scratch says of `ders` for `host`.
    func uncached(_ ders: [[UInt8]], host: String) throws -> (verdict: String, reason: String?) {
        var checker = try verifier()
        checker.options.hostname = host
        let certificates = try ders.flatMap { try X509Certificate.load(from: Data($0)) }
        let result = checker.verifyChain(certificates)
        return (result.verdict.code, result.isValid ? nil : TLSWording.reason(result.verdict, host: host))
    }

    /// Observes `ders` for `host` through `cache` and expects the verdict of a check from scratch.
    @discardableResult
    func expectSameVerdict(
        _ cache: ServerChainCache, _ ders: [[UInt8]], host: String, _ expected: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TLSObservation {
        let observed = cache.observe(ders: ders, host: host)
        let reference = try uncached(ders, host: host)
        #expect(observed.report.verdict == expected, sourceLocation: sourceLocation)
        #expect(observed.report.verdict == reference.verdict, sourceLocation: sourceLocation)
        #expect(observed.report.reason == reference.reason, sourceLocation: sourceLocation)
        #expect(observed.report.verified == (expected == "valid"), sourceLocation: sourceLocation)
        return observed
    }

    @Test func aChainValidForOneHostIsStillWrongHostForAnother() throws {
        let cache = ServerChainCache(verifier: try verifier())
        let wildcard = try ders("leaf-wildcard")
        let first = try expectSameVerdict(cache, wildcard, host: "a.example.com", "valid")
        #expect(cache.checks == 1)
        #expect(first.report.chain.count == 2)
        #expect(first.leafPublicKey?.isEmpty == false)
        // Behind the same chain: no new check for a host the leaf names...
        try expectSameVerdict(cache, wildcard, host: "b.example.com", "valid")
        #expect(cache.checks == 1)
        // ...but a host it does not name is checked again, in full, and refused.
        try expectSameVerdict(cache, wildcard, host: "other.example.org", "host-mismatch")
        try expectSameVerdict(cache, wildcard, host: "example.com", "host-mismatch")
        #expect(cache.checks == 3)
        try expectSameVerdict(cache, wildcard, host: "c.example.com", "valid")
        #expect(cache.checks == 3)
        #expect(cache.count == 1)
    }

    @Test func anExpiredChainStaysExpiredForEveryHost() throws {
        let cache = ServerChainCache(verifier: try verifier())
        let expired = try ders("leaf-expired")
        try expectSameVerdict(cache, expired, host: "expired.example.com", "expired")
        try expectSameVerdict(cache, expired, host: "example.com", "expired")
        #expect(cache.checks == 1)
        // A host the leaf does not name: whatever OpenSSL finds first, as from scratch.
        let other = try expectSameVerdict(cache, expired, host: "www.example.org", "host-mismatch")
        #expect(!other.report.verified)
        #expect(cache.checks == 2)
    }

    @Test func anUntrustedVerdictIsNeverKept() throws {
        let cache = ServerChainCache(verifier: try verifier())
        let untrusted = try ders("leaf-untrusted", chain: false)
        try expectSameVerdict(cache, untrusted, host: "www.example.com", "untrusted")
        try expectSameVerdict(cache, untrusted, host: "www.example.com", "untrusted")
        #expect(cache.checks == 2)
    }

    @Test func theOldestChainIsForgottenPastTheCapacity() throws {
        let cache = ServerChainCache(verifier: try verifier(), capacity: 1)
        let wildcard = try ders("leaf-wildcard")
        let other = try ders("leaf-other-domain")
        try expectSameVerdict(cache, wildcard, host: "a.example.com", "valid")
        try expectSameVerdict(cache, other, host: "other.example.org", "valid")
        #expect(cache.count == 1)
        #expect(cache.checks == 2)
        try expectSameVerdict(cache, other, host: "other.example.org", "valid")
        #expect(cache.checks == 2)
        try expectSameVerdict(cache, wildcard, host: "a.example.com", "valid")
        #expect(cache.checks == 3)
        #expect(cache.count == 1)
    }

    @Test func noCertificateIsMalformed() throws {
        let cache = ServerChainCache(verifier: try verifier())
        let observed = cache.observe(ders: [], host: "a.example.com")
        #expect(observed.report.verdict == "malformed")
        #expect(!observed.report.verified)
        #expect(observed.leaf == nil)
    }
}
