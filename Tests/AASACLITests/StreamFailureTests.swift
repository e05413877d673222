import AASATestSupport
import Foundation
import Testing

/// Issue #15: no write failure traps. Standard output that cannot be written is one line and
/// exit 2, or, for a reader that went away (EPIPE, with SIGPIPE ignored as a parent may leave
/// it), a quiet exit 141 as other Unix tools give; standard error that cannot be written is
/// ignored. Before, Foundation's `FileHandle.write(_:)` ended these runs with SIGILL (132).
@Suite("Standard streams that cannot be written")
struct StreamFailureTests {
    static let bash = URL(fileURLWithPath: "/bin/bash")
    static let example = Repository.examples.appendingPathComponent("apple-app-site-association.p7m").path

    /// Runs `aasa ARGS` under bash with `redirections` applied to it (e.g. `> /dev/full`).
    static func run(_ arguments: [String], redirections: String, ignoringSIGPIPE: Bool = false) -> ProcessResult {
        let script = (ignoringSIGPIPE ? "trap '' PIPE; " : "") + "\"$0\" \"$@\" \(redirections)"
        return ProcessRunner.run(bash, ["-c", script, CLI.executable.path] + arguments)
    }

    @Test("inspect > /dev/full: one line naming the cause, exit 2", arguments: ["text", "json"])
    func inspectToFullDisk(format: String) {
        let result = Self.run(["inspect", Self.example, "--format", format], redirections: "> /dev/full")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderrLines == ["<stdout>: error: cannot write output: No space left on device"], "\(result)")
    }

    @Test("a batch > /dev/full: the failure once, exit 2", arguments: ["detect", "lint"])
    func batchToFullDisk(command: String) throws {
        try withTemporaryDirectory { dir in
            for index in 0..<3 { try Fixture.write(to: dir, as: "f\(index).json") }
            let result = Self.run([command, dir.path], redirections: "> /dev/full")
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.filter { $0.contains("cannot write output") }.count == 1, "\(result)")
        }
    }

    @Test("standard error closed or full: no trap, the exit status still tells", arguments: ["2>&-", "2>/dev/full"])
    func closedStandardError(redirection: String) {
        let missing = Self.run(["verify", "/nonexistent/file.p7m"], redirections: redirection)
        #expect(missing.status == 2, "\(missing)")
        let valid = Self.run(
            [
                "verify", Self.example, "--ca-file", CLI.cert("ca-bundle.pem"), "--no-system-roots",
                "--allow-weak-crypto",
            ],
            redirections: redirection)
        #expect(valid.status == 0, "\(valid)")
    }

    /// Issue #24: lint's summary and notes go to standard error; when they cannot be written
    /// the run is not a success (2), whatever its findings would give (0 here: one info).
    @Test("lint 2>/dev/full: status 2, not 0", arguments: ["text", "json"])
    func lintWithFullStandardError(format: String) throws {
        try withTemporaryDirectory { dir in
            let file = dir.child("a.json")
            try Data(
                #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/a"}],"x":1}]}}"#
                    .utf8
            ).write(to: file)
            let clean = Self.run(["lint", "--no-config", file.path, "--format", format], redirections: "2>/dev/null")
            #expect(clean.status == 0, "\(clean)")
            let full = Self.run(["lint", "--no-config", file.path, "--format", format], redirections: "2>/dev/full")
            #expect(full.status == (format == "text" ? 2 : 0), "\(full)")
        }
    }

    /// More output than a pipe holds, into a reader that reads one byte and leaves.
    @Test("a reader that goes away (EPIPE with SIGPIPE ignored): exit 141, nothing on stderr")
    func brokenPipe() throws {
        try withTemporaryDirectory { dir in
            for index in 0..<2_000 { try Data("{}\n".utf8).write(to: dir.child("file-\(index).json")) }
            let result = Self.run(
                ["detect", dir.path],
                redirections: "2> \(dir.path)/stderr | head -c 1 > /dev/null; exit ${PIPESTATUS[0]}",
                ignoringSIGPIPE: true)
            #expect(result.status == 141, "\(result)")
            #expect(try Data(contentsOf: dir.child("stderr")).isEmpty)
        }
    }
}
