import AASATestSupport
import Foundation
import Testing

/// Batch mode: `sign`, `verify`, `extract`, `lint`, `detect` and `convert` over many files and
/// directories, `--jobs` workers, output in input order, a summary, the worst status.
@Suite("batch mode")
struct BatchCommandTests {
    static let signer = [
        "--key", CLI.cert("leaf-rsa.key"), "--cert", CLI.cert("leaf-rsa.pem"), "--chain", CLI.cert("chain.pem"),
    ]

    /// A different small AASA document for each index.
    static func document(_ index: Int) -> Data {
        Data(
            "{\n  \"applinks\": {\n    \"details\": [\n      { \"appID\": \"ABCDE12345.com.example.app\", \"paths\": [\"/p\(index)/*\"] }\n    ]\n  }\n}\n"
                .utf8)
    }

    /// `count` JSON files in `dir/json` (a-00.json …), and the same signed (by `aasa sign` in
    /// batch) in `dir/signed`, plus a `notes.txt` in both that --include leaves out.
    @discardableResult
    static func makeFiles(_ count: Int, in dir: URL) throws -> (json: URL, signed: URL) {
        let json = dir.child("json")
        try FileManager.default.createDirectory(at: json.child("sub"), withIntermediateDirectories: true)
        for index in 0..<count {
            let name = String(format: "a-%02d.json", index)
            try document(index).write(to: index % 3 == 2 ? json.child("sub").child(name) : json.child(name))
        }
        let signed = dir.child("signed")
        let result = CLI.run(["sign", json.path, "--out-dir", signed.path] + signer)
        try #require(result.status == 0, "\(result)")
        try Data("not an AASA file\n".utf8).write(to: json.child("notes.txt"))
        try Data("not an AASA file\n".utf8).write(to: signed.child("notes.txt"))
        return (json, signed)
    }

