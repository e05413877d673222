import AASA

/// Which domains of the input this run audits (issue #17): those of its `--shard`, less those
/// a `--resume` file already reports; with `--resume`, each domain once.
public struct DomainSelection: Sendable {
    /// `--shard K/N`, or nil for the whole input.
    public var shard: AuditShard?
    /// With `--resume`: the domains already reported, and those this run has taken (so that a
    /// domain listed twice is audited once); nil without it.
    public var reported: Set<String>?
    /// Domains left to the other shards.
    public private(set) var otherShards = 0
    /// Domains skipped because the `--resume` file reports them (or this run took them already).
    public private(set) var alreadyReported = 0

    public init(shard: AuditShard? = nil, reported: Set<String>? = nil) {
        self.shard = shard
        self.reported = reported
    }

    /// Whether to audit `domain`; counts it when not.
    /// - Throws: `AASAError` should OpenSSL fail to compute the SHA-256 that places it.
    public mutating func admits(_ domain: AuditDomain) throws(AASAError) -> Bool {
        if let shard, try !shard.contains(domain) {
            otherShards += 1
            return false
        }
        if reported != nil {
            guard reported?.insert(domain.description).inserted == true else {
                alreadyReported += 1
                return false
            }
        }
        return true
    }
}
