import AASATestSupport
import Foundation
import Testing

/// Issue #24, round three: no input, file or option value reaches Swift's overflow or
/// conversion traps. Each of these ended the process with SIGILL (exit 132) before: a baseline
/// whose counts add up past Int.max, `--at 9223372036854775807`, `audit --rate 1e-10`. Now a
/// file is one error line and 2, an option out of range a usage error (64) naming the range.
@Suite("Values that overflowed: errors, not traps")
struct OverflowTrapTests {
    static let trapped: Int32 = 132

    @Test("a baseline whose counts add up past Int.max: one error line naming the file, status 2")
    func baselineCounts() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(to: dir, as: "a.json")
            let entries = ["a", "b"].map { digit in
                #"{"count": \#(Int.max), "file": "a.json", "fingerprint": "v1:\#(String(repeating: digit, count: 32))", "message": "m", "rule": "empty-appid"}"#
            }
            try Data(#"{"schemaVersion": 1, "findings": [\#(entries.joined(separator: ", "))]}"#.utf8).write(
                to: dir.child("baseline.json"))
            let result = CLI.run(
                ["lint", "--no-config", file.lastPathComponent, "--baseline", "baseline.json"], in: dir)
            #expect(result.status != Self.trapped, "\(result)")
            #expect(result.status == 2, "\(result)")
            #expect(
                result.stderrLines == [
                    "baseline.json: error: not an aasa baseline: findings: the counts add up to more than \(Int.max)"
                ], "\(result)")
        }
    }

    /// Every `--at`: verify's and extract's (TrustOptions), audit's and audit summarize's.
    static func commands(_ dir: URL) throws -> [[String]] {
        let signed = try Fixture.signedFile(in: dir).path
        let results = dir.child("results.jsonl")
        try Data().write(to: results)
        return [
            ["verify", signed], ["extract", signed, "-o", dir.child("out.json").path], ["check", signed],
            ["audit", "at.example.com:1", "--resolve", "*:*:127.0.0.1"], ["audit", "summarize", results.path],
        ]
    }

    @Test(
        "--at past the year 9999 or before 0000: a usage error naming the range",
        arguments: ["9223372036854775807", "-9223372036854775808", "253402300800", "10000-01-01"])
    func atOutOfRange(value: String) throws {
        try withTemporaryDirectory { dir in
            for command in try Self.commands(dir) {
                let result = CLI.run(command + ["--at=\(value)"])  // '=': a negative value is no option
                #expect(result.status == 64, "\(command): \(result)")
                let expected =
                    "Error: --at '\(value)' is out of range: give a time from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z (Unix seconds -62167219200 to 253402300799)"
                #expect(result.stderrLines.first == expected, "\(command): \(result)")
            }
        }
    }

    @Test("--at at the last second of 9999 is a time: verify checks the chain then (expired)")
    func atTheLastSecond() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir).path
            let trust = Fixture.testTrust
            let result = CLI.run(["verify", signed, "--at", "253402300799", "--format", "json"] + trust)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdoutText.contains(#""verdict" : "expired""#), "\(result)")
        }
    }

    @Test(
        "--rate outside 0.001 to 1000000: a usage error naming the range, before any connection",
        arguments: ["1e-10", "0.0009", "1e-300", "1000000.5", "inf"])
    func rateOutOfRange(value: String) {
        let result = CLI.run(["audit", "rate.example.com:1", "--resolve", "*:*:127.0.0.1", "--rate", value])
        #expect(result.status == 64, "\(result)")
        #expect(
            result.stderrLines.first == "Error: --rate must be from 0.001 to 1000000 requests a second", "\(result)")
    }
}
