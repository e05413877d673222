import AASATestSupport
import Foundation
import Testing

/// Issue #15, probes 2 and 6: a directory walk never skips silently, skips exactly the
/// writer's own temporaries, and the writer handles names up to NAME_MAX.
@Suite("Directory walks and names")
struct BatchWalkTests {
    /// A walk that runs out of descriptors (a soft limit of 32, directories nested 48 deep, a
    /// tampered file at the bottom) used to say "1 of 1 file valid" and exit 0.
    @Test("a subdirectory that cannot be opened is an error, counted, exit 2")
    func outOfDescriptors() throws {
        try withTemporaryDirectory { dir in
            let site = dir.child("site")
            var deep = site
            for level in 0..<48 { deep = deep.child("level-\(level)") }
            try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
            _ = try Fixture.signedFile(in: dir, name: "good.p7m")
            try FileManager.default.moveItem(at: dir.child("good.p7m"), to: site.child("good.p7m"))
            _ = try Fixture.signedFile(in: dir, name: "deep.p7m")
            try FileManager.default.moveItem(at: dir.child("deep.p7m"), to: deep.child("deep.p7m"))
            let script = "ulimit -n 32; exec \"$0\" \"$@\""
            let result = ProcessRunner.run(
                URL(fileURLWithPath: "/bin/bash"),
                ["-c", script, CLI.executable.path, "verify", site.path] + Fixture.testTrust)
            #expect(result.status == 2, "\(result)")
            let unreadable = result.stderrLines.filter { $0.contains("cannot read the directory: Too many open files") }
            #expect(unreadable.count == 1, "\(result)")
            #expect(result.stderrLines.last?.hasSuffix("1 unreadable") == true, "\(result)")
            #expect(result.stdoutText == "\(site.child("good.p7m").path): valid\n", "\(result)")
        }
    }

    @Test("hidden files with real names are taken; only the writer's temporary pattern is skipped")
    func hiddenFiles() throws {
        try withTemporaryDirectory { dir in
            let batch = dir.child("batch")
            try FileManager.default.createDirectory(at: batch, withIntermediateDirectories: true)
            for name in [".aasa.backup", ".config.json", "a.json", ".a.json.aasa-tmp-Ab12Cd"] {
                try Fixture.write(to: batch, as: name)
            }
            let result = CLI.run(["detect", batch.path])
            #expect(result.status == 0, "\(result)")
            let listed = result.stdoutText.split(separator: "\n").map { $0.split(separator: ":")[0] }
            #expect(
                listed.map { ($0 as Substring).split(separator: "/").last.map(String.init) ?? "" } == [
                    ".aasa.backup", ".config.json", "a.json",
                ])
        }
    }

    @Test("an output name of NAME_MAX (255) bytes is written, through a temporary that fits", arguments: [248, 255])
    func longNames(length: Int) throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let name = String(repeating: "n", count: length - 4) + ".p7m"
            let output = dir.child(name)
            let result = CLI.run([
                "sign", input.path, "-o", output.path, "--key", CLI.cert("leaf-rsa.key"), "--cert",
                CLI.cert("leaf-rsa.pem"),
            ])
            #expect(result.status == 0, "\(result)")
            #expect(fileExists(output))
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    /// A name in Latin-1 ("café.p7m" with the byte E9), made and named through the shell: a
    /// Swift String cannot hold it. It was reported as a missing file.
    @Test("a file name that is not UTF-8: one clear error in a walk and as an argument, counted, exit 2")
    func namesNotInUTF8() throws {
        try withTemporaryDirectory { dir in
            let site = dir.child("site")
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            _ = try Fixture.signedFile(in: dir, name: "good.p7m")
            try FileManager.default.moveItem(at: dir.child("good.p7m"), to: site.child("good.p7m"))
            let make = ProcessRunner.run(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", "cp \"$0/good.p7m\" \"$0/$(printf 'caf\\351.p7m')\"", site.path])
            try #require(make.status == 0, "\(make)")
            try #require(try FileManager.default.contentsOfDirectory(atPath: site.path).count == 2)

            let walked = CLI.run(["verify", site.path] + Fixture.testTrust)
            #expect(walked.status == 2, "\(walked)")
            let error = walked.stderrLines.filter { $0.contains("the name is not valid UTF-8") }
            #expect(error.count == 1 && error[0].hasPrefix(site.path + "/caf\u{FFFD}.p7m: error: "), "\(walked)")
            #expect(walked.stderrLines.last == "verify: 1 of 2 files valid; 1 unreadable", "\(walked)")

            let named = ProcessRunner.run(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", "exec \"$0\" verify \"$1/$(printf 'caf\\351.p7m')\"", CLI.executable.path, site.path])
            #expect(named.status == 2, "\(named)")
            #expect(named.stderrLines.count == 1, "\(named)")
            #expect(named.stderr.contains("this argument is not valid UTF-8"), "\(named)")
        }
    }

    @Test("the summary says how many files --include left out")
    func includeLeavesOut() throws {
        try withTemporaryDirectory { dir in
            let site = dir.child("site")
            try FileManager.default.createDirectory(at: site.child("sub"), withIntermediateDirectories: true)
            _ = try Fixture.signedFile(in: dir, name: "good.p7m")
            try FileManager.default.moveItem(at: dir.child("good.p7m"), to: site.child("good.p7m"))
            for name in ["README.md", "notes.txt", "sub/index.html"] {
                try Data("x\n".utf8).write(to: site.child(name))
            }
            let verify = CLI.run(["verify", site.path, "--include", "*.p7m"] + Fixture.testTrust)
            #expect(verify.status == 0, "\(verify)")
            #expect(verify.stderrLines.last == "verify: 1 of 1 file valid; 3 files left out by --include", "\(verify)")
            let lint = CLI.run(["lint", site.path, "--include", "*.p7m"])
            #expect(lint.stderrLines.last?.hasSuffix("in 1 file; 3 files left out by --include") == true, "\(lint)")
            let all = CLI.run(["verify", site.path] + Fixture.testTrust)
            #expect(!all.stderr.contains("left out"), "\(all)")
        }
    }
}
