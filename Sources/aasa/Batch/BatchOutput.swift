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
        write(Data(utf8: text + "\n"))
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
        guard Diagnostics.shows(severity) else { return }
        chunks.append(
            Chunk(stream: .standardError, data: Data(utf8: Diagnostics.line(path, severity, message, code: code))))
    }

    /// The last failure reported (for the reports that list unreadable inputs).
    private(set) var failure: CLIFailure?

    /// Reports a failure as ``reportingFailures(path:_:)`` does, and keeps the worse status.
    mutating func fail(_ failure: CLIFailure, outcome: String? = nil) {
        self.failure = failure
        emit(failure.path, .error, failure.message, code: failure.code)
        status = ExitStatus.worst(status, failure.status)
        if let outcome { self.outcome = outcome }
    }

    /// A single file's result, to `-o`: in its place among the outputs for `-` (standard
    /// output), else to that file (atomic and durable, ``OutputFile/write(_:to:durable:noClobber:)``).
    mutating func write(_ data: Data, to destination: String, noClobber: Bool) throws {
        if destination == "-" {
            write(data)
        } else {
            try OutputFile.write(data, to: destination, noClobber: noClobber)
        }
    }

    var isEmpty: Bool { chunks.isEmpty }

    /// This output without its standard output (what `--quiet` prints of a file that passed:
    /// its warnings and errors on standard error, nothing else).
    var problemsOnly: BatchOutput {
        var output = self
        output.chunks.removeAll { $0.stream == .standardOutput }
        return output
    }
}
