import AASATestSupport
import Foundation
import Testing

/// Issue #15: tests that tell temp-and-rename from writing the destination in place (a writer
/// that truncates and writes the file passed the whole suite), and that an in-place write
/// keeps the file as it was: owner, group, mode, and a symbolic link as a link.
@Suite("Atomic writes")
struct AtomicWriteTests {
    /// Compact JSON, which convert rewrites pretty: the output always differs from the input.
    static let compact = Data(
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"paths":["/a/*"]}]}}"#.utf8)

    @Test("the output replaces the name, not the file: a hard link to the old file keeps the old bytes")
    func hardLink() throws {
        try withTemporaryDirectory { dir in
            let input = dir.child("aasa.json")
            try Self.compact.write(to: input)
            let other = dir.child("other-name.json")
            try FileManager.default.linkItem(at: input, to: other)
            let result = CLI.run(["convert", input.path, "--in-place"])
            #expect(result.status == 0, "\(result)")
            #expect(try contents(input) != Self.compact, "converted")
            #expect(try contents(other) == Self.compact, "an in-place writer would have changed the other name too")
        }
    }

    /// The file-size limit (SIGXFSZ ignored, so the write fails with EFBIG) stops the write
    /// part-way: the old file stays whole and no temporary is left.
    @Test("a write that fails part-way leaves the old file intact and no temporary")
    func failsPartWay() throws {
        try withTemporaryDirectory { dir in
            let input = dir.child("aasa.json")
            // Large enough that the pretty output passes the 4 KB limit (ulimit -f counts 1 KB blocks).
            let paths = (0..<400).map { "\"/p\($0)/*\"" }.joined(separator: ",")
            let original = Data(
                #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"paths":[\#(paths)]}]}}"#.utf8)
            try original.write(to: input)
            let result = ProcessRunner.run(
                URL(fileURLWithPath: "/bin/bash"),
                [
                    "-c", "trap '' XFSZ; ulimit -f 4; exec \"$0\" \"$@\"", CLI.executable.path, "convert", input.path,
                    "--in-place",
                ])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("File too large"), "\(result)")
            #expect(try contents(input) == original)
            #expect(leftoverTemporaries(in: dir).isEmpty, "\(leftoverTemporaries(in: dir))")
        }
    }

    @Test(
        "--in-place keeps the owner, group and mode of a file owned by someone else",
        .enabled(if: geteuid() == 0, "needs root to give the file to nobody:nogroup (CI runs as root)"))
    func keepsOwnerAndMode() throws {
        try withTemporaryDirectory { dir in
            let input = dir.child("aasa.json")
            try Self.compact.write(to: input)
            let nobody: uid_t = 65_534
            let nogroup: gid_t = 65_534
            #expect(chown(input.path, nobody, nogroup) == 0)
            #expect(chmod(input.path, 0o600) == 0)
            let result = CLI.run(["convert", input.path, "--in-place"])
            #expect(result.status == 0, "\(result)")
            var info = stat()
            #expect(stat(input.path, &info) == 0)
            #expect(info.st_uid == nobody && info.st_gid == nogroup, "owner \(info.st_uid):\(info.st_gid)")
            #expect(info.st_mode & 0o7777 == 0o600)
            #expect(try contents(input) != Self.compact)
        }
    }

    /// Only the owner, or only the group, differs from the runner's: the writer must keep the
    /// one that differs (a writer that called `fchown` only when both differed kept neither).
    /// Both a file named on the command line and one found by a walk (written relative to its
    /// directory's descriptor).
    @Test(
        "--in-place keeps the owner when only the owner differs, and the group when only the group does",
        arguments: [(uid: uid_t(65_534), gid: gid_t(0)), (uid: uid_t(0), gid: gid_t(65_534))], [false, true])
    func keepsOwnerOrGroup(_ owner: (uid: uid_t, gid: gid_t), walked: Bool) throws {
        try requireRoot("only root can give a file to another user or group (CI runs as root)")
        try withTemporaryDirectory { dir in
            try FileManager.default.createDirectory(at: dir.child("site"), withIntermediateDirectories: true)
            let input = dir.child("site/aasa.json")
            try Self.compact.write(to: input)
            #expect(chown(input.path, owner.uid, owner.gid) == 0)
            #expect(chmod(input.path, 0o640) == 0)
            let result = CLI.run(["convert", walked ? dir.child("site").path : input.path, "--in-place"])
            #expect(result.status == 0, "\(result)")
            #expect(try contents(input) != Self.compact, "converted")
            let info = try #require(fileStatus(input))
            #expect(
                info.st_uid == owner.uid && info.st_gid == owner.gid,
                "owner \(info.st_uid):\(info.st_gid), expected \(owner.uid):\(owner.gid)")
            #expect(info.st_mode & 0o7777 == 0o640)
        }
    }

    @Test("--in-place on a symbolic link converts its target and leaves the link a link")
    func symbolicLink() throws {
        try withTemporaryDirectory { dir in
            let target = dir.child("real.json")
            try Self.compact.write(to: target)
            let link = dir.child("apple-app-site-association")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.json")
            let result = CLI.run(["convert", link.path, "--in-place"])
            #expect(result.status == 0, "\(result)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.json")
            #expect(try contents(target) != Self.compact, "the target was converted")
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("--no-clobber: an existing output (file or symbolic link) stays as it is, exit 2; new outputs are written")
    func noClobber() throws {
        try withTemporaryDirectory { dir in
            let input = dir.child("aasa.json")
            try Self.compact.write(to: input)
            let taken = dir.child("taken.json")
            try Data("mine\n".utf8).write(to: taken)
            let refused = CLI.run(["convert", input.path, "-o", taken.path, "--no-clobber"])
            #expect(refused.status == 2, "\(refused)")
            #expect(try contents(taken) == Data("mine\n".utf8))
            #expect(
                refused.stderrLines == [
                    "\(taken.path): error: cannot write output: the file exists and --no-clobber keeps it; nothing written"
                ], "\(refused)")
            let link = dir.child("link.json")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: dir.child("nowhere.json"))
            let dangling = CLI.run(["migrate", input.path, "-o", link.path, "--no-clobber"])
            #expect(dangling.status == 2, "\(dangling)")
            #expect(!fileExists(dir.child("nowhere.json")), "a dangling link's target was created")
            let fresh = dir.child("fresh.json")
            let written = CLI.run(["convert", input.path, "-o", fresh.path, "--no-clobber"])
            #expect(written.status == 0, "\(written)")
            #expect(try contents(fresh) != Self.compact)
            #expect(leftoverTemporaries(in: dir).isEmpty)

            // A batch: the existing output is an error, the others are written.
            let batch = dir.child("batch")
            let out = dir.child("out")
            try FileManager.default.createDirectory(at: batch, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            for name in ["a.json", "b.json", "c.json"] { try Self.compact.write(to: batch.child(name)) }
            try Data("mine\n".utf8).write(to: out.child("b.json"))
            let signed = CLI.run(
                [
                    "sign", batch.path, "--out-dir", out.path, "--no-clobber", "--key", CLI.cert("leaf-rsa.key"),
                    "--cert",
                    CLI.cert("leaf-rsa.pem"),
                ])
            #expect(signed.status == 2, "\(signed)")
            #expect(try contents(out.child("b.json")) == Data("mine\n".utf8))
            #expect(try contents(out.child("a.json")).starts(with: [0x30]), "a.json signed (DER)")
            #expect(try contents(out.child("c.json")).starts(with: [0x30]), "c.json signed (DER)")
            #expect(signed.stderr.contains("b.json: error: cannot write output: the file exists"), "\(signed)")
            #expect(leftoverTemporaries(in: out).isEmpty)

            let both = CLI.run(["convert", input.path, "--in-place", "--no-clobber"])
            #expect(both.status == 64, "\(both)")
        }
    }
}
