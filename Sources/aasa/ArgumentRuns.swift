import ArgumentParser

/// A command whose one positional argument is a list of files (the batch commands), so that
/// ``ArgumentRuns`` can hand it thousands of names without argument-parser's quadratic cost.
protocol ManyInputsCommand: AASASubcommand {
    /// The command's `@Argument` array of files.
    var inputNames: [String] { get set }
}

extension ManyInputsCommand {
    static func parsedDirectly(_ arguments: [String]) -> Self? {
        ArgumentRuns.parse(Self.self, arguments)
    }
}

/// Parses a batch command's arguments with each run of plain file names collapsed into one
/// placeholder, then puts the names back: `aasa verify *.p7m` with 10,000 names parses in
/// milliseconds instead of seconds.
///
/// Why this is written by hand: argument-parser (1.8.2) spends time quadratic in the number
/// of positional values, whatever `ArgumentArrayParsingStrategy` the `@Argument` uses. Each
/// value goes through `ParsedValues.update`, which copies the array and merges the set of
/// every input origin seen so far (`InputOrigin.formUnion`), and once decoded
/// `CommandParser.parseCurrent` removes each used origin from the split arguments one by one
/// with a linear scan (`SplitArguments.removeAll(in:)`). With 4,000 names the release build
/// took 1.0-1.9 s to parse with each of `.default` (scanning), `.remaining`,
/// `.allUnrecognized`, `.postTerminator` and `.captureForPassthrough` alike, four times the
/// time of 2,000 (docs/performance.md, "Many file names").
///
/// What argument-parser sees is the same command line with fewer positional values, so every
/// option, flag, `--`, help request and error is still its own: a plain name (not starting
/// with "-", or "-" itself) is collapsed only when the token before it is not an option, so
/// that it cannot be that option's value; everything after `--` is collapsed. The
/// placeholders hold a NUL byte, which no argument can (argv is C strings). When the parse
/// fails, when the placeholders do not come back each once and in order in the command's
/// files (an option took one as its value), or when the command's `validate()` refuses the
/// real names, this gives nil and the caller parses the whole command line as before, so
/// that every message is argument-parser's own.
enum ArgumentRuns {
    /// The command line with the runs replaced by placeholders, and the runs.
    struct Collapsed {
        var arguments: [String] = []
        var runs: [[String]] = []
    }

    static func collapse(_ arguments: [String]) -> Collapsed {
        var collapsed = Collapsed()
        var run: [String] = []
        func endRun() {
            guard !run.isEmpty else { return }
            collapsed.arguments.append(placeholder(collapsed.runs.count))
            collapsed.runs.append(run)
            run = []
        }
        var afterOption = false
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                endRun()
                collapsed.arguments.append(argument)
                run = Array(arguments[index...])
                endRun()
                break
            }
            let isOption = argument.hasPrefix("-") && argument != "-"
            if isOption || afterOption {
                endRun()
                collapsed.arguments.append(argument)
            } else {
                run.append(argument)
            }
            afterOption = isOption
        }
        endRun()
        return collapsed
    }

    /// `parsed` (the command's files as argument-parser gave them) with each placeholder
    /// replaced by its run; nil unless every placeholder is there once, in order.
    static func expand(_ parsed: [String], runs: [[String]]) -> [String]? {
        var names: [String] = []
        names.reserveCapacity(parsed.count + runs.reduce(0) { $0 + $1.count })
        var next = 0
        for name in parsed {
            guard name.hasPrefix("\0") else {
                names.append(name)
                continue
            }
            guard next < runs.count, name == placeholder(next) else { return nil }
            names += runs[next]
            next += 1
        }
        return next == runs.count ? names : nil
    }

    /// `Command`'s arguments parsed as described above; nil when the caller must parse them
    /// whole.
    static func parse<Command: ManyInputsCommand>(_ type: Command.Type, _ arguments: [String]) -> Command? {
        let collapsed = collapse(arguments)
        guard let parsed = try? Command.parseAsRoot(collapsed.arguments), var command = parsed as? Command,
            let names = expand(command.inputNames, runs: collapsed.runs)
        else { return nil }
        command.inputNames = names
        // Checked again with the real names: argument-parser checked the placeholders.
        guard (try? command.validate()) != nil else { return nil }
        return command
    }

    private static func placeholder(_ index: Int) -> String { "\0run \(index)" }
}

/// A batch command whose files are its `files` argument (the others name theirs `inputs`).
protocol FilesArgumentCommand: ManyInputsCommand {
    var files: [String] { get set }
}

extension FilesArgumentCommand {
    var inputNames: [String] {
        get { files }
        set { files = newValue }
    }
}

extension AASACommand.Verify: FilesArgumentCommand {}
extension AASACommand.Lint: FilesArgumentCommand {}
extension AASACommand.Detect: FilesArgumentCommand {}
extension AASACommand.Extract: FilesArgumentCommand {}

extension AASACommand.Sign: ManyInputsCommand {
    var inputNames: [String] {
        get { inputs }
        set { inputs = newValue }
    }
}

extension AASACommand.Convert: ManyInputsCommand {
    var inputNames: [String] {
        get { inputs }
        set { inputs = newValue }
    }
}
