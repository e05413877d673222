import Foundation

/// What the CLI asks of the terminal it may be writing to.
enum Terminal {
    /// Whether `descriptor` is a terminal that can draw more than plain text (redraw a line,
    /// show colour): a terminal, with a `TERM` that is set and not `dumb` (Emacs' shell, some
    /// CI log viewers).
    static func isCapable(_ descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Bool
    {
        guard isatty(descriptor) == 1, let term = environment["TERM"] else { return false }
        return !term.isEmpty && term != "dumb"
    }
}
