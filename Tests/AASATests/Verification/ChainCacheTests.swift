import AASA
// The chain cache: a batch of files signed by one chain builds that chain once, and a cached
// answer is only ever reused for the same signer, intermediates, anchors, purpose, time, host
// and partial-chain flag. Every file's signature is still checked.
import Foundation
import Testing

@Suite("Chain cache")
struct ChainCacheTests {
    /// A different document for each `index`, so that every file has its own signature.
    static func content(_ index: Int) -> Data {
        Data(
            "{\"applinks\": {\"apps\": [], \"details\": [{\"appID\": \"ABCDE12345.com.example.app\", \"paths\": [\"/p\(index)/*\"]}]}}\n"
                .utf8)
    }

    static func signed(_ index: Int, by leaf: String = "leaf-rsa") throws -> Data {
        try PKI.identity(leaf).sign(content(index), options: SigningOptions(binary: true))
    }

    func verifier(
        _ cache: ChainCache, trust: TrustStore? = nil,
        options: VerificationOptions = VerificationOptions(time: Times.y2025)
    ) throws -> Verifier {
        Verifier(trust: try trust ?? PKI.testRootTrust(), options: options, chainCache: cache)
    }

    @Test("the second file signed by the same chain is a hit, with the same verdict, chain and content as uncached")
    func hitOnSecondFile() throws {
        let cache = ChainCache()
        let verifier = try verifier(cache)
        let first = verifier.verify(try Self.signed(1))
        #expect(first.isValid)
        #expect((cache.hits, cache.misses, cache.count) == (0, 1, 1))
        let second = verifier.verify(try Self.signed(2))
        #expect(second.isValid)
        #expect((cache.hits, cache.misses, cache.count) == (1, 1, 1))
        #expect(second.content == Self.content(2))
        let uncached = try PKI.verifier().verify(try Self.signed(2))
        #expect(second.verdict == uncached.verdict)
        #expect(second.chain == uncached.chain)
        #expect(second.signers == uncached.signers)
        #expect(second.chain.map(\.serialNumber) == ["3001", "2000", "1000"])
    }

    @Test("a different check time, purpose, host or partial-chain flag is a miss")
    func optionsAreInTheKey() throws {
        let cache = ChainCache()
        let trust = try PKI.testRootTrust()
        let file = try Self.signed(1)
        let variants: [VerificationOptions] = [
            VerificationOptions(time: Times.y2025),
            VerificationOptions(time: Times.y2025.addingTimeInterval(1)),
            VerificationOptions(purpose: .any, time: Times.y2025),
            VerificationOptions(time: Times.y2025, hostname: "example.com"),
            VerificationOptions(time: Times.y2025, allowPartialChain: true),
        ]
        for (index, options) in variants.enumerated() {
            #expect(try verifier(cache, trust: trust, options: options).verify(file).isValid)
            #expect(cache.misses == index + 1, "variant \(index) should not reuse an earlier entry")
        }
        #expect(cache.hits == 0)
        // The same variants again: all hits.
        for options in variants { #expect(try verifier(cache, trust: trust, options: options).verify(file).isValid) }
        #expect((cache.hits, cache.misses) == (variants.count, variants.count))
    }

    @Test("other trust anchors are a miss, and do not inherit a valid verdict")
    func anchorsAreInTheKey() throws {
        let cache = ChainCache()
        let file = try Self.signed(1)
        #expect(try verifier(cache).verify(file).isValid)
        // Another store with the same anchors: a different store, so a miss (still valid).
        #expect(try verifier(cache).verify(file).isValid)
        #expect((cache.hits, cache.misses) == (0, 2))
        // A store that trusts only an unrelated root: untrusted, although valid chains are cached.
        let other = try TrustStore(
            TrustConfiguration(useSystemRoots: false, anchorFiles: [Paths.cert("untrusted-root-ca.pem")]))
        let result = try verifier(cache, trust: other).verify(file)
        #expect(result.verdict.code == "untrusted")
        #expect((cache.hits, cache.misses) == (0, 3))
    }

    @Test("a different host that the signer does not serve is a miss and a host mismatch")
    func hostMismatchIsNotReused() throws {
        let cache = ChainCache()
        let trust = try PKI.testRootTrust()
        let file = try Self.signed(1)
        #expect(
            try verifier(cache, trust: trust, options: VerificationOptions(time: Times.y2025, hostname: "example.com"))
                .verify(file).isValid)
        let other = try verifier(
            cache, trust: trust, options: VerificationOptions(time: Times.y2025, hostname: "other.example")
        ).verify(file)
        #expect(other.verdict.code == "host-mismatch")
    }

