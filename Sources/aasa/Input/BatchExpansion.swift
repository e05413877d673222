/// What a batch's inputs name: the files to take, the inputs that could not be expanded (a
/// directory that cannot be read, an entry of it that cannot be walked), and how many files
/// of the directories `--include` left out, so that the summary can say so.
struct BatchExpansion {
    var items: [BatchInput] = []
    var failures: [CLIFailure] = []
    /// Regular files in the directories whose names `--include` did not match.
    var leftOut = 0

    /// "3 files left out by --include", or nil when none was.
    var leftOutNote: String? { leftOut == 0 ? nil : "\(BatchTally.files(leftOut)) left out by --include" }
}
