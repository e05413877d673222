import AASATestSupport
import Foundation
import Testing

/// `--files-from LIST` and `--null` (issue #16): names read from a file or standard input,
/// after the command line's, each hostile entry one clear line, counted, with exit 2.
@Suite("batch: --files-from")
struct FilesFromTests {
    /// Tiny JSON files named `names` in `dir` (each `{}`), their paths.
    static func files(_ names: [String], in dir: URL) throws -> [String] {
        try names.map { name in
            let url = dir.child(name)
            try Data("{}\n".utf8).write(to: url)
            return url.path
        }
    }

    /// The list of `names` with `separator` after each.
    static func list(_ names: [String], separator: String = "\n") -> Data {
        Data(names.map { $0 + separator }.joined().utf8)
    }

    /// `PATH: json` for each path, as detect prints a JSON file.
    static func detected(_ paths: [String]) -> [String] { paths.map { "\($0): json" } }

    static func lines(_ result: CLI.Result) -> [String] {
        result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test("--null: names with newlines, spaces and quotes, in list order, --jobs 1 and 4 alike")
    func nullSeparated() throws {
        try withTemporaryDirectory { dir in
            let paths = try Self.files(["two\nlines.json", "with space.json", "quote'd.json", "plain.json"], in: dir)
            let listFile = dir.child("list")
            try Self.list(paths, separator: "\0").write(to: listFile)
            for jobs in ["1", "4"] {
                let result = CLI.run(["detect", "--files-from", listFile.path, "--null", "--jobs", jobs])
                #expect(result.status == 0, "\(result)")
                // The name with a newline is escaped on the terminal-bound line (one line each).
                #expect(
                    Self.lines(result)
                        == [
                            "\(dir.path)/two\\u{A}lines.json: json", "\(paths[1]): json", "\(paths[2]): json",
                            "\(paths[3]): json",
                        ])
                #expect(result.stderrLines == ["detect: 4 files: 4 json"])
            }
        }
    }

    @Test("'-' reads the list from standard input; --format json is an array even for one name")
    func standardInput() throws {
        try withTemporaryDirectory { dir in
            let paths = try Self.files(["a.json", "b.json"], in: dir)
            let result = CLI.run(["detect", "--files-from", "-"], stdin: Self.list(paths))
            #expect(result.status == 0, "\(result)")
            #expect(Self.lines(result) == Self.detected(paths))
            let one = CLI.run(["detect", "--files-from", "-", "--format", "json"], stdin: Self.list([paths[0]]))
            #expect(one.status == 0, "\(one)")
            let array = try #require(try one.json() as? [[String: Any]], "\(one)")
            #expect(array.count == 1)
            #expect(array.first?["path"] as? String == paths[0])
        }
    }

