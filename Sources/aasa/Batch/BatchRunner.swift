import AASA
import ArgumentParser
import Foundation

/// Runs a batch: `jobs` workers take the items in order, at most a window of results waits to
/// be printed, and the calling thread prints each item's output in input order (and, when the
/// items are known, is one of the workers between its prints), so
/// the output is the same whatever the number of jobs, and memory does not grow with the
/// number of items. The items come from a producer called as workers take them (a
/// `--files-from` list is read as the batch goes), never all at once.
///
/// Threads, not Swift concurrency: the root command stays a synchronous `ParsableCommand`.
enum BatchRunner {
    /// How many finished results may wait for an earlier, slower one, per worker.
    static let windowPerJob = 8

    /// Runs `work` on every item and hands each output to `deliver`, in item order, on the
    /// calling thread.
    static func run<Item: Sendable, Result: Sendable>(
        _ items: [Item], jobs: Int, work: @escaping @Sendable (Item) -> Result,
        deliver: (Int, Result) -> Void
    ) {
        var remaining = items.makeIterator()
        run(next: { remaining.next() }, expected: items.count, jobs: jobs, work: work, deliver: deliver)
    }

    /// Runs `work` on each item `next` gives, until it gives nil, and hands each output to
    /// `deliver`, in item order, on the calling thread. `next` is called by one thread at a
    /// time (the workers', or the calling thread's with one job), only when the window has
    /// room: at most `jobs × windowPerJob` items are taken and not yet delivered. `expected`,
    /// when known, caps the number of workers.
    static func run<Item: Sendable, Result: Sendable>(
        next: @escaping () -> Item?, expected: Int?, jobs: Int, work: @escaping @Sendable (Item) -> Result,
        deliver: (Int, Result) -> Void
    ) {
        let workers = min(jobs, expected ?? jobs)
        guard workers > 1 else {
            var index = 0
            while let item = next() {
                deliver(index, work(item))
                index += 1
            }
            RecentDirectory.forget()
            return
        }
        let producer = Producer(next)
        let state = State<Result>(window: workers * windowPerJob, producerMayWait: expected == nil)
        // When taking an item never waits (the items are known), the calling thread is one of the
        // workers: between the results it prints, it works on items itself. A printing thread
        // of its own, beside `jobs` workers, was one thread more than the cores that `--jobs`
        // names: with two jobs on two cores, two processes of one job were 1.14 times as fast
        // (docs/performance.md, "Many cores").
        let callerWorks = expected != nil
        let threads = callerWorks ? workers - 1 : workers
        for _ in 0..<threads {
            let thread = Thread {
                while let (index, item) = state.take(from: producer) {
                    state.finish(index, work(item))
                }
                CryptoThread.releaseResources()
                RecentDirectory.forget()
                state.workerExited()
            }
            thread.stackSize = 16 * 1024 * 1024  // as the main thread: deep JSON is refused, not overflowed
            thread.start()
        }
        var index = 0
        while true {
            if callerWorks {
                // What is ready is printed first; then an item, when the window has room.
                guard let ready = state.readyResults(from: index) else { break }
                if !ready.isEmpty {
                    for result in ready {
                        deliver(index, result)
                        index += 1
                    }
                    continue
                }
                if let (taken, item) = state.takeIfRoom(from: producer) {
                    state.finish(taken, work(item))
                    continue
                }
            }
            guard let ready = state.results(from: index) else { break }
            for result in ready {
                deliver(index, result)
                index += 1
            }
        }
        RecentDirectory.forget()
        // No worker may still hold a result, or OpenSSL's per-thread state (each worker frees
        // it before it says it is done), when the batch returns and the process exits:
        // valgrind and LeakSanitizer reported such memory, now and then, as lost.
        state.waitForWorkers(threads)
    }

    /// The item producer, called by one worker at a time.
    private final class Producer<Item>: @unchecked Sendable {
        // @unchecked: `next` is only called with `lock` held.
        let lock = NSLock()
        let next: () -> Item?

        init(_ next: @escaping () -> Item?) { self.next = next }
    }

    /// The state the workers and the printing thread share: one lock, and two conditions so
    /// that each wake-up goes to a thread that can go on. A worker wakes the printing thread
    /// only when the item it waits for is ready with half a window behind it (or all that is
    /// left, or the window is full); the printer takes every result ready in order at once
    /// and wakes the workers only when one waits for room in the window. One condition
    /// broadcast per file woke every thread for every file: with two jobs, 3.4 futex calls and
    /// 2.2 context switches per file (`perf stat -e syscalls:sys_enter_futex`,
    /// docs/performance.md, "Many cores").
    private final class State<Result: Sendable>: @unchecked Sendable {
        // @unchecked: every stored property is read and written with `lock` held.
        private let lock = ConditionLock()
        /// Workers wait here for room in the window (or for the end of the items).
        private let roomFreed: ConditionLock.Condition
        /// The printing thread waits here for the result it prints next (or for the workers
        /// to exit).
        private let resultReady: ConditionLock.Condition
        private let window: Int
        /// Whether the producer may block (a list read as the batch goes).
        private let producerMayWait: Bool
        /// How many results in order wake the waiting printer (half the window).
        private let wakeBatch: Int
        /// The number of items taken so far.
        private var taken = 0
        /// The number of items, once the producer has given its last.
        private var count: Int?
        private var delivered = 0
        private var results: [Int: Result] = [:]
        private var exited = 0
        /// The index the printing thread waits for, while it waits.
        private var printerWaitsFor: Int?
        /// Workers waiting in ``take(from:)`` for room in the window.
        private var waitingForRoom = 0

