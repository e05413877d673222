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

    /// Where a written shard starts counting: `--shard K/N` counts from 1 (as Slurm arrays and
    /// GNU parallel's `{#}` do), `--shard-index I/N` from 0 (as Kubernetes'
    /// `JOB_COMPLETION_INDEX` does). Both name the same shards: index I is shard I + 1.
    public enum Counting: Int, Sendable {
        case fromOne = 1
        case fromZero = 0
    }

    /// Parses `K/N`: two decimal numbers, K counted as `counting` says (1 ≤ K ≤ N, or
    /// 0 ≤ K < N).
    public static func parse(_ text: String, counting: Counting = .fromOne) throws(ParseError) -> AuditShard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCII) }),
            let written = Int(parts[0]), let count = Int(parts[1]), parts.allSatisfy({ $0.first != "+" })
        else {
            throw ParseError(
                description:
                    "'\(text)' is not \(counting == .fromOne ? "K/N" : "I/N") (two numbers, such as \(counting == .fromOne ? "1/4" : "0/4"))"
            )
        }
        if counting == .fromZero {
            guard (1...maximumCount).contains(count), (0..<count).contains(written) else {
                throw ParseError(
                    description: (1...maximumCount).contains(count)
                        ? "the shard index must be from 0 to \(count - 1) (I/N counts from 0), not \(written)"
                        : "the shard count must be from 1 to \(maximumCount), not \(count)")
            }
        }
        return try AuditShard(index: written + 1 - counting.rawValue, count: count)
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
