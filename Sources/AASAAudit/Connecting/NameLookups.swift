import NIOConcurrencyHelpers

/// How the name lookups of a run went, counted over the whole run (no list is kept, so a run
/// of 100,000 domains costs these few integers): what tells an audit in which no name resolved
/// at all, offline or behind a DNS that answers nothing, where every domain comes out `broken`
/// for a reason of this machine, not of the domain (issue #27).
///
/// Counted: each lookup of a domain's name, and with `--cdn` of the CDN's host (once per
/// domain), that ``HostResolver`` made and that ended. Not counted: names that `--resolve` or a
/// proxy settles (no lookup here), and a lookup that had no file descriptor (the fetcher then
/// looks the name up itself, with its wait for one).
public struct NameLookupCounts: Sendable, Equatable {
    /// Lookups that gave at least one address.
    public var resolved = 0
    /// Lookups the name servers answered: no such name, or a name without an address
    /// (EAI_NONAME, EAI_NODATA).
    public var noSuchName = 0
    /// Lookups with no answer: none within `--timeout`, or the name servers failed or could
    /// not be reached (EAI_AGAIN, EAI_FAIL, another error).
    public var unanswered = 0
    /// How many of the lookups were of the CDN's host (`--cdn`).
    public var cdnLookups = 0

    public init(resolved: Int = 0, noSuchName: Int = 0, unanswered: Int = 0, cdnLookups: Int = 0) {
        self.resolved = resolved
        self.noSuchName = noSuchName
        self.unanswered = unanswered
        self.cdnLookups = cdnLookups
    }

    /// Every lookup counted.
    public var lookups: Int { resolved + noSuchName + unanswered }

    /// Names were looked up, and not one resolved: every verdict that needed a name is then
    /// about this machine's DNS as much as about the domain.
    public var noneResolved: Bool { lookups > 0 && resolved == 0 }

    /// The one line that says so (nil when some name resolved, or none was looked up). Counts
    /// only: no text from a server.
    public var noneResolvedMessage: String? {
        guard noneResolved else { return nil }
        var what = lookups == 1 ? "the one name lookup" : "all \(lookups) name lookups"
        if cdnLookups > 0 { what += " (\(cdnLookups) of them of the CDN's host)" }
        if noSuchName == 0 {
            return
                "no name resolved: \(what) got no answer (the name servers did not answer, failed, or could not be reached): this machine's DNS answered nothing, so this run's verdicts are about this machine, not the domains"
        }
        var parts = ["\(noSuchName) answered 'no such name'"]
        if unanswered > 0 { parts.append("\(unanswered) got no answer") }
        return
            "no name resolved: \(what) failed (\(parts.joined(separator: ", "))): if these names exist, this machine's DNS does not see them, and this run's verdicts are about this machine, not the domains"
    }
}

/// ``NameLookupCounts`` for a whole run, shared by every event loop.
final class NameLookupTally: Sendable {
    private let counts = NIOLockedValueBox(NameLookupCounts())

    /// The counts so far.
    var current: NameLookupCounts { counts.withLockedValue { $0 } }

    /// A lookup that gave addresses.
    func resolved(cdn: Bool) {
        counts.withLockedValue { counts in
            counts.resolved += 1
            if cdn { counts.cdnLookups += 1 }
        }
    }

    /// A lookup that failed with `error` (a ``HostResolver/Failure``, or anything else the
    /// lookup's future failed with). A lookup that had no file descriptor is not counted: the
    /// fetcher looks the name up again itself.
    func failed(_ error: any Error, cdn: Bool) {
        let kind = (error as? HostResolver.Failure)?.kind ?? .other
        counts.withLockedValue { counts in
            switch kind {
            case .descriptorLimit: return
            case .noAddress: counts.noSuchName += 1
            case .serverFailure, .timeout, .other: counts.unanswered += 1
            }
            if cdn { counts.cdnLookups += 1 }
        }
    }
}
