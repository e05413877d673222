import NIOConcurrencyHelpers
import NIOCore

/// A cap on the domains in flight at one IP address (`--max-per-address`, issue #17): many
/// domains share a CDN's or a host's address, and a scan should not open hundreds of
/// connections to one server at once. A domain holds its address's slot from before its
/// first connection until its last one closes; the others queue, first come first served.
/// Shared by every event loop; an address's entry is dropped when nothing holds or awaits it.
final class AddressSlots: Sendable {
    /// Slots per address.
    let limit: Int
    private let state = NIOLockedValueBox([String: Entry]())

    private struct Entry {
        var held = 0
        var waiting = CircularBuffer<EventLoopPromise<Void>>()
    }

    init(limit: Int) {
        precondition(limit >= 1, "a cap of at least one")
        self.limit = limit
    }

    /// Succeeds once a slot of `address` is this caller's; call ``release(_:)`` exactly once after.
    func acquire(_ address: String, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let waiter: EventLoopPromise<Void>? = state.withLockedValue { entries in
            var entry = entries[address, default: Entry()]
            defer { entries[address] = entry }
            if entry.held < limit {
                entry.held += 1
                return nil
            }
            let promise = eventLoop.makePromise(of: Void.self)
            entry.waiting.append(promise)
            return promise
        }
        return waiter?.futureResult ?? eventLoop.makeSucceededVoidFuture()
    }

    /// Gives a slot back: to the first in line, if any.
    func release(_ address: String) {
        let next: EventLoopPromise<Void>? = state.withLockedValue { entries in
            guard var entry = entries[address] else { return nil }
            if let first = entry.waiting.popFirst() {
                entries[address] = entry
                return first  // the slot passes on: `held` stays
            }
            entry.held -= 1
            entries[address] = entry.held > 0 ? entry : nil
            return nil
        }
        next?.succeed(())
    }

    /// Slots held at `address` now (for tests).
    func held(at address: String) -> Int {
        state.withLockedValue { $0[address]?.held ?? 0 }
    }

    /// Addresses with an entry (held or awaited) now (for tests: entries do not pile up).
    var trackedAddresses: Int { state.withLockedValue { $0.count } }
}
