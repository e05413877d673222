import AASAReports
import ArgumentParser
import Foundation

/// The one batch driver (after swift-format's `Frontend`): it reports the inputs that could not
/// be expanded, runs the per-file work on `--jobs` threads (``BatchRunner``), prints each file's
/// output in input order (``BatchPrinter``) with the progress line, keeps the JSON array's
/// brackets and separators, counts outcomes (``BatchTally``), prints the summary line and
/// exits with the worst status. A command supplies only the per-file work and its wording.
///
/// The files of a `--files-from` list (``BatchExpansion/list``) come after the command line's
/// and are read as the workers take them; an entry of it that names no file is reported in
/// its place, between the files' outputs. The progress line then has no total (the list's
/// length is not known before its end).
struct BatchFrontend {
    /// The command's name, for the summary line (`verify: …`).
    let command: String
    /// The files the command line named.
    let items: [BatchInput]
    /// The `--files-from` list still to read.
    private let list: ListedInputs?
    /// The worst status so far (the batch exits with it).
    private(set) var worst = ExitStatus.success
    /// The outcomes so far, in the order first seen.
    private(set) var tally = BatchTally()
    /// How many files were handed to the work so far.
    private(set) var filesTaken = 0
    let printer: BatchPrinter
    /// Set when the outputs are elements of one JSON array.
    private var array: JSONArrayStream?
    /// How an input that could not be expanded is counted (nil: not counted).
    private let failureOutcome: String?
    private let expansionLeftOut: Int
    /// Whether the files' standard output is text for a person (not a machine format), which
    /// `--quiet` leaves out for a file that passes.
    private var recordsAreText = true

    /// Reports each failure of `expansion` (inputs that could not be expanded), counting it as
    /// `failureOutcome` when one is given.
    init(_ command: String, _ expansion: BatchExpansion, failureOutcome: String? = "unreadable") {
        self.command = command
        self.items = expansion.items
        self.list = expansion.list
        self.failureOutcome = failureOutcome
        expansionLeftOut = expansion.leftOut
        for failure in expansion.failures {
            Diagnostics.emit(failure.path, .error, failure.message)
            worst = ExitStatus.worst(worst, failure.status)
            if let failureOutcome { tally.add(failureOutcome) }
        }
        printer = BatchPrinter(
            total: expansion.list == nil ? expansion.items.count : nil, progress: expansion.progress)
    }

    /// "3 files left out by --include", or nil when none was.
    var leftOutNote: String? {
        var expansion = BatchExpansion()
        expansion.leftOut = expansionLeftOut
        expansion.list = list
        return expansion.leftOutNote
    }

    /// Starts the output in `format`, of `kind` (the records' stamp): for `json` in a batch,
    /// opens the array the files' records are elements of, laid out as `layout` (closed by
    /// ``finishOutput()``). Returns the printer of the files' records, for the workers.
    mutating func startOutput(
        _ format: BatchFormat, _ kind: JSONSchemaKind, single: Bool, layout: JSONArrayStream.Layout
    ) -> RecordPrinter {
        recordsAreText = format == .text
        guard format == .json && !single else { return RecordPrinter(format: format, kind: kind, array: nil) }
        let stream = JSONArrayStream(layout, of: kind)
        array = stream
        printer.write(stream.opening)
        return RecordPrinter(format: format, kind: kind, array: stream)
    }

    /// Runs `work` on each of `jobs` (one per item, in item order) and prints its output: in
    /// input order, whatever the number of threads. An output whose outcome is "unreadable" or
    /// "skipped" is no element of the JSON array. For the commands that need every file first:
    /// the expansion holds no list still to read.
    mutating func run<Job: Sendable>(
        _ jobs: [Job], threads: @autoclosure () -> Int, work: @escaping @Sendable (Job) -> BatchOutput
    ) {
        run(jobs, threads: threads(), output: { $0 }, work: work, then: { _, _, _ in })
    }

