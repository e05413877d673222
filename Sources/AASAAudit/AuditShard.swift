import AASA

/// One of `count` deterministic shares of a list of domains (`aasa audit --shard K/N`), so that
/// N independent jobs together audit every domain exactly once.
///
/// A domain's shard depends only on its normalised form (``AuditDomain/description``: the
/// lower-case host without a trailing dot, and `:port` when the port is not 443): the first
/// 8 bytes of the SHA-256 of its UTF-8 bytes, read as a big-endian unsigned integer, modulo
/// `count`, plus 1. SHA-256 is the same on every platform and in every version, so a list
/// splits the same way on every machine, now and later.
public struct AuditShard: Sendable, Hashable, CustomStringConvertible {
    /// The shard, from 1 to `count`.
    public let index: Int
    /// How many shards the input is split into, from 1.
    public let count: Int

    /// The largest shard count accepted.
    public static let maximumCount = 1_000_000

    /// Shard `index` (1-based) of `count`.
    /// - Throws: ``ParseError`` unless 1 ≤ `index` ≤ `count` ≤ ``maximumCount``.
    public init(index: Int, count: Int) throws(ParseError) {
        guard (1...Self.maximumCount).contains(count) else {
            throw ParseError(description: "the shard count must be from 1 to \(Self.maximumCount), not \(count)")
        }
        guard (1...count).contains(index) else {
            throw ParseError(description: "the shard must be from 1 to \(count) (K/N counts from 1), not \(index)")
        }
        self.index = index
        self.count = count
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }

    /// Why a text is not a shard.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Parses `K/N`: two decimal numbers, 1 ≤ K ≤ N.
    public static func parse(_ text: String) throws(ParseError) -> AuditShard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCII) }),
            let index = Int(parts[0]), let count = Int(parts[1]), parts.allSatisfy({ $0.first != "+" })
        else {
            throw ParseError(description: "'\(text)' is not K/N (two numbers, such as 1/4)")
        }
        return try AuditShard(index: index, count: count)
    }

    /// The shard (1...`count`) that `domain` belongs to when the input is split in `count`.
    /// - Throws: `AASAError` should OpenSSL fail to compute a SHA-256 digest.
    public func shard(of domain: AuditDomain) throws(AASAError) -> Int {
        Int(try Self.hash(of: domain) % UInt64(count)) + 1
    }

    /// Whether `domain` belongs to this shard.
    /// - Throws: `AASAError` should OpenSSL fail to compute a SHA-256 digest.
    public func contains(_ domain: AuditDomain) throws(AASAError) -> Bool {
        count == 1 ? true : try shard(of: domain) == index
    }

    /// The first 8 bytes of SHA-256 of the normalised domain, big-endian.
    static func hash(of domain: AuditDomain) throws(AASAError) -> UInt64 {
        var value: UInt64 = 0
        for byte in try SHA256Digest.hex(Array(domain.description.utf8)).utf8.prefix(16) {
            value = value << 4 | UInt64(byte <= 0x39 ? byte - 0x30 : byte - 0x61 + 10)
        }
        return value
    }
}
