import AASA
import ArgumentParser
import Foundation

/// Prints batch outputs: the chunks in order, the progress line cleared first, standard output
/// failures reported once. Standard output is collected and written at most every 32 KB or
/// 100 ms (and always before anything goes to standard error, so that the two streams keep
/// their order on a terminal): one write per file would cost more than verifying it.
final class BatchPrinter {
    let progress: ProgressBar?
    private(set) var stdoutFailed = false
    private var pending = Data()
    private var lastFlush = DispatchTime.now().uptimeNanoseconds

    /// `total`: the number of files, nil when it is not known before the end; `progress`:
    /// `--progress`/`--no-progress`, nil for the terminal to decide.
    init(total: Int?, progress: Bool? = nil) {
        self.progress = ProgressBar.forFiles(total, shown: progress)
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
                StandardStreams.err(chunk.data)
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
            try StandardStreams.writeOut(pending)
            return true
        } catch {
            let failure = StandardStreams.outputFailure(error)  // ends the process for EPIPE
            stdoutFailed = true
            Diagnostics.emit(failure.path, .error, failure.message)
            return false
        }
    }

    /// Writes text to standard output outside any item (array brackets, separators).
    func write(_ text: String) {
        var output = BatchOutput()
        output.write(Data(utf8: text))
        print(output)
    }

    /// Writes what is left and clears the progress line.
    func finish() {
        flush()
        progress?.clear()
    }
}
