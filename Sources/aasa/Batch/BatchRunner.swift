import AASA
import ArgumentParser
import Foundation

/// Runs a batch: `jobs` worker threads take the items in order, at most a window of results
/// waits to be printed, and the calling thread prints each item's output in input order, so
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
            return
        }
        let producer = Producer(next)
        let state = State<Result>(window: workers * windowPerJob)
        for _ in 0..<workers {
            let thread = Thread {
                while let (index, item) = state.take(from: producer) {
                    state.finish(index, work(item))
                }
                CryptoThread.releaseResources()
                state.workerExited()
            }
            thread.stackSize = 16 * 1024 * 1024  // as the main thread: deep JSON is refused, not overflowed
            thread.start()
        }
        var index = 0
        while let result = state.result(index) {
            deliver(index, result)
            index += 1
        }
        // No worker may still hold a result, or OpenSSL's per-thread state (each worker frees
        // it before it says it is done), when the batch returns and the process exits:
        // valgrind and LeakSanitizer reported such memory, now and then, as lost.
        state.waitForWorkers(workers)
    }

    /// The item producer, called by one worker at a time.
    private final class Producer<Item>: @unchecked Sendable {
        // @unchecked: `next` is only called with `lock` held.
        let lock = NSLock()
        let next: () -> Item?

        init(_ next: @escaping () -> Item?) { self.next = next }
    }

    /// The state the workers and the printing thread share.
    private final class State<Result: Sendable>: @unchecked Sendable {
        // @unchecked: every stored property is read and written with `condition` locked.
        private let condition = NSCondition()
        private let window: Int
        /// The number of items taken so far.
        private var taken = 0
        /// The number of items, once the producer has given its last.
        private var count: Int?
        private var delivered = 0
        private var results: [Int: Result] = [:]
        private var exited = 0

        init(window: Int) {
            self.window = window
        }

        /// The next item to process and its index, once the window allows; nil when there is
        /// none left. The producer is called outside `condition`, so that results are
        /// delivered while it waits (on a slow pipe, say), and under its own lock, so that
        /// the indices follow its order.
        func take<Item>(from producer: Producer<Item>) -> (Int, Item)? {
            producer.lock.lock()
            defer { producer.lock.unlock() }
            condition.lock()
            while count == nil && taken >= delivered + window { condition.wait() }
            let finished = count != nil
            condition.unlock()
            guard !finished, let item = producer.next() else {
                condition.lock()
                if count == nil { count = taken }
                condition.broadcast()
                condition.unlock()
                return nil
            }
            condition.lock()
            defer { condition.unlock() }
            taken += 1
            return (taken - 1, item)
        }

        func finish(_ index: Int, _ output: Result) {
            condition.lock()
            results[index] = output
            condition.broadcast()
            condition.unlock()
        }

        /// A worker has taken its last item and finished it.
        func workerExited() {
            condition.lock()
            exited += 1
            condition.broadcast()
            condition.unlock()
        }

        /// Waits until `workers` workers have exited their loop.
        func waitForWorkers(_ workers: Int) {
            condition.lock()
            defer { condition.unlock() }
            while exited < workers { condition.wait() }
        }

        /// Waits for item `index`'s output and takes it; nil when there is no such item.
        func result(_ index: Int) -> Result? {
            condition.lock()
            defer { condition.unlock() }
            while results[index] == nil {
                if let count, index >= count { return nil }
                condition.wait()
            }
            delivered = index + 1
            condition.broadcast()
            return results.removeValue(forKey: index)!
        }
    }
}
