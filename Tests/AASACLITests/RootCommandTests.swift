import AASATestSupport
import Foundation
import Testing

/// The root command: version, help, and argument-parser's usage errors.
@Suite("aasa (root)")
struct RootCommandTests {
    @Test("--version: the tool's semantic version, then the OpenSSL it runs with and was built against")
    func version() throws {
        let result = CLI.run(["--version"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(result)")
        #expect(lines[0].hasPrefix("aasa "), "\(lines[0])")
        let version = lines[0].dropFirst("aasa ".count)
        #expect(version.split(separator: ".").count == 3, "not a semantic version: \(version)")
        #expect(version.allSatisfy { $0.isNumber || $0 == "." })
        // The second line names both OpenSSL versions; the run-time one is the library the
        // system's `openssl` CLI reports (both come from Debian's libssl3 / libssl-dev).
        #expect(lines[1].hasPrefix("OpenSSL 3."), "\(lines[1])")
        #expect(lines[1].contains(" (running), built against OpenSSL 3."), "\(lines[1])")
        let openssl = CLI.openssl(["version"])
        let library = try #require(openssl.stdoutText.range(of: "(Library: OpenSSL ")).upperBound
        let number = openssl.stdoutText[library...].prefix { $0 != " " }
        #expect(lines[1].hasPrefix("OpenSSL \(number) "), "runtime \(lines[1]) vs openssl's library \(number)")
    }

    @Test("the version on --version is the newest release in CHANGELOG.md")
    func versionMatchesChangelog() throws {
        let result = CLI.run(["--version"])
        let first = try #require(result.stdoutText.split(separator: "\n").first)
        let changelog = try String(contentsOf: Repository.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let released = try #require(
            changelog.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") })
        #expect(released.hasPrefix("## [\(first.dropFirst("aasa ".count))]"), "\(released) vs \(first)")
    }

    /// A root with subcommands and no `run()` prints its help for no arguments: argument-parser's
    /// default `run()` throws `CleanExit.helpRequest`, which exits 0 with the help on stdout.
    @Test("no arguments prints the help (argument-parser's CleanExit.helpRequest, exit 0)")
    func noArguments() {
        let result = CLI.run([])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.contains("USAGE: aasa <subcommand>"), "\(result)")
        for name in ["verify", "extract", "detect", "inspect", "sign"] {
            #expect(result.stdoutText.contains("  \(name) "), "help should list \(name)")
        }
    }

    @Test(
        "--help and help SUBCOMMAND exit 0",
        arguments: [["--help"], ["help", "sign"], ["sign", "--help"], ["verify", "-h"]])
    func help(args: [String]) {
        let result = CLI.run(args)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.contains("USAGE:"), "\(result)")
    }

    @Test(
        "an unknown subcommand or flag is a usage error (64) with a usage line on stderr",
        arguments: [["bogus"], ["--bogus"], ["verify", "--bogus", "x"]])
    func usageErrors(args: [String]) {
        let result = CLI.run(args)
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("Usage:"), "\(result)")
    }

    /// argument-parser's usage lines after its first line, for a root usage error.
    static let rootUsage = "Usage: aasa <subcommand>\n  See 'aasa --help' for more information.\n"

    @Test(
        "a mistyped subcommand: usage error 64 with a 'Did you mean' hint, as argument-parser gives for options",
        arguments: [
            (["chek"], "chek", "check"), (["verfy", "signed.p7m"], "verfy", "verify"), (["chcek"], "chcek", "check"),
            (["lnit", "a.json", "--strict"], "lnit", "lint"), (["Inspect"], "Inspect", "inspect"),
            (["migrat"], "migrat", "migrate"),
        ])
    func mistypedSubcommand(args: [String], typed: String, meant: String) {
        let result = CLI.run(args)
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(
            result.stderr == "Error: Unknown subcommand '\(typed)'. Did you mean '\(meant)'?\n" + Self.rootUsage,
            "\(result)")
    }

