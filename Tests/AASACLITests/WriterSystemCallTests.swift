import AASATestSupport
import Foundation
import Testing

/// The atomic writer's guarantees that no file content can show, seen in its system calls
/// (`strace`): the temporary is flushed (`fsync`) before it is renamed over the target, and
/// `--no-clobber` puts the temporary in place with `linkat`, never a rename, so that a target
/// that appears after the check is kept (issue #24).
@Suite("Atomic writes: system calls")
struct WriterSystemCallTests {
    static let compact = Data(
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"paths":["/a/*"]}]}}"#.utf8)

    /// One traced system call.
    struct Call {
        var name: String
        var line: String
        /// The quoted file names among its arguments, by their last component.
        var names: [String]
        /// The first argument, a descriptor, for `fsync`.
        var descriptor: Int32?
        /// What it returned.
        var result: Int64?
    }

    /// LeakSanitizer cannot stop a traced process (its leak check uses ptrace): when the binary
    /// has it (scripts/sanitize.sh), it is off for the traced runs only.
    static let untracedLeakCheck: [String: String] = [
        "ASAN_OPTIONS": (ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { $0 + ":" } ?? "")
            + "detect_leaks=0"
    ]

    /// Runs `aasa` under strace in `dir` and returns its result and the calls traced.
    static func trace(_ arguments: [String], in dir: URL) throws -> (CLI.Result, [Call]) {
        let log = dir.child("strace.log")
        let result = ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/strace"),
            [
                "-f", "-qq", "-s", "4096", "-o", log.path, "-e",
                "trace=openat,fsync,fdatasync,rename,renameat,renameat2,link,linkat", CLI.executable.path,
            ] + arguments, environment: Self.untracedLeakCheck, in: dir, timeout: 60)
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: log)
        var calls: [Call] = []
        for line in text.split(separator: "\n").map(String.init) {
            // "1234 renameat(3, \".x.aasa-tmp-AbC123\", 3, \"x\") = 0"
            guard let open = line.firstIndex(of: "(") else { continue }
            let head = line[..<open].split(separator: " ")
            guard let name = head.last.map(String.init) else { continue }
            var names: [String] = []
            var rest = line[open...]
            while let quote = rest.firstIndex(of: "\"") {
                let after = rest[rest.index(after: quote)...]
                guard let end = after.firstIndex(of: "\"") else { break }
                names.append(String(after[..<end].split(separator: "/").last ?? ""))
                rest = after[after.index(after: end)...]
            }
            let arguments = line[line.index(after: open)...]
            let descriptor = Int32(arguments.prefix { $0.isNumber })
            let result = line.range(of: " = ", options: .backwards).flatMap { range in
                Int64(line[range.upperBound...].prefix { $0.isNumber || $0 == "-" })
            }
            calls.append(Call(name: name, line: line, names: names, descriptor: descriptor, result: result))
        }
        return (result, calls)
    }

    /// Checks that `target` was put in place by renaming a temporary that was flushed first:
    /// the temporary's `openat` (O_CREAT), then `fsync` of its descriptor, then the rename.
    static func expectFlushedBeforeRename(
        _ target: String, in calls: [Call], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let isRename = { (call: Call) in call.name.hasPrefix("rename") && call.result == 0 }
        guard let renamed = calls.lastIndex(where: { isRename($0) && $0.names.last == target }) else {
            Issue.record("no rename onto \(target): \(calls.map(\.line))", sourceLocation: sourceLocation)
            return
        }
        let temporary = calls[renamed].names.first ?? ""
        #expect(temporary.contains(".aasa-tmp-"), "\(calls[renamed].line)", sourceLocation: sourceLocation)
        guard
            let created = calls[..<renamed].lastIndex(where: {
                $0.name == "openat" && $0.names.last == temporary && $0.line.contains("O_CREAT")
            }), let fd = calls[created].result
        else {
            Issue.record(
                "the temporary \(temporary) was never created: \(calls.map(\.line))", sourceLocation: sourceLocation)
            return
        }
        let flushed = calls[(created + 1)..<renamed].contains {
            ($0.name == "fsync" || $0.name == "fdatasync") && $0.descriptor.map(Int64.init) == fd && $0.result == 0
        }
        let between = calls[created...renamed].map(\.line)
        #expect(
            flushed, "no fsync of \(temporary) (descriptor \(fd)) between its creation and its rename: \(between)",
            sourceLocation: sourceLocation)
    }

    @Test("the temporary is flushed before it is renamed: -o, --in-place of a file, and of a directory's files")
    func fsyncBeforeRename() throws {
        try withTemporaryDirectory { dir in
            try Self.compact.write(to: dir.child("in.json"))
            let (single, singleCalls) = try Self.trace(["convert", "in.json", "-o", "out.json"], in: dir)
            #expect(single.status == 0, "\(single)")
            Self.expectFlushedBeforeRename("out.json", in: singleCalls)

            let (inPlace, inPlaceCalls) = try Self.trace(["convert", "--in-place", "in.json"], in: dir)
            #expect(inPlace.status == 0, "\(inPlace)")
            Self.expectFlushedBeforeRename("in.json", in: inPlaceCalls)

            try FileManager.default.createDirectory(at: dir.child("site/d"), withIntermediateDirectories: true)
            try Self.compact.write(to: dir.child("site/a.json"))
            try Self.compact.write(to: dir.child("site/d/b.json"))
            let (batch, batchCalls) = try Self.trace(["convert", "--in-place", "site", "--jobs", "1"], in: dir)
            #expect(batch.status == 0, "\(batch)")
            Self.expectFlushedBeforeRename("a.json", in: batchCalls)
            Self.expectFlushedBeforeRename("b.json", in: batchCalls)
        }
    }

    @Test("--no-clobber puts the file in place with linkat, never a rename")
    func noClobberLinks() throws {
        try withTemporaryDirectory { dir in
            try Self.compact.write(to: dir.child("in.json"))
            let (result, calls) = try Self.trace(["convert", "in.json", "-o", "out.json", "--no-clobber"], in: dir)
            #expect(result.status == 0, "\(result)")
            #expect(
                calls.contains {
                    $0.name == "linkat" && $0.result == 0 && $0.names.count == 2 && $0.names[0].contains(".aasa-tmp-")
                        && $0.names[1] == "out.json"
                }, "\(calls.map(\.line))")
            #expect(
                !calls.contains { $0.name.hasPrefix("rename") && $0.names.last == "out.json" }, "\(calls.map(\.line))")
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    /// strace holds the temporary's `fsync` for 3 s: the check that the name is free is done,
    /// and the output is put in place only after the test has created it.
    @Test("--no-clobber keeps a target that appears after the check")
    func noClobberRace() throws {
        try withTemporaryDirectory { dir in
            try Self.compact.write(to: dir.child("in.json"))
            let result = CLI.script(
                """
                # LeakSanitizer cannot stop a traced process (its leak check uses ptrace): off
                # for this run only, when the binary has it; every other run checks leaks.
                ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \\
                strace -f -qq -o /dev/null -e trace=fsync -e inject=fsync:delay_exit=3000000 \\
                    "$AASA" convert in.json -o out.json --no-clobber &
                pid=$!
                trap 'kill $pid 2>/dev/null' EXIT
                for i in $(seq 1 3000); do
                    compgen -G '.out.json.aasa-tmp-*' >/dev/null && break
                    sleep 0.01
                done
                compgen -G '.out.json.aasa-tmp-*' >/dev/null || exit 92
                printf 'PLANTED\\n' > out.json
                wait $pid
                """, in: dir, timeout: 90)
            #expect(result.status == 2, "\(result)")
            #expect(
                result.stderrLines.contains(
                    "out.json: error: cannot write output: the file exists and --no-clobber keeps it; nothing written"),
                "\(result)")
            #expect(try contents(dir.child("out.json")) == Data("PLANTED\n".utf8))
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }
}
