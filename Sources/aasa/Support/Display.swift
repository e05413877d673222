/// What the display options (`--quiet`; colour is ``TerminalColor``'s) set for this process.
enum Display {
    /// `--quiet`: written once before the command runs, on the main thread; read after.
    nonisolated(unsafe) static var quiet = false
}