    @Test(
        "a word close to no subcommand keeps argument-parser's message, without a hint",
        arguments: ["bogus", "ls", "x"])
    func unknownWordWithoutHint(word: String) {
        let result = CLI.run([word])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr == "Error: Unexpected argument '\(word)'\n" + Self.rootUsage, "\(result)")
    }

    @Test(
        "'help WORD' for a WORD that names no subcommand is the same usage error, not the root's help",
        arguments: [
            ("chek", "Error: Unknown subcommand 'chek'. Did you mean 'check'?\n"),
            ("bogus", "Error: Unknown subcommand 'bogus'.\n"),
            ("x\u{1B}[2J", "Error: Unknown subcommand 'x\\u{1B}[2J'.\n"),
        ])
    func helpForAnUnknownSubcommand(word: String, firstLine: String) {
        let result = CLI.run(["help", word])
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == firstLine + Self.rootUsage, "\(result)")
        // A subcommand's help, and the root's, still print and exit 0.
        #expect(CLI.run(["help", "check"]).status == 0)
        #expect(CLI.run(["help"]).status == 0)
    }

    @Test("the mistyped word is escaped for the terminal in the hint")
    func mistypedSubcommandEscaped() {
        let result = CLI.run(["verfy\u{1B}"])
        #expect(result.status == 64, "\(result)")
        #expect(!result.stderr.contains("\u{1B}"), "a raw escape on stderr: \(result)")
        #expect(
            result.stderr.hasPrefix("Error: Unknown subcommand 'verfy\\u{1B}'. Did you mean 'verify'?\n"), "\(result)")
    }

    /// The thirteen subcommands, in the order the help lists them.
    static let subcommands = [
        "check", "lint", "match", "verify", "extract", "detect", "inspect", "sign", "audit", "convert", "migrate",
        "diff", "rules",
    ]

    /// `aasa SUBCOMMAND …` is first parsed with the subcommand as argument-parser's root
    /// (`AASACommand.parsedDirectly`); whatever that parse does not accept must reach the whole
    /// tree and give exactly what the root gives.
    @Test("SUBCOMMAND --help prints exactly what 'help SUBCOMMAND' prints, for every subcommand")
    func subcommandHelpIsTheRoots() throws {
        let listed = CLI.run(["--help"]).stdoutText
        try #require(Self.subcommands.count == 13)
        for name in Self.subcommands {
            #expect(listed.contains("  \(name) "), "the help lists no \(name)")
            let direct = CLI.run([name, "--help"])
            let viaHelp = CLI.run(["help", name])
            #expect(direct.status == 0 && viaHelp.status == 0, "\(direct)\n\(viaHelp)")
            #expect(direct.stdoutText.contains("USAGE: aasa \(name) "), "\(direct)")
            #expect(direct.stdoutText == viaHelp.stdoutText, "\(name) --help differs from help \(name)")
        }
    }

    @Test("a completion-script request after a subcommand gets the root's script, as before")
    func completionRequestAfterSubcommand() {
        let root = CLI.run(["--generate-completion-script", "bash"])
        #expect(root.status == 0, "\(root)")
        #expect(root.stdoutText.contains("_aasa()"), "\(root)")
        for name in ["verify", "lint"] {
            let after = CLI.run([name, "--generate-completion-script", "bash"])
            #expect(after.status == 0, "\(after)")
            #expect(after.stdoutText == root.stdoutText, "\(name) --generate-completion-script bash is not the root's")
        }
    }

    @Test("--version after a subcommand prints the root's version, as argument-parser's root parse does")
    func versionAfterSubcommand() {
        let root = CLI.run(["--version"])
        let after = CLI.run(["verify", "x.p7m", "--version"])
        #expect(after.status == 0, "\(after)")
        #expect(after.stdoutText == root.stdoutText && after.stdoutText.hasPrefix("aasa "), "\(after)")
    }

    @Test(
        "an unknown option is the error, with what it means here: --ca, openssl's -CAfile, audit -j (not \"'4' is not a domain\")",
        arguments: [
            (["verify", "--ca", "x.pem", "f.p7m"], "Unknown option '--ca'. Did you mean '--ca-file' or '--ca-dir'?"),
            (["verify", "-CAfile", "x.pem", "f.p7m"], "Unknown option '-CAfile'. Did you mean '--ca-file'?"),
            (["audit", "-j", "4", "example.com"], "Unknown option '-j'. Did you mean '--concurrency'?"),
            (
                ["audit", "summarize", "--frmat", "json", "r.jsonl"],
                "Unknown option '--frmat'. Did you mean '--format'?"
            ),
            (["check", "--colour", "always", "f"], "Unknown option '--colour'. Did you mean '--color'?"),
            (["verify", "--frob", "f"], "Unknown option '--frob'."),
            (["verify", "-j", "4", "--no-such", "f"], "Unknown option '--no-such'."),
        ])
    func unknownOptionHints(arguments: [String], message: String) {
        let result = CLI.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("Error: \(message)\n"), "\(result)")
        #expect(result.stderr.contains("Usage: aasa \(arguments[0])"), "\(result)")
    }

    @Test("options that exist, values that start with '-' and short clusters are no unknown option")
    func knownOptionsAreNotRefused() {
        // -q and -j cluster; '-' is standard input; the error is the missing file, not an option.
        let result = CLI.run(["verify", "-qj", "2", "--files-from", "-", "no-such.p7m"], stdin: Data())
        #expect(result.status == 2, "\(result)")
        #expect(!result.stderr.contains("Unknown option"), "\(result)")
    }
}
