import AASATestSupport
import Foundation
import Testing

/// Issue #24: a FIFO where a batch expects a file must not hang it. A FIFO found by the walk
/// is reported, never opened; a file replaced by a FIFO after the walk is opened without
/// blocking (`O_NONBLOCK`), seen not to be a regular file, and reported. Either way the batch
/// goes on and finishes: every run here has a time limit, and a hang fails the test.
@Suite("FIFOs in a batch")
struct FIFOInputTests {
    static let compact = Data(
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"paths":["/a/*"]}]}}"#.utf8)

    /// `site/a.json`, `site/b.json`, `site/c.json` in `dir`.
    static func makeSite(in dir: URL) throws {
        try FileManager.default.createDirectory(at: dir.child("site"), withIntermediateDirectories: true)
        for name in ["a.json", "b.json", "c.json"] { try compact.write(to: dir.child("site/\(name)")) }
    }

    @Test("a FIFO found by the walk is one error line, not skipped silently, and the batch finishes")
    func foundByWalk() throws {
        try withTemporaryDirectory { dir in
            try Self.makeSite(in: dir)
            #expect(mkfifo(dir.child("site/pipe").path, 0o644) == 0)
            let result = ProcessRunner.run(
                CLI.executable, ["convert", "site", "--out-dir", "out"], in: dir, timeout: 30)
            #expect(!result.timedOut, "\(result)")
            #expect(result.status == 2, "\(result)")
            #expect(
                result.stderrLines.contains("site/pipe: error: cannot read: it is a FIFO, not a regular file"),
                "\(result)")
            for name in ["a.json", "b.json", "c.json"] {
                #expect(fileExists(dir.child("out/\(name)")), "\(name) converted: \(result)")
            }
            #expect(!fileExists(dir.child("out/pipe")))
        }
    }

    /// `aasa convert` opens a `--files-from` FIFO once it has walked the directories named on
    /// the command line, and reads it to its end before it converts anything: `b.json` becomes
    /// a FIFO between its walk and its read. `aasa` runs under `timeout`, so that a hang is a
    /// failure, not a process left behind.
    @Test("a file replaced by a FIFO after the walk is one error line, and the batch finishes")
    func swappedAfterWalk() throws {
        try withTemporaryDirectory { dir in
            try Self.makeSite(in: dir)
            try Self.compact.write(to: dir.child("extra.json"))
            let result = CLI.script(
                """
                mkfifo list || exit 90
                timeout -k 2 25 "$AASA" convert site --out-dir out --files-from list --jobs 1 &
                pid=$!
                trap 'kill $pid 2>/dev/null' EXIT
                exec 3>list
                rm site/b.json && mkfifo site/b.json || exit 91
                printf 'extra.json\\n' >&3
                exec 3>&-
                wait $pid
                """, in: dir, timeout: 30)
            #expect(!result.timedOut, "a FIFO hung the batch: \(result)")
            #expect(result.status == 2, "\(result)")
            #expect(
                result.stderrLines.contains("site/b.json: error: cannot read input: it is a FIFO, not a regular file"),
                "\(result)")
            #expect(result.stderr.contains("site/c.json") || result.stdoutText.contains("site/c.json"), "\(result)")
        }
    }
}
