/// A directory or file of the tree a batch works on that is not what it was when the batch
/// found it, or a directory of an output tree that is a symbolic link (issue #24): another
/// user replaced a directory by a link, moved it, or put a FIFO where a file was. Nothing is
/// read through it or written into it; the file it concerns is reported as one error line
/// (exit status 2) and the batch goes on.
struct TreeChange: Error {
    /// The directory or file that changed.
    var path: String
    /// What it is now, after its path: "is a symbolic link now: …", "was removed", …
    var change: String

    /// What a symbolic link where a directory or file was found is.
    static let symbolicLink = "is a symbolic link now: aasa does not follow links inside the tree it works on"

    /// The failure of the file at `file`, which was not read or written (`outcome`: "not read",
    /// "not written") because of this change:
    /// `site/d/x.json: error: not written: site/d is a symbolic link now: …`.
    func failure(for file: String, _ outcome: String) -> CLIFailure {
        CLIFailure(file, "\(outcome): \(path) \(change)")
    }
}
