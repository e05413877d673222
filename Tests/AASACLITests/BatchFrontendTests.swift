import AASATestSupport
import Foundation
import Testing

/// The batch frontend's invariants, the same for every batch command: the output does not
/// depend on the number of jobs, the batch exits with the worst status of its files, and the
/// summary counts every file once.
@Suite("batch frontend")
struct BatchFrontendTests {
    /// Twelve signed files (one tampered) and, between them, a path that does not exist.
    static func mixedBatch(in dir: URL) throws -> [String] {
        let (_, signed) = try BatchCommandTests.makeFiles(12, in: dir)
        let names = BatchCommandTests.walk(signed).filter { $0.hasSuffix(".json") }
        var tampered = try contents(signed.child(names[4]))
        let at = try #require(tampered.firstRange(of: "/p")).lowerBound
        tampered[at + 1] = UInt8(ascii: "q")
        try tampered.write(to: signed.child(names[4]))
        var paths = names.map { signed.child($0).path }
        paths.insert(dir.child("missing.p7m").path, at: 7)
        return paths
    }

    @Test(
        "stdout, stderr and status are identical for --jobs 1 and --jobs 4",
        arguments: [
            // --at: the JSON report gives the check time, which is otherwise the second the
            // batch started, and the two runs may start in different seconds.
            ["verify", "--at", "2025-01-01T00:00:00Z"] + Fixture.testTrust,
            ["verify", "--format", "json", "--at", "2025-01-01T00:00:00Z"] + Fixture.testTrust,
            ["lint"], ["lint", "--format", "json"], ["lint", "--format", "sarif"],
            ["detect"], ["detect", "--format", "json"],
        ])
    func orderDoesNotDependOnJobs(_ command: [String]) throws {
        try withTemporaryDirectory { dir in
            let paths = try Self.mixedBatch(in: dir)
            let one = CLI.run(command + paths + ["--jobs", "1"])
            let four = CLI.run(command + paths + ["--jobs", "4"])
            #expect(one.status == four.status, "\(one)\n\(four)")
            #expect(one.stdout == four.stdout)
            #expect(one.stderr == four.stderr)
        }
    }

