import AASATestSupport
import Foundation
import Testing

/// `--files-from` at scale (issue #16): 100,000 names, each reported once and in order, and a
/// peak memory that does not grow with the length of the list (the list is read as the
/// workers take files, never held whole).
@Suite("batch: --files-from at scale", .serialized)
struct FilesFromScaleTests {
    /// 1,000 tiny JSON files in `dir` (f000.json …) and a list of `count` of their paths: the
    /// files in a shuffled order, again and again, so that a name out of place shows.
    static func list(_ count: Int, in dir: URL) throws -> (list: URL, names: [String]) {
        let files = try (0..<1_000).map { index -> String in
            let url = dir.child(String(format: "f%03d.json", index))
            if !FileManager.default.fileExists(atPath: url.path) { try Data("{}\n".utf8).write(to: url) }
            return url.path
        }
        var generator = SplitMix(seed: 16)
        let order = files.shuffled(using: &generator)
        let names = (0..<count).map { order[($0 * 7 + $0 / 1_000) % order.count] }
        let listFile = dir.child("list-\(count)")
        try Data(names.map { $0 + "\n" }.joined().utf8).write(to: listFile)
        return (listFile, names)
    }

    @Test("100,000 names: every one reported once, in list order, then the summary")
    func hundredThousandInOrder() throws {
        try withTemporaryDirectory { dir in
            let (listFile, names) = try Self.list(100_000, in: dir)
            let result = CLI.run(["detect", "--files-from", listFile.path])
            #expect(result.status == 0, "\(result)")
            let lines = result.stdoutText.split(separator: "\n").map(String.init)
            #expect(lines.count == 100_000)
            #expect(lines == names.map { "\($0): json" })
            #expect(result.stderrLines == ["detect: 100000 files: 100000 json"])
        }
    }

    /// Whether this test process, and so the `aasa` built with it, runs under
    /// AddressSanitizer (scripts/sanitize.sh): its quarantine keeps freed memory, up to
    /// 256 MB, so the peak grows with the number of files processed whatever aasa does.
    static let underAddressSanitizer: Bool = {
        guard let program = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(program) }
        return dlsym(program, "__asan_init") != nil
    }()

    @Test(
        "peak memory with 100,000 names is within 4 MB of that with 10,000",
        .disabled(
            if: underAddressSanitizer,
            "AddressSanitizer's quarantine makes the peak grow with the number of files, whatever aasa holds"))
    func flatMemory() throws {
        let time = URL(fileURLWithPath: "/usr/bin/time")
        try #require(
            FileManager.default.isExecutableFile(atPath: time.path),
            "GNU time is needed for the child's own peak (scripts/test.sh installs it: scripts/ensure-deps.sh time)")
        try withTemporaryDirectory { dir in
            func peakKilobytes(_ count: Int) throws -> Int {
                let (listFile, _) = try Self.list(count, in: dir)
                let report = dir.child("time-\(count)")
                // GNU time forks the child from its own small process: the child's peak is its
                // own. getrusage(RUSAGE_CHILDREN) here would mix in every child of the test
                // process, and a child started by posix_spawn (vfork) starts from this
                // process's high-water mark.
                let result = ProcessRunner.run(
                    time, ["-f", "%M", "-o", report.path, CLI.executable.path, "detect", "--files-from", listFile.path])
                try #require(result.status == 0, "\(result)")
                let text = try String(contentsOf: report, encoding: .utf8)
                return try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), "time wrote \(text)")
            }
            let small = try peakKilobytes(10_000)
            let large = try peakKilobytes(100_000)
            // Holding 90,000 more names (path strings, batch inputs, results) costs well over
            // 10 MB; streaming them costs nothing. 4 MB leaves room for allocator noise.
            #expect(large - small < 4 * 1024, "peak \(small) KB with 10,000 names, \(large) KB with 100,000")
        }
    }
}

/// A seeded generator, so that the shuffled order is the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