    /// The regular files under `directory`, relative, sorted (as the CLI walks it).
    static func walk(_ directory: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory.child(path).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                found.append(path)
            }
        }
        return found.sorted()
    }

    // MARK: - sign

    @Test("sign: a directory with --out-dir keeps names and subdirectories, output identical to one-file sign")
    func signDirectory() throws {
        try withTemporaryDirectory { dir in
            let (json, signed) = try Self.makeFiles(7, in: dir)
            #expect(Self.walk(signed) == Self.walk(json))
            for name in Self.walk(json) where name.hasSuffix(".json") {
                let single = dir.child("single.p7m")
                let result = CLI.run(["sign", json.child(name).path, "-o", single.path] + Self.signer)
                #expect(result.status == 0, "\(result)")
                #expect(try contents(signed.child(name)) == contents(single), "\(name) differs from one-file sign")
            }
            #expect(leftoverTemporaries(in: signed).isEmpty)
        }
    }

    @Test("sign: notes per file in input order, a summary, and the same output with --jobs 1 and --jobs 2")
    func signJobsAgree() throws {
        try withTemporaryDirectory { dir in
            let (json, _) = try Self.makeFiles(9, in: dir)
            var runs: [CLI.Result] = []
            for jobs in ["1", "2"] {
                let out = dir.child("out-\(jobs)")
                let result = CLI.run(
                    ["sign", json.path, "--include", "*.json", "--out-dir", out.path, "--jobs", jobs] + Self.signer)
                #expect(result.status == 0, "\(result)")
                #expect(result.stdout.isEmpty, "\(result)")
                #expect(
                    result.stderrLines.last == "sign: 9 of 9 files signed; 1 file left out by --include", "\(result)")
                runs.append(result)
            }
            #expect(
                runs[0].stderr.replacingOccurrences(of: "out-1", with: "out-X")
                    == runs[1].stderr.replacingOccurrences(of: "out-2", with: "out-X"))
            let notes = runs[0].stderrLines.dropLast()
            #expect(notes.count == 9)
            let order = Self.walk(json).filter { $0.hasSuffix(".json") }
            for (line, name) in zip(notes, order) {
                expectDiagnostic(
                    line, path: json.child(name).path, severity: "note",
                    contains: ["signed →", dir.child("out-1").child(name).path])
            }
            for name in order {
                #expect(try contents(dir.child("out-1").child(name)) == contents(dir.child("out-2").child(name)))
            }
        }
    }

    @Test("sign: one unreadable input among good ones: the others are signed, nothing written for it, exit 2")
    func signOneBadInput() throws {
        try withTemporaryDirectory { dir in
            let good = try Fixture.write(to: dir, as: "good.json")
            let missing = dir.child("missing.json")
            let out = dir.child("out")
            let result = CLI.run(["sign", good.path, missing.path, "--out-dir", out.path, "--jobs", "2"] + Self.signer)
            #expect(result.status == 2, "\(result)")
            expectDiagnostic(
                result.stderrLines.first { $0.hasPrefix(missing.path) }, path: missing.path, severity: "error",
                contains: ["cannot read input"])
            #expect(fileExists(out.child("good.json")))
            #expect(!fileExists(out.child("missing.json")))
            #expect(leftoverTemporaries(in: out).isEmpty)
            #expect(
                result.stderrLines.last
                    == "sign: 1 of 2 files signed; 1 unreadable or not signed (nothing written for it)", "\(result)")
        }
    }

    @Test(
        "sign: usage errors for batches",
        arguments: [
            (["a.json", "b.json"], "--out-dir"),
            (["a.json", "b.json", "-o", "x.p7m"], "--out-dir"),
            (["a.json", "--out-dir", "out", "-o", "x.p7m"], "--out-dir"),
            (["-", "b.json", "--out-dir", "out"], "standard input"),
            (["a.json", "b.json", "--out-dir", "out", "--jobs", "0"], "--jobs"),
            (["a.json", "b.json", "--out-dir", "out", "--include", "x/*.json"], "--include"),
        ])
    func signUsage(_ arguments: [String], mentions: String) throws {
        try withTemporaryDirectory { dir in
            try Fixture.write(to: dir, as: "a.json")
            try Fixture.write(to: dir, as: "b.json")
            let result = CLI.run(["sign"] + arguments + Self.signer, in: dir)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains(mentions), "\(result)")
            #expect(!fileExists(dir.child("out")))
        }
    }

    @Test("sign: an output that is one of the inputs is refused before anything is written")
    func signRefusesOverwritingAnInput() throws {
        try withTemporaryDirectory { dir in
            let a = try Fixture.write(to: dir, as: "a.json")
            let before = try contents(a)
            let result = CLI.run(["sign", a.path, dir.child("b.json").path, "--out-dir", dir.path] + Self.signer)
            #expect(result.status == 64, "\(result)")
            #expect(try contents(a) == before)
            #expect(!fileExists(dir.child("b.json")))
        }
    }

    // MARK: - verify

    @Test("verify: files and a directory with --include, one line each in input order, a summary")
    func verifyFilesAndDirectory() throws {
        try withTemporaryDirectory { dir in
            let (_, signed) = try Self.makeFiles(6, in: dir)
            let extra = try Fixture.signedFile(in: dir, name: "extra.p7m")
            let result = CLI.run(["verify", extra.path, signed.path, "--include", "*.json"] + Fixture.testTrust)
            #expect(result.status == 0, "\(result)")
            let expected =
                [extra.path] + Self.walk(signed).filter { $0.hasSuffix(".json") }.map { signed.child($0).path }
            #expect(result.stdoutText == expected.map { "\($0): valid\n" }.joined(), "\(result)")
            #expect(result.stderrLines == ["verify: 7 of 7 files valid; 1 file left out by --include"], "\(result)")
        }
    }

    @Test("verify: output in input order, whatever the number of jobs; --jobs 1 and 2 print the same")
    func verifyOrderAndJobs() throws {
        try withTemporaryDirectory { dir in
            let (_, signed) = try Self.makeFiles(24, in: dir)
            let names = Self.walk(signed).filter { $0.hasSuffix(".json") }
            // An order that is neither sorted nor the directory's: reversed, then interleaved.
            let reversed = Array(names.reversed())
            let order =
                stride(from: 0, to: reversed.count, by: 2).map { reversed[$0] }
                + stride(from: 1, to: reversed.count, by: 2).map { reversed[$0] }
            let paths = order.map { signed.child($0).path }
            for format in ["text", "json"] {
                let one = CLI.run(
                    ["verify"] + paths + Fixture.testTrust + ["--format", format, "--jobs", "1", "--at", "2025-01-01"])
                let two = CLI.run(
                    ["verify"] + paths + Fixture.testTrust + ["--format", format, "--jobs", "2", "--at", "2025-01-01"])
                #expect(one.status == 0 && two.status == 0, "\(one)\n\(two)")
                #expect(one.stdout == two.stdout, "--jobs 1 and 2 differ (\(format))")
                #expect(one.stderr == two.stderr)
                if format == "text" {
                    #expect(two.stdoutText == paths.map { "\($0): valid\n" }.joined())
                } else {
                    let array = try #require(try two.json() as? [[String: Any]])
                    #expect(array.map { $0["path"] as? String } == paths)
                    #expect(Set(array.compactMap { $0["checkedAt"] as? String }) == ["2025-01-01T00:00:00Z"])
                }
            }
        }
    }

    @Test("verify: every file of a batch is checked at the same time, the start of the batch")
    func verifyBatchTimeIsFixed() throws {
        try withTemporaryDirectory { dir in
            let (_, signed) = try Self.makeFiles(6, in: dir)
            let result = CLI.run(
                ["verify", signed.path, "--include", "*.json", "--format", "json", "--jobs", "2"] + Fixture.testTrust)
            #expect(result.status == 0, "\(result)")
            let array = try #require(try result.json() as? [[String: Any]])
            #expect(array.count == 6)
            #expect(Set(array.compactMap { $0["checkedAt"] as? String }).count == 1)
        }
    }

    @Test("verify: a tampered and an unreadable file among good ones: the others are verified, exit 2 (the worst)")
    func verifyBadAmongGood() throws {
        try withTemporaryDirectory { dir in
            let (_, signed) = try Self.makeFiles(5, in: dir)
            let names = Self.walk(signed).filter { $0.hasSuffix(".json") }
            var tampered = try contents(signed.child(names[1]))
            let at = try #require(tampered.firstRange(of: "/p")).lowerBound
            tampered[at + 1] = UInt8(ascii: "q")
            try tampered.write(to: signed.child(names[1]))
            let missing = dir.child("missing.p7m")
            var paths = names.map { signed.child($0).path }
            let withTamperedOnly = CLI.run(["verify"] + paths + Fixture.testTrust + ["--jobs", "2"])
            #expect(withTamperedOnly.status == 1, "\(withTamperedOnly)")
            paths.insert(missing.path, at: 3)
            let result = CLI.run(["verify"] + paths + Fixture.testTrust + ["--jobs", "2"])
            #expect(result.status == 2, "\(result)")
            let lines = result.stdoutText.split(separator: "\n").map(String.init)
            #expect(lines.count == 5, "the unreadable file has no line: \(result)")
            #expect(lines[1] == "\(signed.child(names[1]).path): tampered")
            #expect(lines.filter { $0.hasSuffix(": valid") }.count == 4)
            expectDiagnostic(
                result.stderrLines[0], path: signed.child(names[1]).path, severity: "error", code: "tampered")
            expectDiagnostic(
                result.stderrLines[1], path: missing.path, severity: "error", contains: ["cannot read input"])
            #expect(
                result.stderrLines.last == "verify: 4 of 6 files valid; not valid: 1 tampered; 1 unreadable",
                "\(result)")
        }
    }

    @Test("verify: an empty directory, or one with nothing matching --include, is an error (exit 2)")
    func verifyNothingToDo() throws {
        try withTemporaryDirectory { dir in
            try Fixture.write(to: dir, as: "a.json")
            let result = CLI.run(["verify", dir.path, "--include", "*.p7m"] + Fixture.testTrust)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: dir.path, severity: "error", contains: ["no file matching *.p7m"])
        }
    }

    @Test("verify: --no-recurse takes only the files directly in a directory")
    func verifyNoRecurse() throws {
        try withTemporaryDirectory { dir in
            let (_, signed) = try Self.makeFiles(6, in: dir)
            let top = Self.walk(signed).filter { $0.hasSuffix(".json") && !$0.contains("/") }
            let result = CLI.run(["verify", signed.path, "--include", "*.json", "--no-recurse"] + Fixture.testTrust)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutText == top.map { "\(signed.child($0).path): valid\n" }.joined(), "\(result)")
        }
    }

    // MARK: - progress

    /// util-linux `script`, which runs a command on a pseudo-terminal.
    static let script = Executables.script

    @Test(
        "progress: a bar on a terminal for a batch that lasts, cleared before the summary; none in a pipe, under TERM=dumb, with --no-progress, or for a batch that ends within half a second",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: BatchCommandTests.script.path), "needs util-linux script"))
    func progressOnlyOnATerminal() throws {
        try withTemporaryDirectory { dir in
            let (_, signed) = try Self.makeFiles(12, in: dir)
            let names = Self.walk(signed).filter { $0.hasSuffix(".json") }.map { signed.child($0).path }
            try #require(names.count == 12)
            let trust = Fixture.testTrust.map { "'" + $0 + "'" }.joined(separator: " ")
            let aasa = "'" + CLI.executable.path + "'"
            // A batch that lasts: the list names 6 files, then, a second later, 6 more.
            let first = names.prefix(6).joined(separator: "\\n")
            let rest = names.dropFirst(6).joined(separator: "\\n")
            func onTerminal(_ options: String, term: String = "xterm", slow: Bool = true) -> ProcessResult {
                let feed =
                    slow ? "{ printf '\(first)\\n'; sleep 1; printf '\(rest)\\n'; }" : "printf '\(first)\\n\(rest)\\n'"
                let command = "\(feed) | \(aasa) verify --files-from - --jobs 1 \(trust) \(options) >/dev/null"
                // On a pseudo-terminal (standard output to /dev/null: the pty carries standard error).
                return ProcessRunner.run(
                    Self.script, ["-qefc", command, "/dev/null"], environment: ["TERM": term])
            }
            let run = onTerminal("")
            let terminal = run.stdoutText
            #expect(run.status == 0, "\(run)")
            #expect(terminal.contains("\r\u{1B}[2K"), "no progress bar drawn: \(terminal.debugDescription)")
            #expect(terminal.contains("12 files"), "the bar does not reach the end: \(terminal.debugDescription)")
            // The bar is cleared, then the summary is printed on a clean line.
            #expect(terminal.contains("\r\u{1B}[2Kverify: 12 of 12 files valid"), "\(terminal.debugDescription)")

            for (what, result) in [
                ("TERM=dumb", onTerminal("", term: "dumb")), ("--no-progress", onTerminal("--no-progress")),
                ("a batch within half a second", onTerminal("", slow: false)),
            ] {
                #expect(result.status == 0, "\(what): \(result)")
                #expect(
                    !result.stdoutText.contains("\u{1B}") && result.stdoutText.contains("verify: 12 of 12 files valid"),
                    "\(what): \(result.stdoutText.debugDescription)")
            }
            // --progress asks for it at once, even for a short batch.
            let asked = onTerminal("--progress", slow: false)
            #expect(asked.stdoutText.contains("\r\u{1B}[2K"), "\(asked.stdoutText.debugDescription)")

            // In a pipe: the lines and the summary, no control characters.
            let piped = CLI.run(["verify", signed.path, "--include", "*.json", "--jobs", "1"] + Fixture.testTrust)
            #expect(piped.status == 0, "\(piped)")
            #expect(
                !piped.stderr.contains("\u{1B}") && !piped.stderr.contains("\r"), "\(piped.stderr.debugDescription)")
            #expect(piped.stderr.contains("verify: 12 of 12 files valid"))
        }
    }

    // MARK: - extract

    @Test("extract: a directory into --out-dir, the same bytes as one-file extract; a tampered file writes nothing")
    func extractDirectory() throws {
        try withTemporaryDirectory { dir in
            let (json, signed) = try Self.makeFiles(6, in: dir)
            let names = Self.walk(signed).filter { $0.hasSuffix(".json") }
            var tampered = try contents(signed.child(names[2]))
            let at = try #require(tampered.firstRange(of: "/p")).lowerBound
            tampered[at + 1] = UInt8(ascii: "q")
            try tampered.write(to: signed.child(names[2]))
            let out = dir.child("out")
            let result = CLI.run(
                ["extract", signed.path, "--include", "*.json", "--out-dir", out.path, "--lf", "--jobs", "2"]
                    + Fixture.testTrust)
            #expect(result.status == 1, "\(result)")
            for (index, name) in names.enumerated() {
                if index == 2 {
                    #expect(!fileExists(out.child(name)), "nothing written for the tampered file")
                } else {
                    #expect(try contents(out.child(name)) == contents(json.child(name)), "\(name)")
                }
            }
            #expect(leftoverTemporaries(in: out).isEmpty)
            expectDiagnostic(
                result.stderrLines.first { $0.contains("error:") }, path: signed.child(names[2]).path,
                severity: "error", code: "tampered")
            #expect(
                result.stderrLines.last
                    == "extract: 5 of 6 files extracted; 1 failed verification (nothing written for it); 1 file left out by --include",
                "\(result)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("extract: several files or a directory need --out-dir; -o takes one file")
    func extractUsage() throws {
        try withTemporaryDirectory { dir in
            let (_, signed) = try Self.makeFiles(3, in: dir)
            for arguments in [[signed.path], [signed.path, "-o", dir.child("x").path]] {
                let result = CLI.run(["extract"] + arguments + Fixture.testTrust)
                #expect(result.status == 64, "\(result)")
                #expect(result.stderr.contains("--out-dir"), "\(result)")
            }
        }
    }

    // MARK: - lint, detect, convert

    @Test("lint: a directory is linted file by file; --jobs 1 and 2 print the same, in the format of a file list")
    func lintDirectory() throws {
        try withTemporaryDirectory { dir in
            let (json, _) = try Self.makeFiles(8, in: dir)
            // an error: exit 1
            try Data("{\"applinks\": {\"details\": [ broken".utf8).write(to: json.child("bad.json"))
            let names = Self.walk(json).filter { $0.hasSuffix(".json") }
            for format in ["text", "json", "sarif"] {
                let listed = CLI.run(["lint", "--format", format] + names.map { json.child($0).path })
                let one = CLI.run(["lint", json.path, "--include", "*.json", "--format", format, "--jobs", "1"])
                let two = CLI.run(["lint", json.path, "--include", "*.json", "--format", format, "--jobs", "2"])
                #expect(listed.status == 1 && one.status == 1 && two.status == 1, "\(two)")
                #expect(one.stdout == listed.stdout, "a directory lints like its files listed (\(format))")
                #expect(two.stdout == one.stdout, "--jobs 1 and 2 differ (\(format))")
                #expect(two.stderr == one.stderr)
            }
            let json2 = try CLI.run(["lint", json.path, "--include", "*.json", "--format", "json"]).jsonObject()
            let files = try #require(json2["files"] as? [[String: Any]])
            #expect(files.map { $0["path"] as? String } == names.map { json.child($0).path })
        }
    }

    @Test(
        "lint: one unreadable file among good ones: the others are linted, exit 2, the summary counts the linted ones")
    func lintOneUnreadable() throws {
        try withTemporaryDirectory { dir in
            let (json, _) = try Self.makeFiles(4, in: dir)
            let missing = dir.child("missing.json")
            try Data("{\"applinks\": {\"details\": [{\"appID\": \"bad\", \"paths\": [\"/x\"]}]}}".utf8).write(
                to: json.child("bad.json"))
            let result = CLI.run(["lint", json.path, missing.path, "--include", "*.json", "--jobs", "2"])
            #expect(result.status == 2, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: missing.path, severity: "error", contains: ["cannot read input"])
            #expect(result.stderrLines.last?.hasSuffix("in 5 files; 1 file left out by --include") == true, "\(result)")
        }
    }

    @Test("detect: a directory, an array for --format json, a summary; --jobs 1 and 2 agree")
    func detectDirectory() throws {
        try withTemporaryDirectory { dir in
            let (_, signed) = try Self.makeFiles(5, in: dir)
            let one = CLI.run(["detect", signed.path, "--format", "json", "--jobs", "1"])
            let two = CLI.run(["detect", signed.path, "--format", "json", "--jobs", "2"])
            #expect(one.status == 0, "\(one)")
            #expect(one.stdout == two.stdout)
            let array = try #require(try two.json() as? [[String: Any]])
            #expect(array.map { $0["path"] as? String } == Self.walk(signed).map { signed.child($0).path })
            #expect(two.stderrLines == ["detect: 6 files: 5 pkcs7-der, 1 unknown"], "\(two)")
            // Listed files keep the previous shape and print no summary.
            let listed = CLI.run(["detect", "--format", "json"] + Self.walk(signed).map { signed.child($0).path })
            #expect(listed.stdout == two.stdout)
            #expect(listed.stderr.isEmpty)
        }
    }

    @Test("convert: --jobs 1 and --jobs 2 write the same files and print the same")
    func convertJobsAgree() throws {
        try withTemporaryDirectory { dir in
            let (json, signed) = try Self.makeFiles(9, in: dir)
            var results: [CLI.Result] = []
            for jobs in ["1", "2"] {
                let result = CLI.run(
                    ["convert", signed.path, "--out-dir", dir.child("plain-\(jobs)").path, "--jobs", jobs]
                        + Fixture.testTrust)
                #expect(result.status == 0, "\(result)")
                results.append(result)
            }
            #expect(
                results[0].stderr.replacingOccurrences(of: "plain-1", with: "plain-X")
                    == results[1].stderr.replacingOccurrences(of: "plain-2", with: "plain-X"))
            for name in Self.walk(json) where name.hasSuffix(".json") {
                #expect(try contents(dir.child("plain-1").child(name)) == contents(dir.child("plain-2").child(name)))
            }
        }
    }
}
