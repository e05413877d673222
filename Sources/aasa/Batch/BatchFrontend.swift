import ArgumentParser
import Foundation

/// The one batch driver (after swift-format's `Frontend`): it reports the inputs that could not
/// be expanded, runs the per-file work on `--jobs` threads (``BatchRunner``), prints each file's
/// output in input order (``BatchPrinter``) with the progress line, keeps the JSON array's
/// brackets and separators, counts outcomes (``BatchTally``), prints the summary line and
/// exits with the worst status. A command supplies only the per-file work and its wording.
struct BatchFrontend {
    /// The command's name, for the summary line (`verify: …`).
    let command: String
    /// The files the inputs named.
    let items: [BatchInput]
    /// The worst status so far (the batch exits with it).
    private(set) var worst = ExitStatus.success
    /// The outcomes so far, in the order first seen.
    private(set) var tally = BatchTally()
    let printer: BatchPrinter
    /// Set when the outputs are elements of one JSON array.
    private var array: JSONArrayStream?
    /// "N files left out by --include", for the summary.
    let leftOutNote: String?

    /// Reports each failure of `expansion` (inputs that could not be expanded), counting it as
    /// `failureOutcome` when one is given.
    init(_ command: String, _ expansion: BatchExpansion, failureOutcome: String? = "unreadable") {
        self.command = command
        self.items = expansion.items
        self.leftOutNote = expansion.leftOutNote
        for failure in expansion.failures {
            Diagnostics.emit(failure.path, .error, failure.message)
            worst = ExitStatus.worst(worst, failure.status)
            if let failureOutcome { tally.add(failureOutcome) }
        }
        printer = BatchPrinter(total: expansion.items.count)
    }

    /// Starts the output in `format`, of `kind` (the records' stamp): for `json` in a batch,
    /// opens the array the files' records are elements of, laid out as `layout` (closed by
    /// ``finishOutput()``). Returns the printer of the files' records, for the workers.
    mutating func startOutput(
        _ format: BatchFormat, _ kind: JSONSchemaKind, single: Bool, layout: JSONArrayStream.Layout
    ) -> RecordPrinter {
        guard format == .json && !single else { return RecordPrinter(format: format, kind: kind, array: nil) }
        let stream = JSONArrayStream(layout, of: kind)
        array = stream
        printer.write(stream.opening)
        return RecordPrinter(format: format, kind: kind, array: stream)
    }

    /// Runs `work` on each of `jobs` (one per item, in item order) and prints its output: in
    /// input order, whatever the number of threads. An output whose outcome is "unreadable" or
    /// "skipped" is no element of the JSON array.
    mutating func run<Job: Sendable>(_ jobs: [Job], threads: Int, work: @escaping @Sendable (Job) -> BatchOutput) {
        run(jobs, threads: threads, output: { $0 }, work: work, then: { _, _, _ in })
    }

    /// As ``run(_:threads:work:)`` for work that gives more than its output: `then` gets each
    /// file's whole result on the calling thread, in input order, after its output is printed,
    /// with whether standard output took it.
    mutating func run<Job: Sendable, Result: Sendable>(
        _ jobs: [Job], threads: Int, output: (Result) -> BatchOutput,
        work: @escaping @Sendable (Job) -> Result, then handle: (_ index: Int, Result, _ printed: Bool) -> Void
    ) {
        BatchRunner.run(
            jobs, jobs: threads, work: work,
            deliver: { index, result in
                let printed = deliver(output(result), path: items[index].path, index: index)
                handle(index, result, printed)
            })
    }

    /// Runs `work` on every item.
    mutating func run(threads: Int, work: @escaping @Sendable (BatchInput) -> BatchOutput) {
        run(items, threads: threads, work: work)
    }

    /// Outcomes whose file has no element in a JSON array: nothing to describe.
    static let outsideTheArray: Set<String> = ["unreadable", "skipped"]

    /// Prints one file's output; false when standard output did not take it.
    private mutating func deliver(_ output: BatchOutput, path: String, index: Int) -> Bool {
        printer.progress?.update(done: index + 1, path: path)
        if array != nil && !Self.outsideTheArray.contains(output.outcome) { printer.write(array!.separator()) }
        let printed = printer.print(output)
        worst = ExitStatus.worst(worst, output.status)
        tally.add(output.outcome)
        return printed
    }

    /// Closes the JSON array, writes what standard output holds and clears the progress line; a
    /// standard output that could not be written makes the batch's status at least 2.
    mutating func finishOutput() {
        if let array { printer.write(array.closing) }
        printer.finish()
        if printer.stdoutFailed { worst = ExitStatus.worst(worst, ExitStatus.badInput) }
    }

    /// Prints `COMMAND: PARTS` on standard error, with the files `--include` left out, unless
    /// no file was found at all (an empty directory: its error says it all).
    func summarize(_ parts: [String]) {
        guard !items.isEmpty else { return }
        BatchTally.printSummary(command, parts + [leftOutNote ?? ""])
    }

    /// Throws the worst status unless it is success.
    func exit() throws {
        if worst != ExitStatus.success { throw worst }
    }
}
