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

    /// The slowest and fastest rates (`--rate` refuses others at parse time).
    static let rates: ClosedRange<Double> = 0.001...1_000_000

    /// A pacer for `rate` requests a second, taken into ``rates`` first (a NaN as the slowest),
    /// so that the interval always fits a `TimeAmount`: `1e9 / rate` nanoseconds for a rate of
    /// 1e-10 would not fit in an `Int64` and trap (issue #24).
    init(rate: Double) {
        let usable = rate.isNaN ? Self.rates.lowerBound : min(max(rate, Self.rates.lowerBound), Self.rates.upperBound)
        self.rate = usable
        interval = .nanoseconds(Int64((1e9 / usable).rounded(.up)))  // at most 1e12
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
