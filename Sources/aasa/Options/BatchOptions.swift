import ArgumentParser
import Foundation

/// The flags of every command that takes many files: how many at once, and which files a
/// directory contributes.
struct BatchOptions: ParsableArguments {
    @Option(
        name: [.short, .customLong("jobs")],
        help: ArgumentHelp(
            "Files processed at once (default: the number of cores). Output stays in input order.", valueName: "n"))
    var jobs: Int?

    @Option(
        name: .customLong("include"),
        help: ArgumentHelp(
            "In directories, take only files whose name matches this glob, e.g. '*.p7m' (repeatable; files named on the command line are always taken).",
            valueName: "glob"))
    var include: [String] = []

    @Flag(
        name: .customLong("no-recurse"),
        help: "In directories, take only the files directly inside, not those in subdirectories.")
    var noRecurse = false

    @Option(
        name: .customLong("files-from"),
        help: ArgumentHelp(
            "Also take the files (or directories) named in this list, one per line ('-' for standard input), after those on the command line.",
            valueName: "list"))
    var filesFrom: String?

    @Flag(
        name: .customLong("null"),
        help: "The --files-from list separates names with NUL bytes, not newlines (find -print0, git ls-files -z).")
    var null = false

    @Flag(
        inversion: .prefixedNo,
        help:
            "Show a progress bar on standard error (default: on a terminal that can redraw a line, once the batch has run half a second)."
    )
    var progress: Bool?

    /// More workers than this only add contention.
    static let maximumJobs = 256

    func validate() throws {
        if let jobs, jobs < 1 || jobs > Self.maximumJobs {
            throw ValidationError("--jobs must be between 1 and \(Self.maximumJobs)")
        }
        if null && filesFrom == nil {
            throw ValidationError("--null says how the --files-from list is separated: give --files-from LIST with it")
        }
        for glob in include where glob.isEmpty || glob.contains("/") {
            throw ValidationError("--include '\(glob)' must be a file-name pattern without '/', such as '*.p7m'")
        }
    }

    /// The number of worker threads.
    var workerCount: Int { jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Whether these inputs make a batch: more than one, or a directory.
    static func isBatch(_ inputs: [String]) -> Bool {
        inputs.count > 1 || inputs.contains(where: isDirectory)
    }

    /// Whether these inputs, with the `--files-from` list, make a batch: a list always does,
    /// whatever it holds (its names are not known before the work starts).
    func isBatch(_ inputs: [String]) -> Bool {
        filesFrom != nil || Self.isBatch(inputs)
    }

    /// Whether any input was given: a name on the command line or a `--files-from` list.
    func hasInputs(_ inputs: [String]) -> Bool {
        !inputs.isEmpty || filesFrom != nil
    }

    /// The first input, for messages about the batch as a whole (a trust store that cannot be
    /// loaded): the first name on the command line, else the list.
    func firstInput(_ inputs: [String]) -> String {
        inputs.first ?? filesFrom ?? "-"
    }

    /// Refuses "-" among the inputs when the `--files-from` list is standard input.
    func refuseListOnStandardInput(_ inputs: [String]) throws {
        if filesFrom == "-" && inputs.contains("-") {
            throw ValidationError("standard input ('-') can be read only once: here it is the --files-from list")
        }
    }

}
