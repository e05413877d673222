import Foundation

/// Audits a list of domains with a bound on how many are in flight: the window of `aasa audit
/// --domains-file`. Each report goes to the caller in input order (a report waits for the ones
/// before it, and no more than four times `concurrency` reports are ever held), or as each
/// finishes (`ordered: false`). Entries are taken from the source only as there is room, so a
/// list of 100,000 domains costs the memory of its window.
///
/// ``run(_:invalid:tick:arrived:report:)`` blocks the calling thread and calls back on it; ``reports(from:)``
/// is the same run as an `AsyncSequence`.
public struct FleetAudit: Sendable {
    public let auditor: Auditor
    /// The most domains in flight at once.
    public let concurrency: Int
    /// Whether reports come in input order (else as each finishes).
    public let ordered: Bool

    public init(auditor: Auditor, concurrency: Int, ordered: Bool = true) {
        self.auditor = auditor
        self.concurrency = max(1, concurrency)
        self.ordered = ordered
    }

    /// What a run did.
    public struct Outcome: Sendable, Equatable {
        /// Domains audited (each has had its report).
        public var audited = 0
        /// Entries that were not a domain (each reported through `invalid`).
        public var invalidEntries = 0
    }

    /// How many reports go by between two ``HeapTrim/now()``.
    static let trimInterval = 2_000

    /// Runs the audit of every entry of `source`, calling back on this thread: `invalid` for an
    /// entry that is not a domain (in its place), `tick` with the number in flight about five
    /// times a second and after each batch of completions, `arrived` with each report as soon as
    /// it is done (before it waits for the earlier ones: where a caller saves and drops
    /// ``DomainReport/captured``), `report` for each domain.
    public func run(
        _ source: some FleetEntrySource, invalid: (_ origin: String, _ message: String) -> Void = { _, _ in },
        tick: (_ inFlight: Int) -> Void = { _ in }, arrived: (inout DomainReport) -> Void = { _ in },
        report: (DomainReport) -> Void
    ) -> Outcome {
        var outcome = Outcome()
        let completions = Completions()
        // Index -> report, for reports that finished before an earlier one (ordered output).
        var waiting: [Int: DomainReport] = [:]
        var started = 0
        var emitted = 0
        var inFlight = 0
        var exhausted = false
        let window = concurrency * 4

        while true {
            while !exhausted && inFlight < concurrency && (!ordered || started - emitted < window) {
                guard let entry = source.next() else {
                    exhausted = true
                    break
                }
                switch entry {
                case .invalid(let origin, let message):
                    outcome.invalidEntries += 1
                    invalid(origin, message)
                case .domain(let domain):
                    let index = started
                    started += 1
                    inFlight += 1
                    auditor.audit(domain) { report in completions.add(index, report) }
                }
            }
            if inFlight == 0 && exhausted { break }
            tick(inFlight)
            for (index, done) in completions.take(waitingUntil: Date().addingTimeInterval(0.2)) {
                var completed = done
                arrived(&completed)
                inFlight -= 1
                outcome.audited += 1
                if outcome.audited % Self.trimInterval == 0 { HeapTrim.now() }
                if ordered {
                    waiting[index] = completed
                } else {
                    report(completed)
                    emitted += 1
                }
            }
            while ordered, let completed = waiting.removeValue(forKey: emitted) {
                report(completed)
                emitted += 1
            }
        }
        return outcome
    }

    /// Completed reports, handed from the event loops to the thread that runs the audit.
    private final class Completions: @unchecked Sendable {
        // @unchecked: every access to `done` holds `condition`'s lock.
        private let condition = NSCondition()
        private var done: [(index: Int, report: DomainReport)] = []

        func add(_ index: Int, _ report: DomainReport) {
            condition.lock()
            done.append((index, report))
            condition.signal()
            condition.unlock()
        }

        /// The reports completed so far; waits for one until `deadline`.
        func take(waitingUntil deadline: Date) -> [(index: Int, report: DomainReport)] {
            condition.lock()
            defer { condition.unlock() }
            while done.isEmpty {
                if !condition.wait(until: deadline) { break }
            }
            let taken = done
            done.removeAll(keepingCapacity: true)
            return taken
        }
    }
}
