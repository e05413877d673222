import Foundation

/// The process's limit on open file descriptors (RLIMIT_NOFILE).
///
/// The common soft limit is 1,024 while the hard limit is far higher: `audit --concurrency
/// 1000` ran out ("Too many open files") and blamed the domains. `aasa` raises the soft limit
/// to the hard one at start, as servers do, and an audit caps its concurrency by what the
/// limit allows.
enum DescriptorLimit {
    /// Descriptors one domain of an audit may hold at once: the well-known and root fetches,
    /// the CDN copy, and a retry's connection while the failed one closes.
    static let perDomain = 4
    /// Descriptors kept for everything else: the standard streams, the event loops' epoll and
    /// eventfd descriptors, the trust store's lookups, the summary's temporary file.
    static let reserve = 64

    /// Raises the soft limit to the hard limit (once, at start: ``AASACommand/main()``).
    static func raiseToHardLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// The soft limit in effect (1,024, the common default, if it cannot be read).
    static var current: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        return limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// The most domains an audit can have in flight with `limit` descriptors (at least 1).
    static func auditConcurrency(allowedBy limit: Int) -> Int {
        max(1, (limit - reserve) / perDomain)
    }
}