    @Test("a tampered file still fails with a warm cache: the signature is checked for every file")
    func tamperedFileFailsWithWarmCache() throws {
        let cache = ChainCache()
        let verifier = try verifier(cache)
        #expect(verifier.verify(try Self.signed(1)).isValid)
        var tampered = try Self.signed(2)
        let at = try #require(tampered.range(of: Data("/p2/".utf8))).lowerBound
        tampered[at + 1] = UInt8(ascii: "q")
        let result = verifier.verify(tampered)
        #expect(result.verdict.code == "tampered")
        #expect(result.content == nil)
        // The untouched file still verifies, from the cache.
        #expect(verifier.verify(try Self.signed(2)).isValid)
        #expect(cache.hits == 1)
    }

    @Test("a failing chain is cached with its verdict: an expired signer stays expired")
    func failuresAreCachedToo() throws {
        let cache = ChainCache()
        let verifier = try verifier(cache)
        let first = verifier.verify(try Self.signed(1, by: "leaf-expired"))
        let second = verifier.verify(try Self.signed(2, by: "leaf-expired"))
        #expect(first.verdict.code == "expired")
        #expect(second.verdict == first.verdict)
        #expect(second.content == nil)
        #expect((cache.hits, cache.misses) == (1, 1))
    }

    @Test("--min-days-valid is judged on every file from the cached chain")
    func minimumDaysUseTheCachedChain() throws {
        let cache = ChainCache()
        let trust = try PKI.testRootTrust()
        #expect(try verifier(cache, trust: trust).verify(try Self.signed(1, by: "leaf-short-lived")).isValid)
        let horizon = VerificationOptions(time: Times.y2025, minimumDaysValid: 365 * 10)
        let result = try verifier(cache, trust: trust, options: horizon).verify(
            try Self.signed(2, by: "leaf-short-lived"))
        #expect(result.verdict.code == "expiring-soon")
        #expect(cache.hits == 1)
    }

    @Test("different signers are different entries; the cache forgets its oldest entry beyond its capacity")
    func boundedSize() throws {
        let cache = ChainCache(capacity: 1)
        let verifier = try verifier(cache)
        #expect(verifier.verify(try Self.signed(1, by: "leaf-rsa")).isValid)
        #expect(verifier.verify(try Self.signed(2, by: "leaf-ec")).isValid)
        #expect(cache.count == 1)
        #expect(verifier.verify(try Self.signed(3, by: "leaf-rsa")).isValid)
        #expect((cache.hits, cache.misses, cache.count) == (0, 3, 1))
        #expect(verifier.verify(try Self.signed(4, by: "leaf-rsa")).isValid)
        #expect(cache.hits == 1)
    }

    @Test("with a warm cache, every single-byte change and truncation gets exactly the uncached verdict and result")
    func cachedEqualsUncachedOnDamagedFiles() throws {
        let signed = try Self.signed(1)
        let cache = ChainCache()
        let cached = try verifier(cache)
        let plain = try PKI.verifier()
        #expect(cached.verify(signed).isValid)  // warm: the certificates and the chain are known
        func same(_ data: Data, _ what: String) {
            let a = cached.verify(data)
            let b = plain.verify(data)
            #expect(a.verdict == b.verdict, "\(what): \(a.verdict) with the cache, \(b.verdict) without")
            #expect(a.content == b.content, "\(what)")
            #expect(a.kind == b.kind, "\(what)")
            #expect(a.signers == b.signers, "\(what)")
            #expect(a.chain == b.chain, "\(what)")
            #expect(a.signerInfos.count == b.signerInfos.count, "\(what)")
        }
        for position in 0..<signed.count {
            for value in [UInt8(0x00), 0xFF, signed[position] ^ 0x01] where value != signed[position] {
                var mutated = signed
                mutated[position] = value
                same(mutated, "byte \(position) = \(value)")
            }
        }
        for length in stride(from: 0, to: signed.count, by: 7) { same(signed.prefix(length), "first \(length) bytes") }
        // PEM goes through the same parse.
        let pem = try PKI.identity("leaf-rsa").sign(Self.content(1), options: SigningOptions(encoding: .pem))
        same(pem, "PEM")
        #expect(cache.certificateHits > 0)
    }

    @Test("many threads sharing one verifier and cache agree with the uncached verdicts")
    func concurrentUse() async throws {
        let cache = ChainCache()
        let verifier = try verifier(cache)
        let files = try (0..<32).map { try Self.signed($0, by: $0 % 2 == 0 ? "leaf-rsa" : "leaf-ec") }
        let valid = await withTaskGroup(of: Bool.self) { group in
            for file in files { group.addTask { verifier.verify(file).isValid } }
            var count = 0
            for await isValid in group where isValid { count += 1 }
            return count
        }
        #expect(valid == files.count)
        #expect(cache.hits + cache.misses == files.count)
        #expect(cache.count == 2)
    }
}
