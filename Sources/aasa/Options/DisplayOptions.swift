import ArgumentParser
import Foundation

/// The flags of every command that shape what a person reads: colour and `--quiet`.
struct DisplayOptions: ParsableArguments {
    @Option(
        name: .customLong("color"),
        help: ArgumentHelp(
            "Colour severities and verdicts: auto (on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it), always or never.",
            valueName: "when"))
    var color: TerminalColor.Mode = .auto

    @Flag(
        name: [.short, .customLong("quiet")],
        help:
            "Print only problems and the summary: nothing for a file that passes, no notes (machine formats are complete either way)."
    )
    var quiet = false

    /// Applies these options to the whole process (``Display``).
    func activate() {
        TerminalColor.configure(color)
        Display.quiet = quiet
    }
}
