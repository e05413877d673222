/// One entry of a fleet audit's list: a domain, or an entry that is not one (with where it
/// came from, such as `FILE:LINE`, and why), which the audit reports in its place.
public enum FleetEntry: Sendable {
    case domain(AuditDomain)
    case invalid(origin: String, message: String)

    /// The domain `text` names (`host` or `host:port`), or an invalid entry from `origin` that
    /// says why it is not one.
    public static func parsing(_ text: String, origin: String) -> FleetEntry {
        do {
            return .domain(try AuditDomain.parse(text))
        } catch {
            return .invalid(origin: origin, message: "\(error)")
        }
    }
}

/// Where a fleet audit takes its entries from, one at a time as it has room for them, so that a
/// list of any length never sits in memory. Called from the thread that runs the audit only.
public protocol FleetEntrySource: AnyObject {
    /// The next entry, or nil at the end of the list.
    func next() -> FleetEntry?
}

/// A fixed list of entries, for callers that hold their domains already.
public final class FleetEntryList: FleetEntrySource {
    private var entries: IndexingIterator<[FleetEntry]>

    public init(_ entries: [FleetEntry]) {
        self.entries = entries.makeIterator()
    }

    /// The domains of `names` (`host` or `host:port`), each name that is not one an invalid entry.
    public convenience init(names: [String]) {
        self.init(names.map { .parsing($0, origin: $0) })
    }

    public func next() -> FleetEntry? { entries.next() }
}
