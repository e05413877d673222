import AASATestSupport
import Foundation
import Testing

/// `--color`, `NO_COLOR`, `CLICOLOR_FORCE` and `-q/--quiet` (issue #27): colour only where a
/// person reads it, and a quiet run that prints the problems and the summary.
@Suite("Colour and --quiet")
struct DisplayOptionsTests {
    static let escape = "\u{1B}"
    static let red = "\u{1B}[31m"
    static let reset = "\u{1B}[0m"
    /// No colour asked for by the test's own environment.
    static let plain = ["NO_COLOR": "", "CLICOLOR_FORCE": ""]
    static let untrusted = CLI.realSigned("Handbid_Handbid-WordPress_aasa-smime-format.p7m")

    @Test(
        "in a pipe: no colour; CLICOLOR_FORCE or --color always colour it; NO_COLOR beats CLICOLOR_FORCE; the flag beats both"
    )
    func colourInAPipe() {
        let verify = ["verify", Self.untrusted]
        func run(_ extra: [String], _ environment: [String: String]) -> CLI.Result {
            CLI.run(verify + extra, environment: Self.plain.merging(environment) { $1 })
        }
        let piped = run([], [:])
        #expect(piped.status == 1, "\(piped)")
        #expect(piped.stdoutText.hasPrefix("\(Self.untrusted): untrusted\n"), "\(piped)")
        #expect(!piped.stderr.contains(Self.escape), "\(piped.stderr.debugDescription)")

        for (what, result) in [
            ("CLICOLOR_FORCE=1", run([], ["CLICOLOR_FORCE": "1"])),
            ("--color always", run(["--color", "always"], [:])),
            ("--color always, NO_COLOR=1", run(["--color", "always"], ["NO_COLOR": "1"])),
        ] {
            #expect(
                result.stdoutText.hasPrefix("\(Self.untrusted): \(Self.red)untrusted\(Self.reset)\n"),
                "\(what): \(result)")
            #expect(result.stderr.contains(": \u{1B}[1;31merror\(Self.reset): [untrusted]"), "\(what): \(result)")
        }
        for (what, result) in [
            ("NO_COLOR=1 with CLICOLOR_FORCE=1", run([], ["NO_COLOR": "1", "CLICOLOR_FORCE": "1"])),
            ("CLICOLOR_FORCE=0", run([], ["CLICOLOR_FORCE": "0"])),
            ("--color never with CLICOLOR_FORCE=1", run(["--color", "never"], ["CLICOLOR_FORCE": "1"])),
        ] {
            #expect(result.status == 1, "\(what): \(result)")
            #expect(!(result.stdoutText + result.stderr).contains(Self.escape), "\(what): \(result)")
        }
    }

    @Test("machine formats never carry colour, even with --color always")
    func machineFormatsStayPlain() {
        for format in ["json", "jsonl", "sarif", "junit", "gitlab", "markdown"] {
            let result = CLI.run(
                ["verify", Self.untrusted, "--format", format, "--color", "always"], environment: Self.plain)
            #expect(result.status == 1, "\(format): \(result)")
            #expect(!result.stdout.isEmpty && !result.stdoutText.contains(Self.escape), "\(format): \(result)")
        }
    }

    @Test("check's marks, lint's severities and check's verdict are coloured; the lines are otherwise the same")
    func whatIsColoured() {
        let check = CLI.run(["check", Self.untrusted, "--color", "always"], environment: Self.plain)
        let lines = check.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.contains(": \(Self.red)broken\(Self.reset): ") == true, "\(check)")
        #expect(lines.contains("  \(Self.red)[no]\(Self.reset)  Unsigned JSON: the file is PKCS#7 (pkcs7-smime)"))
        #expect(lines.contains("  \u{1B}[32m[ok]\(Self.reset)  At most 128 KB"), "\(check)")
        let uncoloured = CLI.run(["check", Self.untrusted], environment: Self.plain)
        #expect(Self.stripped(check.stdoutText) == uncoloured.stdoutText)

        let plain = CLI.realPlain("Handbid_Handbid-WordPress_aasa-unsigned.json")
        let lint = CLI.run(["lint", plain, "--color", "always"], environment: Self.plain)
        #expect(lint.stdoutText.contains(": \u{1B}[35mdeprecation\(Self.reset): [legacy-appid] "), "\(lint)")
    }

    @Test("a hostile file name's escape stays escaped: the only escape sequences are the colours")
    func hostileNameStaysEscaped() throws {
        try withTemporaryDirectory { dir in
            let name = dir.child("evil\u{1B}]0;owned\u{07}\u{1B}[2J.json")
            try Data("{\"applinks\": {\"details\": []}}".utf8).write(to: name)
            let result = CLI.run(["lint", name.path, "--color", "always"], environment: Self.plain)
            let output = result.stdoutText + result.stderr
            #expect(output.contains("warning"), "\(result)")
            // Every ESC left is one of ours: ESC [ digits/semicolons m.
            let sequences = output.components(separatedBy: Self.escape).dropFirst()
            #expect(!sequences.isEmpty)
            for sequence in sequences {
                let code = sequence.prefix { $0 != "m" }
                #expect(
                    sequence.hasPrefix("[") && code.dropFirst().allSatisfy { $0.isNumber || $0 == ";" },
                    "a foreign escape sequence: \(sequence.prefix(12).debugDescription)")
            }
        }
    }

    static let script = Executables.script

    @Test(
        "on a terminal: colour by default; none under NO_COLOR, TERM=dumb or --color never",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: DisplayOptionsTests.script.path), "needs util-linux script"
        ))
    func colourOnATerminal() {
        func onTerminal(_ options: String, _ environment: [String: String]) -> String {
            let command = "'\(CLI.executable.path)' verify '\(Self.untrusted)' \(options); true"
            return ProcessRunner.run(
                Self.script, ["-qefc", command, "/dev/null"], environment: Self.plain.merging(environment) { $1 }
            ).stdoutText
        }
        let terminal = onTerminal("", ["TERM": "xterm"])
        #expect(terminal.contains("\(Self.red)untrusted\(Self.reset)"), "\(terminal.debugDescription)")
        for (what, options, environment) in [
            ("NO_COLOR=1", "", ["TERM": "xterm", "NO_COLOR": "1"]), ("TERM=dumb", "", ["TERM": "dumb"]),
            ("--color never", "--color never", ["TERM": "xterm"]),
        ] {
            let output = onTerminal(options, environment)
            #expect(
                output.contains("untrusted") && !output.contains(Self.escape), "\(what): \(output.debugDescription)")
        }
    }

    @Test("--quiet: nothing for a file that passes, its problems for one that does not, the summary always")
    func quietBatch() throws {
        try withTemporaryDirectory { dir in
            let good = try Fixture.signedFile(in: dir, name: "good.p7m")
            var bytes = try Data(contentsOf: good)
            let content = try #require(bytes.firstRange(of: Data("ABCDE12345".utf8)))
            bytes[content.lowerBound] = UInt8(ascii: "X")
            let bad = dir.child("bad.p7m")
            try bytes.write(to: bad)
            try Data("not an AASA file".utf8).write(to: dir.child("notes.txt"))

            let quiet = CLI.run(["verify", good.path, bad.path, "-q"] + Fixture.testTrust)
            #expect(quiet.status == 1, "\(quiet)")
            #expect(quiet.stdoutText == "\(bad.path): tampered\n", "\(quiet)")
            #expect(quiet.stderr.contains("verify: 1 of 2 files valid"), "\(quiet)")
            let single = CLI.run(["verify", good.path, "--quiet"] + Fixture.testTrust)
            #expect(single.status == 0 && single.stdout.isEmpty && single.stderr.isEmpty, "\(single)")

            // JSON is complete either way (at one time, so that the two documents can be compared).
            let at = ["--at", "2026-01-01T00:00:00Z"]
            let json = CLI.run(["verify", good.path, bad.path, "-q", "--format", "json"] + at + Fixture.testTrust)
            let loud = CLI.run(["verify", good.path, bad.path, "--format", "json"] + at + Fixture.testTrust)
            #expect(json.stdout == loud.stdout && !json.stdout.isEmpty)

            // lint: only the findings that fail the gate, no notes; the summary still counts the skipped file.
            try Fixture.write(to: dir, as: "legacy.json")
            try Data(
                #"{"applinks": {"apps": ["X"], "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/*"}]}]}}"#
                    .utf8
            ).write(
                to: dir.child("broken.json"))
            let lint = CLI.run(["lint", dir.path, "--include", "*.json", "--include", "*.txt", "-q"])
            #expect(lint.status == 1, "\(lint)")
            let lines = lint.stdoutText.split(separator: "\n")
            #expect(
                !lines.isEmpty && lines.allSatisfy { $0.contains("broken.json") && $0.contains(": error: ") }, "\(lint)"
            )
            #expect(!lint.stderr.contains("note:") && lint.stderr.contains("1 file skipped"), "\(lint)")
            let loudLint = CLI.run(["lint", dir.path, "--include", "*.json", "--include", "*.txt"])
            #expect(loudLint.stderr.contains("notes.txt: note: skipped"), "\(loudLint)")
            #expect(loudLint.stdoutText.contains("legacy.json"), "\(loudLint)")
        }
    }

    @Test("check --quiet: the headline, the problems and the count; no description, legacy parts or guidance")
    func quietCheck() {
        let loud = CLI.run(["check", Self.untrusted], environment: Self.plain)
        let quiet = CLI.run(["check", Self.untrusted, "-q"], environment: Self.plain)
        #expect(quiet.status == loud.status && quiet.status == 1, "\(quiet)")
        let loudLines = loud.stdoutText.split(separator: "\n")
        let quietLines = quiet.stdoutText.split(separator: "\n")
        #expect(quietLines.first == loudLines.first)
        #expect(quietLines.last == loudLines.last)
        #expect(quietLines.contains("Problems:") && quietLines.contains { $0.contains("[certificate-untrusted]") })
        for gone in ["Legacy parts:", "Apple's current guidance:", "  kind: pkcs7-smime"] {
            #expect(loudLines.contains(Substring(gone)) && !quietLines.contains(Substring(gone)), "\(gone)")
        }
    }

    @Test("every subcommand takes --color and -q/--quiet")
    func everyCommand() {
        let commands = [
            "check", "lint", "match", "verify", "extract", "detect", "inspect", "sign", "audit", "convert", "migrate",
            "diff", "rules",
        ]
        for command in commands + ["audit summarize"] {
            let help = CLI.run(command.split(separator: " ").map(String.init) + ["--help"])
            #expect(help.status == 0, "\(command): \(help)")
            #expect(help.stdoutText.contains("--color <when>") && help.stdoutText.contains("-q, --quiet"), "\(command)")
        }
    }

    /// `text` without SGR sequences.
    static func stripped(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }
}
