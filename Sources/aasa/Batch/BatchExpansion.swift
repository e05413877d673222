/// What a batch's inputs name: the files to take, the inputs that could not be expanded (a
/// directory that cannot be read, an entry of it that cannot be walked), and how many files
/// of the directories `--include` left out, so that the summary can say so. A `--files-from`
/// list read as the batch goes is ``list``: its files come after ``items``.
struct BatchExpansion {
    var items: [BatchInput] = []
    var failures: [CLIFailure] = []
    /// Regular files in the directories whose names `--include` did not match.
    var leftOut = 0
    /// The `--files-from` list still to read (see ``BatchOptions/expand(_:what:emptyIsFailure:streaming:)``).
    var list: ListedInputs?
    /// `--progress` (true), `--no-progress` (false), or neither (nil: the terminal decides).
    var progress: Bool?

    /// "3 files left out by --include", or nil when none was (the list's directories counted
    /// as far as it was read).
    var leftOutNote: String? {
        let count = leftOut + (list?.leftOut ?? 0)
        return count == 0 ? nil : "\(Counted.files(count)) left out by --include"
    }

    /// Adds what one input gave.
    mutating func add(_ expanded: ExpandedInput) {
        items += expanded.items
        failures += expanded.failures
        leftOut += expanded.leftOut
    }
}

/// One thing a batch takes, in input order: a file to work on, or an input that could not be
/// expanded, reported in its place and counted as the command counts such failures.
enum BatchItem: Sendable {
    case file(BatchInput)
    case failure(CLIFailure)
}

/// What one input names: itself when it is no directory; a directory's files and the entries
/// of it that could not be walked.
struct ExpandedInput {
    var items: [BatchInput] = []
    var failures: [CLIFailure] = []
    var leftOut = 0
}
