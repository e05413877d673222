import Foundation
import Testing

/// The root command: version, help, and argument-parser's usage errors.
@Suite("aasa (root)")
struct RootCommandTests {
    @Test("--version prints the version and exits 0")
    func version() {
        let result = CLI.run(["--version"])
        #expect(result.status == 0, "\(result)")
        let version = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.split(separator: ".").count == 3, "not a semantic version: \(version)")
        #expect(version.allSatisfy { $0.isNumber || $0 == "." })
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

    @Test("--help and help SUBCOMMAND exit 0", arguments: [["--help"], ["help", "sign"], ["sign", "--help"], ["verify", "-h"]])
    func help(args: [String]) {
        let result = CLI.run(args)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.contains("USAGE:"), "\(result)")
    }

    @Test("an unknown subcommand or flag is a usage error (64) with a usage line on stderr", arguments: [["bogus"], ["--bogus"], ["verify", "--bogus", "x"]])
    func usageErrors(args: [String]) {
        let result = CLI.run(args)
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("Usage:"), "\(result)")
    }
}
