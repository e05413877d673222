import Foundation

/// How long a domain's second path waits for the first's answer to begin, from the moment the
/// first's connection is up (TLS done), before it opens a connection of its own. Waiting lets
/// the second path go on the first's connection (one TLS handshake instead of two); not waiting
/// for ever keeps a server that stalls on the first path from costing two timeouts in a row.
/// The wait follows how long the first answers took to begin of late: four times their moving average,
/// at least 1 s (so that a loaded machine, on which every fetch is slow, still reuses its
/// connections) and at most half the timeout.
final class ReuseWait: @unchecked Sendable {
    // @unchecked: `average` is only touched under `lock`.

    /// The timeout of one request.
    let timeout: TimeInterval
    private let lock = NSLock()
    /// The moving average of answered first paths, in seconds (nil before the first).
    private var average: TimeInterval?

    init(timeout: TimeInterval) {
        self.timeout = timeout
    }

    /// The wait now, in seconds.
    var current: TimeInterval {
        let typical = lock.withLock { average } ?? 0.25
        return min(timeout / 2, max(1, 4 * typical))
    }

    /// Notes how long an answered first path's answer took to begin after its TLS handshake, in seconds.
    func record(_ seconds: TimeInterval) {
        guard seconds.isFinite, seconds >= 0 else { return }
        lock.withLock { average = average.map { $0 * 0.95 + seconds * 0.05 } ?? seconds }
    }
}
