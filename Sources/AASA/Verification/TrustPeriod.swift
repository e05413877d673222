import Foundation

/// A span of snapshots of a root store that held a root (``HistoricalRoot``): trusted from
/// ``from`` (the first snapshot that held it) until ``removedBy`` (the first snapshot that no
/// longer did; nil while the latest still does). Known only at snapshot resolution: between
/// ``lastSeen`` and ``removedBy`` the exact removal date is not in the data.
public struct TrustPeriod: Sendable, Hashable, Codable {
    /// The date of the first snapshot that held the root (UTC midnight).
    public var from: Date
    /// The date of the last snapshot that held it.
    public var lastSeen: Date
    /// The date of the first later snapshot without it; nil when the latest snapshot holds it.
    public var removedBy: Date?

    public init(from: Date, lastSeen: Date, removedBy: Date?) {
        self.from = from
        self.lastSeen = lastSeen
        self.removedBy = removedBy
    }

    /// Whether the root was trusted at `date`: `from <= date < removedBy`.
    public func contains(_ date: Date) -> Bool {
        date >= from && removedBy.map { date < $0 } ?? true
    }
}
