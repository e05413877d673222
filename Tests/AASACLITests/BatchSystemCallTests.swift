import AASATestSupport
import Foundation
import Testing

/// Issue #29: what reading a found file costs in system calls. The directory the user named is
/// opened by its path once per batch thread, not once per file (`RecentDirectory`), and on Linux
/// a regular file's `O_NONBLOCK` is not cleared (it does not apply to regular files), while every
/// subdirectory is still opened for each file without following a link (TreeRaceTests).
@Suite("Batch system calls per file")
struct BatchSystemCallTests {
    /// `strace`'s trace of `aasa verify site --jobs N` over `count` signed files, two of them in a
    /// subdirectory: how often the root is opened by its path, `sub` in it, and `fcntl(F_SETFL)` runs.
    static func trace(count: Int, jobs: Int) throws -> (
        rootOpens: Int, subOpens: Int, fcntls: Int, result: CLI.Result
    ) {
        try withTemporaryDirectory { dir in
            let site = dir.child("site")
            try FileManager.default.createDirectory(at: site.child("sub"), withIntermediateDirectories: true)
            let signed = try Fixture.signedFile(in: dir)
            for index in 0..<count {
                let target = index < 2 ? site.child("sub/f\(index).p7m") : site.child("f\(index).p7m")
                try FileManager.default.copyItem(at: signed, to: target)
            }
            let result = CLI.script(
                """
                ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \\
                strace -f -qq -o trace.txt -e trace=openat,open,fcntl \\
                    "$AASA" verify "$PWD/site" --jobs \(jobs) \(Fixture.testTrust.joined(separator: " ")) -q
                """, in: dir, timeout: 90)
            let lines = try String(contentsOf: dir.child("trace.txt"), encoding: .utf8).split(separator: "\n")
            let rootOpens = lines.filter { $0.contains("openat(AT_FDCWD, \"\(site.path)\"") }.count
            let subOpens = lines.filter { $0.contains(", \"sub\", ") && $0.contains("O_NOFOLLOW") }.count
            // F_SETFL is how O_NONBLOCK would be cleared (the walk's fdopendir makes other calls).
            let fcntls = lines.filter { $0.contains("fcntl(") && $0.contains("F_SETFL") }.count
            return (rootOpens, subOpens, fcntls, result)
        }
    }

    @Test(
        "the root is opened once by the walk and once per job, a subdirectory for each of its files", arguments: [1, 2])
    func rootOpenedOncePerThread(jobs: Int) throws {
        let (rootOpens, subOpens, fcntls, result) = try Self.trace(count: 12, jobs: jobs)
        #expect(result.status == 0, "\(result)")
        // The walk opens the root once (opendir); each worker thread once more for its reads.
        #expect(rootOpens >= 2 && rootOpens <= 1 + jobs, "the root was opened \(rootOpens) times for 12 files")
        // Each of the two files in site/sub opens site/sub itself, without following a link.
        #expect(subOpens >= 2, "site/sub was opened \(subOpens) times for its 2 files")
        #if os(Linux)
            #expect(fcntls == 0, "\(fcntls) fcntl(F_SETFL) calls for 12 files")
        #endif
    }
}
