import AASA
import ArgumentParser
import Foundation

/// The `aasa` command: a root with subcommands only. It stays a synchronous
/// `ParsableCommand` (valgrind 3.19 cannot run an async root).
///
/// Every subcommand spells out its `commandName`: argument-parser would otherwise derive each
/// name from the type with `String(describing:)`, a runtime conformance scan per subcommand
/// on every start (docs/performance.md). Each also names this command as its
/// `_superCommandName`, which ``parsedDirectly(_:)`` relies on.
@main
struct AASACommand: ParsableCommand {
    /// The tool's name, in usage lines and as every subcommand's super-command.
    static let name = "aasa"

    /// The subcommands, in the order the help lists them.
    static let subcommandTypes: [any AASASubcommand.Type] = [
        Check.self, Lint.self, Match.self, Verify.self, Extract.self, Detect.self, Inspect.self, Sign.self,
        Audit.self, Convert.self, Migrate.self, Diff.self, Rules.self,
    ]

    static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "Check, lint, match, sign, verify and extract apple-app-site-association files, signed or plain.",
        discussion: """
            Exit status: 0 success or valid; 1 the check failed (invalid, untrusted, refused); \
            2 an input could not be read or is not what the command needs; 64 usage error. \
            See \(InstalledDocs.page("exit-codes.md")).
            """,
        version: AASAVersion.current,
        subcommands: subcommandTypes.map { $0 as any ParsableCommand.Type }
    )

    /// Raises the open-file limit to its hard limit first (``DescriptorLimit``), refuses an
    /// argument that is not UTF-8, then runs as argument-parser's `main` does: the
    /// subcommand parsed directly when that succeeds, else the whole tree.
    static func main() {
        DescriptorLimit.raiseToHardLimit()
        refuseArgumentsNotInUTF8()
        if let (nested, rest) = nestedSubcommand(CommandLine.arguments.dropFirst()) {
            runNested(nested, rest)
        }
        if var command = parsedDirectly(CommandLine.arguments.dropFirst()) {
            command.display.activate()
            do { try command.run() } catch { UsageErrors.exit(error, command: self) }
            return
        }
        refuseMistypedSubcommand()
        // argument-parser's `main(nil)`, with its messages printed escaped (``UsageErrors``).
        do {
            var command = try parseAsRoot(nil)
            Display.activate(for: command)
            try command.run()
        } catch {
            if exitCode(for: error) == ExitStatus.usage { refuseUnknownOption() }
            UsageErrors.exit(error, command: self)
        }
    }

    /// `aasa SUBCOMMAND ARGS…` parsed with the subcommand as the root, or `nil` when that
    /// parse does not give the subcommand itself (an error, `--help`, `--version`, anything
    /// but a successful parse), which then goes through the whole tree as before, so that its
    /// messages and help are argument-parser's own.
    ///
    /// Why: argument-parser's `parseAsRoot` on the root reflects the root's arguments, then
    /// the subcommand's once to see whether it takes all remaining input and once more to
    /// parse them, and first parses the arguments twice more looking for
    /// `--generate-completion-script`. That was 43 % of a single-file `aasa verify`
    /// (docs/performance.md). The subcommand's `_superCommandName` (argument-parser's own
    /// setting for commands installed under a common name) makes it skip that probe; a
    /// request for completions then fails this parse and reaches the root, which answers it.
    ///
    /// A batch command's runs of file names are collapsed first (``ArgumentRuns``): its
    /// parse would otherwise cost time quadratic in their number.
    static func parsedDirectly(_ arguments: ArraySlice<String>) -> (any AASASubcommand)? {
        guard let word = arguments.first, let subcommand = subcommandTypes.first(where: { $0.name == word }) else {
            return nil
        }
        return subcommand.parsedDirectly(Array(arguments.dropFirst()))
    }

    /// `aasa SUBCOMMAND NESTED ARGS…` (`aasa audit summarize FILE`): the nested subcommand and its
    /// arguments, when the word right after the subcommand names one of its own subcommands.
    ///
    /// Why: argument-parser parses a command's own positional arguments before it looks for a
    /// subcommand, so `audit`'s domains would take "summarize" as a domain. The nested command is
    /// therefore recognised here, by its place; `aasa audit -- summarize` audits a domain of that name.
    static func nestedSubcommand(_ arguments: ArraySlice<String>) -> (any ParsableCommand.Type, [String])? {
        guard let word = arguments.first, let next = arguments.dropFirst().first,
            let subcommand = subcommandTypes.first(where: { $0.name == word }),
            let nested = subcommand.configuration.subcommands.first(where: { $0.configuration.commandName == next })
        else { return nil }
        return (nested, Array(arguments.dropFirst(2)))
    }

    /// Parses and runs a nested subcommand with it as the root (parsed once), and answers help,
    /// `--version` and errors as argument-parser's `main` answers them, with the hint naming the
    /// whole command ("See 'aasa audit summarize --help'", not "See 'summarize --help'").
    private static func runNested(_ nested: any ParsableCommand.Type, _ arguments: [String]) -> Never {
        do {
            var command = try nested.parseAsRoot(arguments)
            Display.activate(for: command)
            try command.run()
            Foundation.exit(0)
        } catch {
            if nested.exitCode(for: error) == ExitStatus.usage {
                refuseUnknownOption(arguments, of: nested)
            }
            let name = nested.configuration.commandName ?? ""
            let superName = nested.configuration._superCommandName ?? name
            let message = UsageErrors.text(for: error, command: nested).replacingOccurrences(
                of: "  See '\(name) ", with: "  See '\(superName) \(name) ")
            let status = nested.exitCode(for: error)
            if !message.isEmpty {
                if status == .success {
                    StandardStreams.out(Data((message + "\n").utf8))
                } else {
                    StandardStreams.err(message + "\n")
                }
            }
            Foundation.exit(status.rawValue)
        }
    }

    /// A usage error on a command line that holds an option its subcommand does not have: that
    /// option is the error, with the right hint (``OptionSuggestion``), whatever argument-parser
    /// found first. Returns when there is no such option.
    private static func refuseUnknownOption() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let word = arguments.first,
            let subcommand = subcommandTypes.first(where: { $0.name == word })
        else { return }
        refuseUnknownOption(Array(arguments.dropFirst()), of: subcommand)
    }

    private static func refuseUnknownOption(_ arguments: [String], of command: any ParsableCommand.Type) {
        guard let message = OptionSuggestion.unknownOptionMessage(arguments, command: command) else { return }
        StandardStreams.err(UsageErrors.text(for: ValidationError(message), command: command) + "\n")
        Foundation.exit(ExitStatus.usage.rawValue)
    }

    /// `aasa chek`: argument-parser would say only "Unexpected argument 'chek'". A first
    /// argument that is no subcommand but close to one is the same usage error (64, the same
    /// usage lines) with a hint: "Unknown subcommand 'chek'. Did you mean 'check'?"
    /// (``SubcommandSuggestion``). `aasa help WORD` with a WORD that names no subcommand
    /// (argument-parser would print the root's help and exit 0) is the same usage error, with
    /// the hint when there is one. Anything else is left to argument-parser.
    private static func refuseMistypedSubcommand() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let first = arguments.first, !first.hasPrefix("-") else { return }
        let names = subcommandTypes.map { $0.name }
        let message: String
        if first == "help" {
            guard let word = arguments.dropFirst().first, !word.hasPrefix("-"), !names.contains(word) else { return }
            message =
                SubcommandSuggestion.message(for: word, among: names)
                ?? "Unknown subcommand '\(word)'."
        } else {
            guard let hinted = SubcommandSuggestion.message(for: first, among: names) else { return }
            message = hinted
        }
        StandardStreams.err(UsageErrors.text(for: ValidationError(message), command: self) + "\n")
        Foundation.exit(ExitStatus.usage.rawValue)
    }

    /// Swift reads each argument as UTF-8, replacing what is not with U+FFFD: a file name in
    /// another encoding would then name no file and be reported as missing. Such an argument
    /// is one clear line and exit 2 instead (issue #15).
    private static func refuseArgumentsNotInUTF8() {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index], String(validatingCString: argument) == nil else {
                continue
            }
            Diagnostics.emit(
                String(cString: argument), .error,
                "this argument is not valid UTF-8 (shown with U+FFFD for the bytes that are not): aasa reads file names as UTF-8; rename the file"
            )
            Foundation.exit(ExitStatus.badInput.rawValue)
        }
    }
}