    @Test("names on the command line come first, then the list's, in order; a directory in the list is walked")
    func commandLineThenList() throws {
        try withTemporaryDirectory { dir in
            let paths = try Self.files(["c.json", "a.json", "b.json"], in: dir)
            let sub = dir.child("sub")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            let inside = try Self.files(["y.json", "x.json"], in: sub)
            let listFile = dir.child("list")
            try Self.list([paths[1], sub.path, paths[0]]).write(to: listFile)
            let result = CLI.run(["detect", paths[2], "--files-from", listFile.path, paths[0]])
            #expect(result.status == 0, "\(result)")
            #expect(
                Self.lines(result) == Self.detected([paths[2], paths[0], paths[1], inside[1], inside[0], paths[0]]))
            #expect(result.stderrLines == ["detect: 6 files: 6 json"])
        }
    }

    @Test("a name that is not UTF-8: one line naming its place, counted unreadable, exit 2; the others verified")
    func nameNotUTF8() throws {
        try withTemporaryDirectory { dir in
            let paths = try Self.files(["a.json"], in: dir)
            let listFile = dir.child("list")
            var bytes = Self.list(paths)
            bytes.append(contentsOf: Array(dir.path.utf8) + [UInt8(ascii: "/"), 0xFF, 0xFE] + Array(".p7m\n".utf8))
            bytes.append(Self.list(paths))
            try bytes.write(to: listFile)
            let result = CLI.run(["verify", "--files-from", listFile.path] + Fixture.testTrust)
            #expect(result.status == 2, "\(result)")
            let errors = result.stderrLines.filter { $0.contains("not valid UTF-8") }
            #expect(errors.count == 1, "\(result)")
            #expect(
                errors.first?.hasPrefix(
                    "\(dir.path)/\u{FFFD}\u{FFFD}.p7m: error: cannot read: the name (\(listFile.path):2)") == true)
            // Both copies of a.json were verified (plain JSON: not signed), in their places.
            #expect(result.stdoutText == "\(paths[0]): not-signed\n\(paths[0]): not-signed\n")
            #expect(result.stderrLines.last == "verify: 0 of 3 files valid; not valid: 2 not-signed; 1 unreadable")
        }
    }

    @Test("hostile entries: an empty name, '-', a missing file, an unterminated last name; one line each, counted")
    func hostileEntries() throws {
        try withTemporaryDirectory { dir in
            let paths = try Self.files(["a.json"], in: dir)
            let missing = dir.child("missing.json").path
            let listFile = dir.child("list")
            try Data("\(paths[0])\n\n-\n\(missing)\n\(paths[0])".utf8).write(to: listFile)
            let result = CLI.run(["detect", "--files-from", listFile.path])
            #expect(result.status == 2, "\(result)")
            #expect(Self.lines(result) == Self.detected(paths), "\(result)")
            #expect(
                result.stderrLines == [
                    "\(listFile.path):2: error: empty name in the file list",
                    "\(listFile.path):3: error: '-' in a file list names no file (standard input is not read from a list); write ./- for a file named '-'",
                    "\(missing): error: cannot read input: No such file or directory",
                    "\(listFile.path):5: error: the last name, '\(paths[0])', has no newline after it: the list may have been cut short, so it is not taken; end every name with a newline",
                    "detect: 2 files: 1 json, 1 unreadable",
                ], "\(result)")
        }
    }

    @Test("a list of refused entries only: one line each, no summary (no file was found)")
    func onlyRefusedEntries() throws {
        try withTemporaryDirectory { dir in
            let listFile = dir.child("list")
            try Data("\n\n".utf8).write(to: listFile)
            let result = CLI.run(["verify", "--files-from", listFile.path, "--jobs", "1"] + Fixture.testTrust)
            #expect(result.status == 2, "\(result)")
            // No file was found at all: the two lines say it all, no summary.
            #expect(result.stderrLines.count == 2, "\(result)")
        }
    }

    @Test("an empty list: one line, exit 2 (convert accepts it, as an empty directory)")
    func emptyList() throws {
        try withTemporaryDirectory { dir in
            let listFile = dir.child("list")
            try Data().write(to: listFile)
            let verify = CLI.run(["verify", "--files-from", listFile.path] + Fixture.testTrust)
            #expect(verify.status == 2, "\(verify)")
            #expect(verify.stderrLines == ["\(listFile.path): error: no file names in this list: nothing to verify"])
            #expect(verify.stdout.isEmpty)
            let convert = CLI.run(["convert", "--files-from", listFile.path, "--out-dir", dir.child("out").path])
            #expect(convert.status == 0, "\(convert)")
        }
    }

    @Test(
        "a list that cannot be read: exit 2, exactly one line",
        arguments: [["verify"] + Fixture.testTrust, ["lint"], ["detect"]])
    func missingList(_ command: [String]) throws {
        try withTemporaryDirectory { dir in
            let missing = dir.child("no-such-list").path
            let result = CLI.run(command + ["--files-from", missing])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines == ["\(missing): error: cannot read the file list: No such file or directory"])
            #expect(result.stdout.isEmpty)
            let directory = CLI.run(command + ["--files-from", dir.path])
            #expect(directory.status == 2, "\(directory)")
            #expect(directory.stderrLines == ["\(dir.path): error: cannot read the file list: it is a directory"])
        }
    }

    @Test("usage errors (64): --null without --files-from; '-' named with --files-from -")
    func usageErrors() throws {
        try withTemporaryDirectory { dir in
            let paths = try Self.files(["a.json"], in: dir)
            let null = CLI.run(["lint", paths[0], "--null"])
            #expect(null.status == 64, "\(null)")
            #expect(null.stderr.contains("--null says how the --files-from list is separated"))
            let twice = CLI.run(["detect", "-", "--files-from", "-"], stdin: Data())
            #expect(twice.status == 64, "\(twice)")
            #expect(
                twice.stderr.contains("standard input ('-') can be read only once: here it is the --files-from list"))
            let noOutDir = CLI.run(["extract", "--files-from", dir.child("list").path])
            #expect(noOutDir.status == 64, "\(noOutDir)")
        }
    }

    @Test("sign and extract read the list whole, then write each output under --out-dir")
    func writingCommands() throws {
        try withTemporaryDirectory { dir in
            let (json, _) = try BatchCommandTests.makeFiles(4, in: dir)
            let names = BatchCommandTests.walk(json).filter { $0.hasSuffix(".json") && !$0.contains("/") }
            let listFile = dir.child("list")
            try Self.list(names.map { json.child($0).path }, separator: "\0").write(to: listFile)
            let signed = dir.child("out-signed")
            let sign = CLI.run(
                ["sign", "--files-from", listFile.path, "--null", "--out-dir", signed.path] + BatchCommandTests.signer)
            #expect(sign.status == 0, "\(sign)")
            #expect(BatchCommandTests.walk(signed) == names)
            try Self.list(names.map { signed.child($0).path }).write(to: listFile)
            let extracted = dir.child("out-plain")
            let extract = CLI.run(
                ["extract", "--files-from", listFile.path, "--out-dir", extracted.path, "--lf"] + Fixture.testTrust)
            #expect(extract.status == 0, "\(extract)")
            for name in names {
                #expect(try contents(extracted.child(name)) == contents(json.child(name)))
            }
        }
    }
}
