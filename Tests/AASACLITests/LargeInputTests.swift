import AASATestSupport
import Foundation
import Testing

/// A file exactly at the input limit, made of the app identifiers that made `check` quadratic
/// (GitHub issue #24: a 2.4 MB file took 196 s, where `lint` took under a second). The limit is
/// set to 4 MiB here to keep the suite short; the figures at the default 16 MiB are in
/// docs/performance.md (`benchmarks/bench-input-limit.sh`). The time limit is a generous guard
/// against a return to quadratic work (hours at this size), not a speed target.
@Suite("A file at the input limit")
struct LargeInputTests {
    static let limit = 4 * 1024 * 1024

    /// `count` applinks entries of one identifier and one pattern each, and the same identifiers
    /// in webcredentials and appclips, padded with spaces to exactly `size` bytes.
    static func document(entries count: Int, size: Int) -> Data? {
        let ids = (0..<count).map { "ABCDE12345.com.example.app\($0)" }
        let details = ids.map { #"{"appIDs":["\#($0)"],"components":[{"/":"/\#($0)/*"}]}"# }
        let list = ids.map { "\"\($0)\"" }.joined(separator: ",")
        var json = #"{"applinks":{"details":["# + details.joined(separator: ",") + "]},"
        json += #""webcredentials":{"apps":["# + list + #"]},"appclips":{"apps":["# + list + "]}}"
        guard json.utf8.count <= size else { return nil }
        return Data(json.utf8) + Data(repeating: 0x20, count: size - json.utf8.count)
    }

    @Test("check and lint of a file of 20,000 entries and 40,000 identifiers at the input limit finish")
    func checkAtTheLimit() throws {
        try withTemporaryDirectory { dir in
            let data = try #require(Self.document(entries: 20_000, size: Self.limit), "fits in the limit")
            try #require(data.count == Self.limit)
            let file = dir.child("apple-app-site-association")
            try data.write(to: file)
            let limit = ["--max-input-size", String(Self.limit)]
            let check = CLI.run(["check", file.path, "--format", "json"] + limit, timeout: 300)
            #expect(
                !check.timedOut && [0, 1].contains(check.status), "\(check.seconds) s: \(check.stderr.prefix(500))")
            let report = try #require(try check.jsonObject()["report"] as? [String: Any])
            let effect = try #require(report["effect"] as? [String: Any], "\(report.keys)")
            #expect((effect["universalLinks"] as? [Any])?.count == 20_000)
            #expect((effect["appClips"] as? [Any])?.count == 20_000)
            let lint = CLI.run(["lint", file.path] + limit, timeout: 300)
            #expect(!lint.timedOut && [0, 1].contains(lint.status), "\(lint.seconds) s: \(lint.stderr.prefix(500))")
            // One byte more is refused unread.
            try (data + Data(" ".utf8)).write(to: file)
            let over = CLI.run(["check", file.path] + limit, timeout: 300)
            #expect(over.status == 2, "\(over)")
        }
    }
}
