import AASATestSupport
import Foundation
import Testing

/// Issue #24: the values of a usage error reach the terminal escaped, as the same text read
/// from a file does (issue #15), and a proxy's password never reaches it at all.
///
/// argument-parser quotes what a user typed raw; a value with a newline forged a second line,
/// an escape sequence drove the terminal. Every usage error is printed in one place
/// (`UsageErrors`), its message escaped as one line.
@Suite("Hostile text in arguments")
struct HostileArgumentTests {
    /// Each value in a usage error of its own, by the argument that carries it.
    static func usageErrors(_ text: String, in dir: URL) throws -> [[String]] {
        let file = try Fixture.write(to: dir).path
        let local = ["--resolve", "*:*:127.0.0.1"]
        return [
            ["audit", "a\(text)b.example.com"] + local,
            ["audit", "a.example.com:1", "--resolve", "x\(text):443:127.0.0.1"] + local,
            // A scheme refused before any parse: the value can never name a proxy to reach.
            ["audit", "a.example.com:1", "--proxy", "socks5://proxy\(text).example:1080"] + local,
            ["audit", "a.example.com:1", "--shard", "1\(text)/2"] + local,
            ["audit", "a.example.com:1", "--at", "2025\(text)"] + local,
            ["verify", file, "--at", "x\(text)"],
            ["verify", file, "--format", "j\(text)son"],
            ["lint", file, "--disable", "rule\(text)"],
            ["x\(text)y", file],
            ["chek\(text)", file],
            ["help", "chek\(text)"],
            ["audit", "summarize", file, "--at", "x\(text)"],
        ]
    }

    @Test(
        "every usage error: status 64, its message one escaped line, then the usage",
        arguments: HostileTextTests.hostile)
    func usageErrorsAreEscaped(text: String) throws {
        try withTemporaryDirectory { dir in
            for arguments in try Self.usageErrors(text, in: dir) {
                let result = CLI.run(arguments)
                #expect(result.status == 64, "\(arguments): \(result)")
                #expect(HostileTextTests.violations(Data(result.stderr.utf8)).isEmpty, "\(arguments): \(result)")
                let first = try #require(result.stderrLines.first, "\(arguments): \(result)")
                #expect(first.hasPrefix("Error: "), "\(arguments): \(result)")
                #expect(first.contains("\\u{"), "the value is shown escaped: \(arguments): \(result)")
                // The line after the message is argument-parser's usage (or its help line): the
                // value did not start a line of its own.
                let second = result.stderrLines.dropFirst().first ?? ""
                #expect(second.hasPrefix("Usage: ") || second.hasPrefix("Help: "), "\(arguments): \(result)")
            }
        }
    }

    /// A password that holds `/`, `?` or `#` (or `://`) unencoded ends a URL parser's authority
    /// early: the refusal showed the whole URL, password in clear (docs/audit.md promises
    /// credentials are never printed).
    static let secrets = ["se/cret", "se?cret", "se#cret", "se://cret"]

    @Test("a proxy URL refused from --proxy or HTTPS_PROXY never shows its password", arguments: secrets)
    func proxyPasswordsAreNotPrinted(secret: String) {
        let url = "http://alice:\(secret)@127.0.0.1:3128"
        let audit = ["audit", "a.example.com:1", "--resolve", "*:*:127.0.0.1"]
        let fromFlag = CLI.run(audit + ["--proxy", url])
        let fromEnvironment = CLI.run(audit, environment: ["HTTPS_PROXY": url, "https_proxy": url])
        for (result, source) in [(fromFlag, "--proxy '"), (fromEnvironment, "the environment variable")] {
            #expect(result.status == 64, "\(result)")
            #expect(!result.stderr.contains("cret"), "\(result)")
            #expect(result.stderrLines.first?.hasPrefix("Error: \(source)") == true, "\(result)")
            #expect(result.stderrLines.first?.contains("***@") == true, "\(result)")
        }
    }
}
