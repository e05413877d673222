import AASA
import ArgumentParser
import Foundation

/// What one file of a batch produced: its standard output and standard error, in the order
/// they were written, and its exit status. Built on a worker thread, printed on the main thread.
struct BatchOutput: Sendable {
    enum Stream: Sendable {
        case standardOutput, standardError
    }

    struct Chunk: Sendable {
        var stream: Stream
        var data: Data
    }

    private(set) var chunks: [Chunk] = []
    /// The status this file contributes (the batch exits with the worst).
    var status = ExitStatus.success
    /// What became of the file, for the summary ("valid", "tampered", "unreadable", …).
    var outcome = ""

    /// A line on standard output.
    mutating func print(_ text: String) {
        write(Data((text + "\n").utf8))
    }

    /// Bytes on standard output.
    mutating func write(_ data: Data) {
        if let last = chunks.indices.last, chunks[last].stream == .standardOutput {
            chunks[last].data.append(data)
        } else {
            chunks.append(Chunk(stream: .standardOutput, data: data))
        }
    }

    /// A diagnostic line on standard error: `PATH: severity: [code] message`.
    mutating func emit(_ path: String, _ severity: Diagnostics.Severity, _ message: String, code: String? = nil) {
        chunks.append(
            Chunk(stream: .standardError, data: Data(Diagnostics.line(path, severity, message, code: code).utf8)))
    }

    /// Reports a failure as ``reportingFailures(path:_:)`` does, and keeps the worse status.
    mutating func fail(_ failure: CLIFailure, outcome: String? = nil) {
        emit(failure.path, .error, failure.message, code: failure.code)
        status = ExitStatus.worst(status, failure.status)
        if let outcome { self.outcome = outcome }
    }

    var isEmpty: Bool { chunks.isEmpty }
}

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

/// Prints batch outputs: the chunks in order, the progress line cleared first, standard output
/// failures reported once. Standard output is collected and written at most every 32 KB or
/// 100 ms (and always before anything goes to standard error, so that the two streams keep
/// their order on a terminal): one write per file would cost more than verifying it.
final class BatchPrinter {
    let progress: ProgressBar?
    private(set) var stdoutFailed = false
    private var pending = Data()
    private var lastFlush = DispatchTime.now().uptimeNanoseconds

    init(total: Int) {
        progress = ProgressBar.forFiles(total)
    }

    /// Writes `output`'s chunks. Returns false when standard output could not be written (the
    /// first time it fails, the failure is reported on standard error).
    @discardableResult
    func print(_ output: BatchOutput) -> Bool {
        var written = true
        for chunk in output.chunks {
            switch chunk.stream {
            case .standardError:
                if !flush() { written = false }
                progress?.clear()
                FileHandle.standardError.write(chunk.data)
            case .standardOutput:
                guard !stdoutFailed else {
                    written = false
                    continue
                }
                pending.append(chunk.data)
            }
        }
        let now = DispatchTime.now().uptimeNanoseconds
        if pending.count >= 32 * 1024 || now - lastFlush > 100_000_000 {
            if !flush() { written = false }
        }
        return written
    }

    /// Writes what standard output has collected; false when it cannot be written.
    @discardableResult
    func flush() -> Bool {
        lastFlush = DispatchTime.now().uptimeNanoseconds
        guard !pending.isEmpty else { return !stdoutFailed }
        defer { pending.removeAll(keepingCapacity: true) }
        guard !stdoutFailed else { return false }
        progress?.clear()
        do {
            try FileHandle.standardOutput.write(contentsOf: pending)
            return true
        } catch {
            stdoutFailed = true
            Diagnostics.emit("<stdout>", .error, "cannot write output: \(error.localizedDescription)")
            return false
        }
    }

    /// Writes text to standard output outside any item (array brackets, separators).
    func write(_ text: String) {
        var output = BatchOutput()
        output.write(Data(text.utf8))
        print(output)
    }

    /// Writes what is left and clears the progress line.
    func finish() {
        flush()
        progress?.clear()
    }
}

/// Counts outcomes for the summary line, in the order they were first seen.
struct BatchTally {
    private(set) var counts: [(outcome: String, count: Int)] = []
    private(set) var total = 0

    mutating func add(_ outcome: String) {
        total += 1
        if let index = counts.firstIndex(where: { $0.outcome == outcome }) {
            counts[index].count += 1
        } else {
            counts.append((outcome, 1))
        }
    }

    func count(_ outcome: String) -> Int { counts.first { $0.outcome == outcome }?.count ?? 0 }

    /// "1 tampered, 2 expired" for the given outcomes (those with a count only).
    func list(except excluded: Set<String> = []) -> String {
        counts.filter { !excluded.contains($0.outcome) }.map { "\($0.count) \($0.outcome)" }.joined(separator: ", ")
    }

    /// Writes `COMMAND: N of M files OUTCOME; …` to standard error.
    static func printSummary(_ command: String, _ parts: [String]) {
        FileHandle.standardError.write(
            Data("\(command): \(parts.filter { !$0.isEmpty }.joined(separator: "; "))\n".utf8))
    }

    static func files(_ count: Int) -> String { "\(count) \(count == 1 ? "file" : "files")" }
}
