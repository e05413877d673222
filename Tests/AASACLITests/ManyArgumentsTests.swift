import AASATestSupport
import Foundation
import Testing

/// File names on the command line of a batch command are handed to argument-parser in runs
/// (issue #16, ``ArgumentRuns`` in the CLI): what the command line means must not change.
@Suite("batch: many names on the command line")
struct ManyArgumentsTests {
    static func lines(_ result: CLI.Result) -> [String] {
        result.stdoutText.split(separator: "\n").map(String.init)
    }

    @Test("options before, between and after names, a flag before a name, '--' then a name starting with '-'")
    func optionsAmongNames() throws {
        try withTemporaryDirectory { dir in
            for name in ["a.json", "b.json", "c.json", "-d.json"] { try Data("{}\n".utf8).write(to: dir.child(name)) }
            let result = CLI.run(
                [
                    "detect", "--jobs", "2", "a.json", "--format", "jsonl", "b.json", "--no-recurse", "c.json", "--",
                    "-d.json",
                ],
                in: dir)
            #expect(result.status == 0, "\(result)")
            let paths = try result.jsonLines().map { $0["path"] as? String }
            #expect(paths == ["a.json", "b.json", "c.json", "-d.json"])
        }
    }

    @Test("10,000 names: each reported once, in order")
    func tenThousandInOrder() throws {
        try withTemporaryDirectory { dir in
            let names = (0..<10_000).map { dir.child("missing-\(($0 * 7_919) % 10_000).p7m").path }
            let result = CLI.run(["verify"] + names + Fixture.testTrust)
            #expect(result.status == 2, "\(result)")
            let errors = result.stderrLines.filter { $0.contains(": error: ") }
            #expect(errors == names.map { "\($0): error: cannot read input: No such file or directory" })
            #expect(result.stderrLines.last == "verify: 0 of 10000 files valid; 10000 unreadable")
        }
    }

    @Test(
        "errors are argument-parser's own, with the whole command line: unknown option, '-' twice, -o with several",
        arguments: [
            (["verify", "a.p7m", "b.p7m", "--bogus", "c.p7m"], "Unknown option '--bogus'"),
            (["verify", "-", "a.p7m", "-"], "standard input ('-') can be read only once"),
            (["extract", "a.p7m", "b.p7m", "-o", "out.json"], "-o takes a single input file"),
            (
                ["sign", "a.json", "b.json", "--key", "k", "--cert", "c"],
                "several inputs or a directory need --out-dir"
            ),
            (["verify", "a.p7m", "--jobs"], "Missing value for '--jobs <n>'"),
        ])
    func usageErrors(_ arguments: [String], _ message: String) throws {
        let result = CLI.run(arguments, stdin: Data())
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(result.stderr.contains("Usage: aasa \(arguments[0])"), "\(result)")
    }

    @Test("a value that looks like a name stays the option's: --ca-file FILE after the names")
    func optionValueAfterNames() throws {
        try withTemporaryDirectory { dir in
            let result = CLI.run(
                ["verify", "x.p7m", "y.p7m", "--ca-file", "missing-ca.pem", "--no-system-roots"], in: dir)
            #expect(result.status == 2, "\(result)")
            // The trust file is what fails, before any file is read.
            #expect(result.stderrLines.count == 1, "\(result)")
            #expect(result.stderr.contains("missing-ca.pem"), "\(result)")
        }
    }
}
