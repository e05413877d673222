import AASA
import ArgumentParser
import Foundation

/// Runs a batch: `jobs` worker threads take the files in order, at most a window of results
/// waits to be printed, and the calling thread prints each file's output in input order, so
/// the output is the same whatever the number of jobs, and memory does not grow with the
/// number of files.
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
        let workers = min(jobs, items.count)
        guard workers > 1 else {
            for (index, item) in items.enumerated() { deliver(index, work(item)) }
            return
        }
        let state = State<Result>(count: items.count, window: workers * windowPerJob)
        for _ in 0..<workers {
            let thread = Thread {
                while let index = state.take() {
                    state.finish(index, work(items[index]))
                }
                CryptoThread.releaseResources()
                state.workerExited()
            }
            thread.stackSize = 16 * 1024 * 1024  // as the main thread: deep JSON is refused, not overflowed
            thread.start()
        }
        for index in items.indices {
            deliver(index, state.result(index))
        }
        // No worker may still hold a result, or OpenSSL's per-thread state (each worker frees
        // it before it says it is done), when the batch returns and the process exits:
        // valgrind and LeakSanitizer reported such memory, now and then, as lost.
        state.waitForWorkers(workers)
    }

    /// The state the workers and the printing thread share.
    private final class State<Result: Sendable>: @unchecked Sendable {
        // @unchecked: every stored property is read and written with `condition` locked.
        private let condition = NSCondition()
        private let count: Int
        private let window: Int
        private var next = 0
        private var delivered = 0
        private var results: [Int: Result] = [:]
        private var exited = 0

        init(count: Int, window: Int) {
            self.count = count
            self.window = window
        }

        /// The next item to process, once the window allows; nil when there is none left.
        func take() -> Int? {
            condition.lock()
            defer { condition.unlock() }
            while next < count && next >= delivered + window { condition.wait() }
            guard next < count else { return nil }
            next += 1
            return next - 1
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

        /// Waits for item `index`'s output and takes it.
        func result(_ index: Int) -> Result {
            condition.lock()
            defer { condition.unlock() }
            while results[index] == nil { condition.wait() }
            delivered = index + 1
            condition.broadcast()
            return results.removeValue(forKey: index)!
        }
    }
}
