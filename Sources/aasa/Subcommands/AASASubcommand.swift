import ArgumentParser

/// A subcommand of `aasa`: what `AASACommand.main` needs of it to parse and run it directly,
/// known at compile time.
///
/// Why a protocol of our own rather than casts: each first dynamic cast (`as? any P`) or key
/// path of a process scans every protocol conformance of the binary, and a single-file command
/// pays for each one in its start-up (docs/performance.md, "Start-up").
protocol AASASubcommand: ParsableCommand {
    /// The word that names the subcommand (its configuration's `commandName`).
    static var name: String { get }

    /// Colour and `--quiet`, applied before the command runs.
    var display: DisplayOptions { get }

    /// The command parsed from `arguments` (the words after its name) with the command as
    /// argument-parser's root; nil when that parse does not give the command itself (an error,
    /// `--help`, `--version`), which the caller then sends through the whole tree.
    static func parsedDirectly(_ arguments: [String]) -> Self?
}

extension AASASubcommand {
    static func parsedDirectly(_ arguments: [String]) -> Self? {
        try? parseAsRoot(arguments) as? Self
    }
}

extension Display {
    /// Activates `command`'s display options, when it is one of `aasa`'s subcommands (the
    /// whole tree's parse gives the command as `any ParsableCommand`).
    static func activate(for command: any ParsableCommand) {
        (command as? any AASASubcommand)?.display.activate()
    }
}
