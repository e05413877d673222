import AASAAudit
import Testing

/// `--shard K/N` in the library (issue #17): N shards split any list exactly, whatever the case
/// of the names, and the split is pinned so that a change of the hash is caught.
struct AuditShardTests {
    /// 10,000 generated names, with and without ports.
    static let domains: [AuditDomain] = (0..<10_000).map { index in
        AuditDomain(host: "host\(index).shard-\(index % 97).example", port: index % 5 == 0 ? 8443 : 443)
    }

    @Test("N shards partition 10,000 domains: every domain in exactly one shard", arguments: [1, 2, 3, 7])
    func shardsPartitionTheInput(count: Int) throws {
        #expect(Self.domains.count == 10_000)
        #expect(Set(Self.domains).count == 10_000)
        let shards = try (1...count).map { try AuditShard(index: $0, count: count) }
        var sizes = [Int](repeating: 0, count: count)
        for domain in Self.domains {
            let owners = try shards.filter { try $0.contains(domain) }
            #expect(owners.count == 1, "\(domain) is in \(owners.count) shards of \(count)")
            if let owner = owners.first { sizes[owner.index - 1] += 1 }
        }
        #expect(sizes.reduce(0, +) == Self.domains.count)
        // Each shard gets a fair share (SHA-256 spreads the names): within 15% of the mean.
        let mean = Double(Self.domains.count) / Double(count)
        for (index, size) in sizes.enumerated() {
            #expect(abs(Double(size) - mean) < mean * 0.15, "shard \(index + 1)/\(count) has \(size) domains")
        }
    }

    @Test func caseTrailingDotAndDefaultPortDoNotChangeTheShard() throws {
        let shard = try AuditShard(index: 1, count: 7)
        for (written, normal) in [
            ("Example.COM", "example.com"), ("https://WWW.Example.com/", "www.example.com"),
            ("shop.example.com.:443", "shop.example.com"), ("Shop.Example.com:8443", "shop.example.com:8443"),
        ] {
            let parsed = try AuditDomain.parse(written)
            #expect(parsed.description == normal)
            #expect(try shard.shard(of: parsed) == shard.shard(of: try AuditDomain.parse(normal)), "\(written)")
        }
    }

    /// Known answers (first 8 bytes of SHA-256 of the normalised name, big-endian, mod N, plus
    /// 1), computed outside Swift: `python3 -c 'import hashlib; n="example.com";
    /// print(int(hashlib.sha256(n.encode()).hexdigest()[:16], 16) % 7 + 1)'`.
    @Test func theShardOfKnownNamesIsPinned() throws {
        let expected: [(String, [Int: Int])] = [
            ("example.com", [2: 2, 3: 2, 7: 6, 16: 6]),
            ("www.example.com", [2: 1, 3: 3, 7: 5, 16: 9]),
            ("shop.example.com:8443", [2: 1, 3: 1, 7: 7, 16: 3]),
            ("a.example.org", [2: 2, 3: 1, 7: 6, 16: 16]),
            ("xn--bcher-kva.example", [2: 1, 3: 2, 7: 4, 16: 1]),
        ]
        #expect(expected.count == 5)
        for (name, shards) in expected {
            let domain = try AuditDomain.parse(name)
            #expect(shards.count == 4)
            for (count, index) in shards {
                #expect(try AuditShard(index: 1, count: count).shard(of: domain) == index, "\(name) in \(count)")
            }
        }
    }

    @Test func parsesKOverNAndRefusesTheRest() throws {
        #expect(try AuditShard.parse("1/1") == AuditShard(index: 1, count: 1))
        #expect(try AuditShard.parse("3/8") == AuditShard(index: 3, count: 8))
        #expect(try AuditShard.parse("8/8").description == "8/8")
        let refused = [
            "0/4", "5/4", "1/0", "-1/4", "+1/4", "1/4/2", "1", "/4", "1/", "a/b", " 1/4", "1/1000001", "", "１/4",
        ]
        #expect(refused.count == 14)
        for text in refused {
            #expect(throws: AuditShard.ParseError.self, "\(text)") { try AuditShard.parse(text) }
        }
    }

    @Test("I/N counts from 0: index I is shard I + 1, and the index stops at N - 1")
    func parsesAnIndexCountedFromZero() throws {
        #expect(try AuditShard.parse("0/1", counting: .fromZero) == AuditShard(index: 1, count: 1))
        #expect(try AuditShard.parse("0/8", counting: .fromZero) == AuditShard(index: 1, count: 8))
        #expect(try AuditShard.parse("7/8", counting: .fromZero) == AuditShard(index: 8, count: 8))
        let refused = ["8/8", "-1/8", "0/0", "1/4/2", "+0/4", "", "0/1000001"]
        #expect(refused.count == 7)
        for text in refused {
            #expect(throws: AuditShard.ParseError.self, "\(text)") { try AuditShard.parse(text, counting: .fromZero) }
        }
        #expect(throws: AuditShard.ParseError.self) { try AuditShard.parse("0/4") }
        let error = #expect(throws: AuditShard.ParseError.self) { try AuditShard.parse("8/8", counting: .fromZero) }
        #expect(error?.description == "the shard index must be from 0 to 7 (I/N counts from 0), not 8")
    }
}