    /// As ``run(_:threads:work:)`` for work that gives more than its output: `then` gets each
    /// file's whole result on the calling thread, in input order, after its output is printed,
    /// with whether standard output took it.
    mutating func run<Job: Sendable, Result: Sendable>(
        _ jobs: [Job], threads: @autoclosure () -> Int, output: (Result) -> BatchOutput,
        work: @escaping @Sendable (Job) -> Result, then handle: (_ index: Int, Result, _ printed: Bool) -> Void
    ) {
        precondition(list == nil, "a --files-from list is read whole (expand(streaming: false)) for jobs of its own")
        // The processor count (cgroup files on Linux) only when there is more than one file.
        BatchRunner.run(
            jobs, jobs: jobs.count > 1 ? threads() : 1, work: work,
            deliver: { index, result in
                filesTaken += 1
                let printed = deliver(output(result), path: items[index].path, index: index)
                handle(index, result, printed)
            })
    }

    /// Runs `work` on every item: the command line's, then the `--files-from` list's as it is
    /// read.
    mutating func run(threads: @autoclosure () -> Int, work: @escaping @Sendable (BatchInput) -> BatchOutput) {
        run(threads: threads(), output: { $0 }, work: work, then: { _, _, _ in })
    }

    /// As ``run(threads:work:)`` for work that gives more than its output: `then` gets each
    /// file and its whole result on the calling thread, in input order, after its output is
    /// printed, with whether standard output took it; `failed` gets each entry of a
    /// `--files-from` list that names no file aasa can take, after it is reported.
    mutating func run<Result: Sendable>(
        threads: @autoclosure () -> Int, output: (Result) -> BatchOutput,
        work: @escaping @Sendable (BatchInput) -> Result,
        then handle: (BatchInput, Result, _ printed: Bool) -> Void, failed: (CLIFailure) -> Void = { _ in }
    ) {
        var commandLine = items.makeIterator()
        let list = self.list
        // The processor count (cgroup files on Linux) only when there is more than one file.
        let jobs = list == nil && items.count <= 1 ? 1 : threads()
        BatchRunner.run(
            next: { commandLine.next().map(BatchItem.file) ?? list?.next() },
            expected: list == nil ? items.count : nil, jobs: jobs,
            work: { item -> Taken<Result> in
                switch item {
                case .file(let input): .file(input, work(input))
                case .failure(let failure): .failure(failure)
                }
            },
            deliver: { index, taken in
                switch taken {
                case .file(let input, let result):
                    filesTaken += 1
                    let printed = deliver(output(result), path: input.path, index: index)
                    handle(input, result, printed)
                case .failure(let failure):
                    reportInPlace(failure, index: index)
                    failed(failure)
                }
            })
    }

    /// What became of one item of a streamed batch.
    private enum Taken<Result: Sendable>: Sendable {
        case file(BatchInput, Result)
        case failure(CLIFailure)
    }

    /// Reports an input that could not be expanded, between the files' outputs, and counts it
    /// as ``failureOutcome``.
    private mutating func reportInPlace(_ failure: CLIFailure, index: Int) {
        printer.progress?.update(done: index + 1, path: failure.path)
        var output = BatchOutput()
        output.fail(failure)
        printer.print(output)
        worst = ExitStatus.worst(worst, failure.status)
        if let failureOutcome { tally.add(failureOutcome) }
    }

    /// Outcomes whose file has no element in a JSON array: nothing to describe.
    static let outsideTheArray: Set<String> = ["unreadable", "skipped"]

    /// Prints one file's output; false when standard output did not take it.
    private mutating func deliver(_ output: BatchOutput, path: String, index: Int) -> Bool {
        printer.progress?.update(done: index + 1, path: path)
        if array != nil && !Self.outsideTheArray.contains(output.outcome) { printer.write(array!.separator()) }
        let passed = output.status == ExitStatus.success
        let printed = printer.print(Display.quiet && recordsAreText && passed ? output.problemsOnly : output)
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
    /// no file was found at all (an empty directory, a list that cannot be read: its error
    /// says it all).
    func summarize(_ parts: [String]) {
        guard filesTaken > 0 else { return }
        BatchTally.printSummary(command, parts + [leftOutNote ?? ""])
    }

    /// Throws the worst status unless it is success.
    func exit() throws {
        try ExitStatus.throwing(worst)
    }
}
