import AASA
import AASAAudit

/// Which domains of the input this run audits (issue #17): those of its `--shard`, less those
/// a `--resume` file already reports; with `--resume`, each domain once.
struct DomainSelection {
    /// `--shard K/N`, or nil for the whole input.
    var shard: AuditShard?
    /// With `--resume`: the domains already reported, and those this run has taken (so that a
    /// domain listed twice is audited once); nil without it.
    var reported: Set<String>?
    /// Domains left to the other shards.
    private(set) var otherShards = 0
    /// Domains skipped because the `--resume` file reports them (or this run took them already).
    private(set) var alreadyReported = 0

    /// Whether to audit `domain`; counts it when not.
    /// - Throws: `AASAError` should OpenSSL fail to compute the SHA-256 that places it.
    mutating func admits(_ domain: AuditDomain) throws(AASAError) -> Bool {
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
