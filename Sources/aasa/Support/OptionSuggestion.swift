import AASA
import ArgumentParser
import Foundation

/// The usage error for an option a command does not have, with the option the user most
/// likely meant.
///
/// argument-parser suggests the option nearest in spelling, which is often wrong for the words
/// users bring along: `--ca` got "Did you mean '--at'?", `--frob` "'--jobs'". And it parses a
/// command's positional arguments and runs `validate()` before it looks at unknown options,
/// so `audit -j 4 example.com` said "'4' is not a domain". Here the command line is read once
/// more on the error path only (nothing of this runs for a command that parses): the first
/// option the command does not know is the error, and the hint is, in order, what the option
/// means in this command (``aliases``: openssl's `-CAfile`, `-j` of the batch commands for
/// `audit`'s `--concurrency`), the options it is the start of (`--ca`: `--ca-file`,
/// `--ca-dir`), or the one it is a typing slip of (``Suggestion``).
enum OptionSuggestion {
    /// An option of `aasa` or of a tool users know, and the options that do its job in `aasa`,
    /// in the order offered: only those the command has are offered.
    static let aliases: [String: [String]] = [
        "--ca": ["--ca-file", "--ca-dir"], "-j": ["--jobs", "--concurrency"], "--jobs": ["--concurrency"],
        "--parallel": ["--jobs", "--concurrency"],
        "-CAfile": ["--ca-file"], "--CAfile": ["--ca-file"], "--cafile": ["--ca-file"], "--cacert": ["--ca-file"],
        "-CApath": ["--ca-dir"], "--CApath": ["--ca-dir"], "--capath": ["--ca-dir"],
        "-certfile": ["--chain", "--intermediates"], "--certfile": ["--chain", "--intermediates"],
        "-inkey": ["--key"], "--inkey": ["--key"], "-signer": ["--cert"], "--signer": ["--cert"],
        "-noverify": ["--no-verify"], "--noverify": ["--no-verify"], "-attime": ["--at"], "--attime": ["--at"],
        "--json": ["--format"], "--output-format": ["--format"], "-o": ["--output", "--out-dir"],
        "--out": ["--output", "--out-dir"], "--output": ["--out-dir"], "--no-color": ["--color"],
        "--colour": ["--color"], "--silent": ["--quiet"],
    ]

    /// The options of a command, read from its help: each name, and whether it takes a value.
    struct Options {
        var takesValue: [String: Bool] = [:]

        init(_ command: any ParsableCommand.Type) {
            let help = command.helpMessage(includeHidden: true, columns: 10_000)
            for line in help.split(separator: "\n") where line.hasPrefix("  -") {
                // "  -q, --quiet   Print…", "  --ca-file <pem>   Trust…", "  --progress/--no-progress".
                let label = line.drop(while: { $0 == " " })
                let head = label.range(of: "  ").map { label[..<$0.lowerBound] } ?? label
                let words = head.split(separator: " ", omittingEmptySubsequences: true)
                var names: [String] = []
                var value = false
                for word in words {
                    let word = word.hasSuffix(",") ? word.dropLast() : word
                    if word.hasPrefix("-") {
                        names += word.split(separator: "/").map(String.init)
                    } else if word.hasPrefix("<") {
                        value = true
                        break
                    } else {
                        break
                    }
                }
                for name in names { takesValue[name] = value }
            }
            takesValue["--help"] = false
            takesValue["-h"] = false
            takesValue["--version"] = false
        }

        var names: [String] { Array(takesValue.keys).sorted() }
    }

    /// The first option of `arguments` (before `--`) that `options` does not know, as typed.
    static func firstUnknown(in arguments: [String], _ options: Options) -> String? {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" { return nil }
            guard argument.hasPrefix("-"), argument != "-" else { continue }
            if argument.hasPrefix("--") {
                let name = String(argument.prefix { $0 != "=" })
                guard let value = options.takesValue[name] else { return name }
                if value && !argument.contains("=") { index += 1 }
            } else if let value = options.takesValue[argument] {
                if value { index += 1 }
            } else {
                // A cluster of short flags ("-qv"), or a short option with its value ("-j4").
                let first = "-" + String(argument.dropFirst().prefix(1))
                guard let value = options.takesValue[first] else { return argument }
                if !value {
                    for flag in argument.dropFirst(2) where options.takesValue["-\(flag)"] != false {
                        return argument
                    }
                }
            }
        }
        return nil
    }

    /// The options offered for `option`, among the command's `names`.
    static func candidates(for option: String, among names: [String]) -> [String] {
        if let meant = aliases[option]?.filter(names.contains), !meant.isEmpty { return meant }
        let typed = option.drop(while: { $0 == "-" })
        if typed.count >= 2 {
            let started = names.filter { $0.hasPrefix("--" + typed) }
            if !started.isEmpty && started.count <= 3 { return started }
        }
        let longNames = names.filter { $0.hasPrefix("--") }
        return Suggestion.closest(to: "--" + typed, among: longNames).map { [$0] } ?? []
    }

    /// "Unknown option '--ca'. Did you mean '--ca-file' or '--ca-dir'?"
    static func message(for option: String, among names: [String]) -> String {
        let offered = candidates(for: option, among: names).map { "'\($0)'" }
        guard let last = offered.last else { return "Unknown option '\(option)'." }
        let list = offered.count == 1 ? last : offered.dropLast().joined(separator: ", ") + " or " + last
        return "Unknown option '\(option)'. Did you mean \(list)?"
    }

    /// The usage error for the first option of `arguments` that `command` does not have, or nil
    /// when it has them all.
    static func unknownOptionMessage(_ arguments: [String], command: any ParsableCommand.Type) -> String? {
        let options = Options(command)
        guard let unknown = firstUnknown(in: arguments, options) else { return nil }
        return message(for: unknown, among: options.names)
    }
}
