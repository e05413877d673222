/// A map that keeps at most `capacity` entries and forgets the oldest first (first in, first
/// out): the bounded store of the chain caches (``ChainCache``, and the audit's cache of TLS
/// server chains), which use it under their own locks. Not thread-safe by itself.
package struct FIFOStore<Key: Hashable, Value> {
    /// The most entries kept (at least 1).
    package let capacity: Int
    private var entries: [Key: Value] = [:]
    /// Insertion order, for forgetting the oldest entry: a ring of `capacity` keys.
    private var order: [Key] = []
    private var oldest = 0

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    package subscript(key: Key) -> Value? { entries[key] }

    /// The number of entries kept.
    package var count: Int { entries.count }

    /// Stores `value` for `key`: in place of the entry `key` has (its age unchanged), or as the
    /// newest entry, forgetting the oldest when full.
    package mutating func store(_ value: Value, for key: Key) {
        if entries[key] != nil {
            entries[key] = value
            return
        }
        if order.count < capacity {
            order.append(key)
        } else {
            entries[order[oldest]] = nil
            order[oldest] = key
            oldest = (oldest + 1) % capacity
        }
        entries[key] = value
    }

    package mutating func removeAll() {
        entries.removeAll()
        order.removeAll()
        oldest = 0
    }
}
