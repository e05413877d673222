import Foundation

/// What a fleet audit gives, in order, as an `AsyncSequence` (``FleetAudit/reports(from:)``).
public enum FleetEvent: Sendable {
    /// A domain's report.
    case report(DomainReport)
    /// An entry that is not a domain, in its place.
    case invalid(origin: String, message: String)
    /// The end of the run (the last element).
    case finished(FleetAudit.Outcome)
}

extension FleetAudit {
    /// The audit of every entry of `source` as an `AsyncSequence` of events, in the order
    /// ``run(_:invalid:tick:arrived:report:)`` gives them. The run happens on a thread of its own and
    /// stays at most a window (four times ``concurrency``) of events ahead of the consumer, so a
    /// slow consumer holds the audit back instead of letting reports pile up. Iterate it once;
    /// ending the iteration early stops taking entries (the domains in flight finish).
    public func reports(from source: sending some FleetEntrySource) -> FleetEvents {
        FleetEvents(audit: self, source: FleetEvents.Handoff(source))
    }
}

/// ``FleetAudit/reports(from:)``: the events of one run.
public struct FleetEvents: AsyncSequence, Sendable {
    public typealias Element = FleetEvent

    let audit: FleetAudit
    let source: Handoff

    public func makeAsyncIterator() -> Iterator {
        let credits = Credits(audit.concurrency * 4)
        let (stream, continuation) = AsyncStream.makeStream(of: FleetEvent.self, bufferingPolicy: .unbounded)
        let source = self.source
        let audit = self.audit
        continuation.onTermination = { _ in
            source.stop()
            credits.stop()
        }
        let thread = Thread {
            let outcome = audit.run(
                source,
                invalid: { origin, message in
                    credits.take()
                    continuation.yield(.invalid(origin: origin, message: message))
                },
                report: { report in
                    credits.take()
                    continuation.yield(.report(report))
                })
            source.finish()
            continuation.yield(.finished(outcome))
            continuation.finish()
        }
        thread.name = "aasa-fleet-audit"
        thread.start()
        return Iterator(base: stream.makeAsyncIterator(), credits: credits)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<FleetEvent>.Iterator
        let credits: Credits

        public mutating func next() async -> FleetEvent? {
            let event = await base.next()
            if event != nil { credits.give() }  // room for one more
            return event
        }
    }

    /// The source, handed to the run's thread (`sending`: no one else holds it), and whether the
    /// consumer has stopped.
    final class Handoff: FleetEntrySource, @unchecked Sendable {
        // @unchecked: `source` is used by the run's thread only; `stopped` holds `lock`.
        private let source: any FleetEntrySource
        private let lock = NSLock()
        private var stopped = false
        private var finished = false

        /// Whether the run has returned (for tests: a consumer that stops does not leave it waiting).
        var hasFinished: Bool { lock.withLock { finished } }

        init(_ source: any FleetEntrySource) {
            self.source = source
        }

        func next() -> FleetEntry? {
            lock.withLock { stopped } ? nil : source.next()
        }

        /// The consumer stopped: take no more entries.
        func stop() {
            lock.withLock { stopped = true }
        }

        /// The run returned.
        func finish() {
            lock.withLock { finished = true }
        }
    }

    /// How many more events the run may send before the consumer takes one. (A counter on a
    /// condition rather than a `DispatchSemaphore`, which traps when it is freed below its
    /// starting value, as it is when the consumer stops early.)
    final class Credits: @unchecked Sendable {
        // @unchecked: every access to `available` and `stopped` holds `condition`'s lock.
        private let condition = NSCondition()
        private var available: Int
        private var stopped = false

        init(_ count: Int) { available = count }

        /// Waits for room for one event, and takes it (returns at once after ``stop()``).
        func take() {
            condition.lock()
            defer { condition.unlock() }
            while available == 0 && !stopped { condition.wait() }
            available -= 1
        }

        /// The consumer took an event.
        func give() {
            condition.lock()
            available += 1
            condition.signal()
            condition.unlock()
        }

        /// The consumer stopped: no waiting again.
        func stop() {
            condition.lock()
            stopped = true
            condition.broadcast()
            condition.unlock()
        }
    }
}
