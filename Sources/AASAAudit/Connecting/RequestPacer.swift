import NIOConcurrencyHelpers
import NIOCore

/// Spaces the requests of a whole run evenly, `--rate` a second at most (issue #17): each
/// request takes the next free slot, `1/rate` seconds after the previous one, so no second
/// (any half-open window of one second) ever holds more than `rate` request starts, whatever
/// the concurrency. Shared by every event loop.
final class RequestPacer: Sendable {
    /// Requests a second.
    let rate: Double
    private let interval: TimeAmount
    private let nextSlot = NIOLockedValueBox(NIODeadline.uptimeNanoseconds(0))

    init(rate: Double) {
        self.rate = rate
        interval = .nanoseconds(Int64((1e9 / rate).rounded(.up)))
    }

    /// Takes the next slot: the time at which one more request may start (`now` or later).
    func reserve(now: NIODeadline = .now()) -> NIODeadline {
        nextSlot.withLockedValue { next in
            let slot = max(now, next)
            next = slot + interval
            return slot
        }
    }

}
