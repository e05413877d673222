import AASA

extension LineReader {
    /// Opens `path` (`-` for standard input) as every command does: a file that cannot be read
    /// is a ``CLIFailure`` that names it (status 2).
    static func opening(_ path: String, maximumLineLength: Int, what: String = "URL list") throws(CLIFailure)
        -> LineReader
    {
        do {
            return try LineReader(path: path, maximumLineLength: maximumLineLength, what: what)
        } catch {
            throw CLIFailure(path, error)
        }
    }
}