    /// Issue #29: with the items known, the calling thread is one of the workers. A batch many
    /// times longer than the window (8 results per job) must end, with the output of one job:
    /// the first version hung when a worker waited for room while holding the producer.
    @Test(
        "a batch far longer than the window ends with the output of --jobs 1, from a directory and from a list",
        arguments: [2, 3, 5])
    func longBatchEnds(jobs: Int) throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let site = dir.child("site")
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            for index in 0..<300 { try FileManager.default.copyItem(at: signed, to: site.child("f\(index).p7m")) }
            try (0..<300).map { site.child("f\($0).p7m").path }.map { $0 + "\n" }.joined().write(
                to: dir.child("list.txt"), atomically: true, encoding: .utf8)
            let command = ["verify", "--at", "2025-01-01T00:00:00Z"] + Fixture.testTrust
            let one = CLI.run(command + [site.path, "--jobs", "1"], timeout: 120)
            #expect(one.status == 0 && one.stdoutText.split(separator: "\n").count == 300, "\(one)")
            for input in [[site.path], ["--files-from", dir.child("list.txt").path]] {
                let many = CLI.run(command + input + ["--jobs", String(jobs)], timeout: 120)
                #expect(many.status == 0, "\(input) --jobs \(jobs): \(many)")
                if input.count == 1 { #expect(many.stdout == one.stdout) }
                #expect(many.stdoutText.split(separator: "\n").count == 300)
            }
        }
    }

    @Test("the worst status wins: an unreadable file (2) over a tampered one (1) over valid ones (0)")
    func worstStatus() throws {
        try withTemporaryDirectory { dir in
            let paths = try Self.mixedBatch(in: dir)
            let readable = paths.filter { !$0.hasSuffix("missing.p7m") }
            #expect(CLI.run(["verify"] + readable + Fixture.testTrust + ["--jobs", "4"]).status == 1)
            #expect(CLI.run(["verify"] + paths + Fixture.testTrust + ["--jobs", "4"]).status == 2)
            #expect(CLI.run(["detect"] + readable + ["--jobs", "4"]).status == 0)
            #expect(CLI.run(["detect"] + paths + ["--jobs", "4"]).status == 2)
        }
    }

    @Test("the summary counts every file once: valid, not valid and unreadable add up to the total")
    func summaryCounts() throws {
        try withTemporaryDirectory { dir in
            let paths = try Self.mixedBatch(in: dir)
            for jobs in ["1", "4"] {
                let result = CLI.run(["verify"] + paths + Fixture.testTrust + ["--jobs", jobs])
                #expect(
                    result.stderrLines.last == "verify: 11 of 13 files valid; not valid: 1 tampered; 1 unreadable",
                    "\(result)")
                #expect(result.stdoutText.split(separator: "\n").count == 12, "one line per readable file: \(result)")
            }
        }
    }

    /// The one printer (issue #14): `jsonl` came to every batch command by a case of
    /// `BatchFormat` and a branch of `RecordPrinter`. Each line is the record the `json`
    /// array holds for the same file, in the same order.
    @Test(
        "jsonl: one record per line, the json array's elements, for every batch command",
        arguments: [
            ["verify", "--at", "2025-01-01T00:00:00Z"] + Fixture.testTrust, ["detect"], ["lint"],
        ])
    func jsonLines(_ command: [String]) throws {
        try withTemporaryDirectory { dir in
            let paths = try Self.mixedBatch(in: dir)
            let json = CLI.run(command + paths + ["--format", "json"])
            let lines = CLI.run(command + paths + ["--format", "jsonl"])
            #expect(json.status == lines.status && json.stderr == lines.stderr, "\(json)\n\(lines)")
            let document = try json.json()
            let array = try #require((document as? [Any]) ?? (document as? [String: Any])?["files"] as? [Any])
            let records = try lines.stdoutText.split(separator: "\n").map {
                try JSONSerialization.jsonObject(with: Data($0.utf8))
            }
            #expect(records.count == 12, "a line per readable file: \(lines)")
            #expect(array.count == records.count)
            #expect(NSArray(array: array).isEqual(to: records), "the same records in the same order")
        }
    }

    @Test("one file in jsonl is one line; detect does not offer sarif, lint and verify do")
    func offeredFormats() throws {
        try withTemporaryDirectory { dir in
            let paths = try Self.mixedBatch(in: dir)
            let one = CLI.run(
                ["verify", paths[0], "--format", "jsonl", "--at", "2025-01-01T00:00:00Z"] + Fixture.testTrust)
            #expect(one.status == 0 && one.stdoutText.split(separator: "\n").count == 1, "\(one)")
            #expect(try JSONSerialization.jsonObject(with: one.stdout) is [String: Any])
            let sarif = CLI.run(["detect", paths[0], "--format", "sarif"])
            #expect(sarif.status == 64, "\(sarif)")
            #expect(sarif.stderr.contains("one of 'text', 'json' or 'jsonl'."), "\(sarif)")
            #expect(Self.help("detect").contains("(values: text, json, jsonl; default: text)"))
            #expect(CLI.run(["lint", paths[0], "--format", "sarif"]).status == 0)
            #expect(
                Self.help("lint").contains("(values: text, json, jsonl, sarif, junit, gitlab, markdown; default: text)")
            )
            #expect(
                Self.help("verify").contains(
                    "(values: text, json, jsonl, sarif, junit, gitlab, markdown; default: text)"))
        }
    }

    /// A command's --help with its line wrapping undone.
    static func help(_ command: String) -> String {
        CLI.run([command, "--help"]).stdoutText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