        init(window: Int, producerMayWait: Bool) {
            self.window = window
            self.producerMayWait = producerMayWait
            wakeBatch = max(1, window / 2)
            roomFreed = lock.condition()
            resultReady = lock.condition()
        }

        /// The next item to process and its index, once the window allows; nil when there is
        /// none left. The producer is called outside `lock`, so that results are delivered
        /// while it waits (on a slow pipe, say), and under its own lock, so that the indices
        /// follow its order.
        func take<Item>(from producer: Producer<Item>) -> (Int, Item)? {
            producer.lock.lock()
            defer { producer.lock.unlock() }
            lock.lock()
            while count == nil && taken >= delivered + window {
                // The printer must not sleep on a ready result while workers wait for room.
                if let awaited = printerWaitsFor, results[awaited] != nil { resultReady.signal() }
                waitingForRoom += 1
                roomFreed.wait()
                waitingForRoom -= 1
            }
            let finished = count != nil
            // A producer that reads a list may wait for its next line: what is ready is printed
            // first, so that output never waits on input.
            if producerMayWait, let awaited = printerWaitsFor, results[awaited] != nil { resultReady.signal() }
            lock.unlock()
            return finished ? nil : nextItem(from: producer)
        }

        /// The producer's next item and its index, or nil at the end of the items, which the
        /// other workers and the printer then learn. Called with the producer's lock held.
        private func nextItem<Item>(from producer: Producer<Item>) -> (Int, Item)? {
            guard let item = producer.next() else {
                lock.lock()
                if count == nil {
                    count = taken
                    // The other workers stop, and the printer learns where the items end.
                    roomFreed.broadcast()
                    resultReady.signal()
                }
                lock.unlock()
                return nil
            }
            lock.lock()
            defer { lock.unlock() }
            taken += 1
            return (taken - 1, item)
        }

        /// The next item and its index when the window has room now; nil when it has none, when
        /// a worker is taking one, or when no item is left (never waits). For the calling
        /// thread, whose producer never waits.
        func takeIfRoom<Item>(from producer: Producer<Item>) -> (Int, Item)? {
            // A worker holding the producer may be waiting for room that only this thread frees
            // (by printing): never wait for it.
            guard producer.lock.try() else { return nil }
            defer { producer.lock.unlock() }
            lock.lock()
            let room = count == nil && taken < delivered + window
            lock.unlock()
            return room ? nextItem(from: producer) : nil
        }

        /// Item `index`'s output with every later one already finished in order, without
        /// waiting: empty when item `index` is not finished yet, nil when there is no item
        /// `index`. Like ``results(from:)``, calling it frees the room of every item before
        /// `index`.
        func readyResults(from index: Int) -> [Result]? {
            lock.lock()
            defer { lock.unlock() }
            delivered = index
            if waitingForRoom > 0 { roomFreed.broadcast() }
            guard results[index] != nil else {
                if let count, index >= count { return nil }
                return []
            }
            return takeFinished(from: index)
        }

        /// The finished results from `index` on, in order, up to the first not finished yet;
        /// removed. Called with `lock` held.
        private func takeFinished(from index: Int) -> [Result] {
            var ready: [Result] = []
            var next = index
            while let result = results.removeValue(forKey: next) {
                ready.append(result)
                next += 1
            }
            return ready
        }

        func finish(_ index: Int, _ output: Result) {
            lock.lock()
            results[index] = output
            if let awaited = printerWaitsFor, index >= awaited, printerShouldWake(awaited) { resultReady.signal() }
            lock.unlock()
        }

        /// Whether the printing thread, waiting for `awaited`, has enough to do to be woken: a
        /// run of ``wakeBatch`` results ready in order from `awaited`, every result left, or a
        /// window so full that a worker will wait for room. Waking it for each file cost a
        /// futex call and a context switch per file.
        private func printerShouldWake(_ awaited: Int) -> Bool {
            guard results[awaited] != nil else { return false }
            if taken >= delivered + window || waitingForRoom > 0 { return true }
            var run = 1
            while run < wakeBatch, results[awaited + run] != nil { run += 1 }
            if run >= wakeBatch { return true }
            if let count, awaited + run >= count { return true }
            return false
        }

        /// A worker has taken its last item and finished it.
        func workerExited() {
            lock.lock()
            exited += 1
            resultReady.signal()
            lock.unlock()
        }

        /// Waits until `workers` workers have exited their loop.
        func waitForWorkers(_ workers: Int) {
            lock.lock()
            defer { lock.unlock() }
            while exited < workers { resultReady.wait() }
        }

        /// Waits for item `index`'s output and takes it with every later one already finished
        /// in order; nil when there is no item `index`. Calling it says that every item before
        /// `index` has been delivered, which frees their room in the window.
        func results(from index: Int) -> [Result]? {
            lock.lock()
            defer { lock.unlock() }
            // Everything before `index` has been delivered: its room is free.
            delivered = index
            if waitingForRoom > 0 { roomFreed.broadcast() }
            while results[index] == nil {
                if let count, index >= count { return nil }
                printerWaitsFor = index
                resultReady.wait()
            }
            printerWaitsFor = nil
            return takeFinished(from: index)
        }
    }
}
