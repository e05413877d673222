/// The inputs a `--files-from` list names, taken one at a time as the batch's workers need
/// them: each name as if it were given on the command line (a directory expanded the same
/// way, with `--include` and `--no-recurse`), each entry the list refuses (``FileList``) as a
/// ``BatchItem/failure(_:)`` in its place. Only the directory being expanded is held whole,
/// as it is for a directory on the command line; the list itself never is.
final class ListedInputs {
    private let list: FileList
    private let options: BatchOptions
    private let what: String
    private let emptyIsFailure: Bool
    /// What the directory last named still gives.
    private var pending: ArraySlice<BatchItem> = []
    private var ended = false
    /// Files of the list's directories that `--include` left out, so far.
    private(set) var leftOut = 0

    init(_ list: FileList, options: BatchOptions, what: String, emptyIsFailure: Bool) {
        self.list = list
        self.options = options
        self.what = what
        self.emptyIsFailure = emptyIsFailure
    }

    /// The next file or failure, or nil when the list is done.
    func next() -> BatchItem? {
        while true {
            if let item = pending.popFirst() { return item }
            guard !ended else { return nil }
            guard let entry = list.next() else {
                ended = true
                // An empty list is what an empty directory is: nothing to work on, said so.
                guard list.count == 0 && emptyIsFailure else { return nil }
                return .failure(CLIFailure(list.path, "no file names in this list: nothing to \(what)"))
            }
            switch entry {
            case .failure(let failure):
                return .failure(failure)
            case .name(let name):
                let expanded = options.expanding(name, what: what, emptyIsFailure: emptyIsFailure)
                leftOut += expanded.leftOut
                pending = (expanded.failures.map(BatchItem.failure) + expanded.items.map(BatchItem.file))[...]
            }
        }
    }

    /// Reads the rest of the list, for the commands that need every file before the first
    /// is written (``BatchOptions/expand(_:what:emptyIsFailure:streaming:)``).
    func drain(into expansion: inout BatchExpansion) {
        while let item = next() {
            switch item {
            case .file(let input): expansion.items.append(input)
            case .failure(let failure): expansion.failures.append(failure)
            }
        }
        expansion.leftOut += leftOut
        leftOut = 0
    }
}
