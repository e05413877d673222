import AASA
import Foundation
import Testing

@Suite("Lint: Baseline")
struct BaselineTests {
    /// Two entries with an empty app identifier: two `empty-appid` findings that share a
    /// fingerprint (the same rule, file, path without indices and message).
    static let twoEmpty = Data(
        #"{"applinks":{"details":[{"appIDs":[""],"components":[{"/":"/a"}]},{"appIDs":[""],"components":[{"/":"/b"}]}]}}"#
            .utf8)

    static func findings(_ data: Data, path: String = "a.json") -> [(path: String, diagnostic: Diagnostic)] {
        Linter.lint(data).diagnostics.map { (path, $0) }
    }

    @Test("identical findings share one entry with a count; entries are sorted")
    func counts() throws {
        let findings = Self.findings(Self.twoEmpty)
        let empty = findings.filter { $0.diagnostic.rule == .emptyAppID }
        #expect(empty.count == 2, "\(findings.map(\.diagnostic.rule))")
        let baseline = try Baseline(findings: findings)
        let entry = try #require(baseline.entries.first { $0.rule == .emptyAppID })
        #expect(entry.count == 2)
        #expect(baseline.entries.filter { $0.rule == .emptyAppID }.count == 1)
        let keys = baseline.entries.map { [$0.file, $0.rule.rawValue, $0.message, $0.fingerprint.value] }
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test("match is count-aware: 2 of a fingerprint absorb 2 findings, a third is new; the rest is stale")
    func match() throws {
        let baseline = try Baseline(findings: Self.findings(Self.twoEmpty))
        let all = Linter.lint(Self.twoEmpty).diagnostics
        let same = try baseline.match(all, path: "a.json")
        #expect(same.new.isEmpty && same.absorbed == all.count && same.stale.isEmpty)

        let empty = try #require(all.first { $0.rule == .emptyAppID })
        let three = try baseline.match(all + [empty], path: "a.json")
        #expect(three.new == [empty] && three.absorbed == all.count)

        var fewer = all
        fewer.remove(at: try #require(all.firstIndex(of: empty)))
        let stale = try baseline.match(fewer, path: "a.json")
        #expect(stale.new.isEmpty && stale.absorbed == all.count - 1)
        #expect(stale.stale.map(\.rule) == [.emptyAppID] && stale.stale.first?.count == 1, "\(stale.stale)")

        // The same findings in another file are new: the path is part of the fingerprint.
        let other = try baseline.match(all, path: "b.json")
        #expect(other.new == all && other.absorbed == 0)
        #expect(baseline.unchecked(linted: ["a.json"]) == 0)
        #expect(baseline.unchecked(linted: ["b.json"]) == baseline.entries.reduce(0) { $0 + $1.count })
    }

    @Test("the file reads back as written")
    func roundTrip() throws {
        let baseline = try Baseline(findings: Self.findings(Self.twoEmpty) + Self.findings(Self.twoEmpty, path: "z"))
        let data = try baseline.encoded()
        #expect(try Baseline(json: data) == baseline)
        #expect(String(decoding: data, as: UTF8.self).hasSuffix("\n"))
    }

    @Test(
        "a malformed baseline is one error naming the place",
        arguments: [
            ("[]", "$: expected an object"),
            ("{\"schemaVersion\":1}", "findings: missing"),
            ("{\"findings\":[]}", "schemaVersion: missing"),
            ("{\"schemaVersion\":2,\"findings\":[]}", "schemaVersion: 2 is not supported"),
            ("{\"schemaVersion\":1,\"findings\":[],}", "not JSON: 1:"),
            ("{\"schemaVersion\":1,\"findings\":[],\"extra\":1}", "extra: unknown key"),
            ("{\"schemaVersion\":1,\"findings\":[1]}", "findings[0]: expected an object"),
            (
                "{\"schemaVersion\":1,\"findings\":[{\"fingerprint\":\"v1:00\",\"rule\":\"r\",\"file\":\"f\",\"message\":\"m\",\"count\":1}]}",
                "findings[0].fingerprint: expected v1:"
            ),
            (
                "{\"schemaVersion\":1,\"findings\":[{\"fingerprint\":\"v1:0123456789abcdef0123456789abcdef\",\"rule\":\"r\",\"file\":\"f\",\"message\":\"m\",\"count\":0}]}",
                "findings[0].count: expected an integer of at least 1"
            ),
            (
                "{\"schemaVersion\":1,\"findings\":[{\"fingerprint\":\"v1:0123456789abcdef0123456789abcdef\",\"rule\":\"r\",\"file\":\"f\",\"count\":1}]}",
                "findings[0].message: missing"
            ),
        ])
    func malformed(text: String, message: String) {
        do {
            _ = try Baseline(json: Data(text.utf8))
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    @Test("a well-formed entry is accepted (the boundary of the checks above)")
    func wellFormed() throws {
        let text =
            "{\"schemaVersion\":1,\"findings\":[{\"fingerprint\":\"v1:0123456789abcdef0123456789abcdef\",\"rule\":\"r\",\"file\":\"f\",\"message\":\"m\",\"count\":1}]}"
        let baseline = try Baseline(json: Data(text.utf8))
        #expect(baseline.entries.count == 1 && baseline.entries[0].count == 1)
    }

    /// A baseline entry as its file holds it, with `count`.
    static func entryJSON(fingerprint: String, file: String = "a.json", count: String) -> String {
        #"{"count": \#(count), "file": "\#(file)", "fingerprint": "\#(fingerprint)", "message": "m", "rule": "empty-appid"}"#
    }

    /// Issue #24: counts whose sum passes Int.max ended `aasa lint --baseline` with SIGILL (the
    /// merge of two entries of one fingerprint, and the sum over files not linted).
    @Test("counts that add up past Int.max: a format error, and no sum of counts traps")
    func countsPastIntMax() throws {
        let fingerprint = "v1:" + String(repeating: "a", count: 32)
        let other = "v1:" + String(repeating: "b", count: 32)
        for (first, second) in [(fingerprint, fingerprint), (fingerprint, other)] {
            let json =
                #"{"schemaVersion": 1, "findings": ["#
                + Self.entryJSON(fingerprint: first, count: String(Int.max)) + ", "
                + Self.entryJSON(fingerprint: second, file: "b.json", count: "1") + "]}"
            let error = #expect(throws: Baseline.FormatError.self) { try Baseline(json: Data(json.utf8)) }
            #expect(error?.message == "findings: the counts add up to more than \(Int.max)")
        }
        // Exactly Int.max in all is a baseline.
        let exact =
            #"{"schemaVersion": 1, "findings": ["#
            + Self.entryJSON(fingerprint: fingerprint, count: String(Int.max - 1)) + ", "
            + Self.entryJSON(fingerprint: other, file: "b.json", count: "1") + "]}"
        #expect(try Baseline(json: Data(exact.utf8)).unchecked(linted: []) == Int.max)
        // Built in code, the counts are capped where they would overflow, never trapped on.
        let big = [
            Baseline.Entry(
                fingerprint: FindingFingerprint(value: fingerprint), rule: .emptyAppID, file: "a.json", message: "m",
                count: Int.max),
            Baseline.Entry(
                fingerprint: FindingFingerprint(value: fingerprint), rule: .emptyAppID, file: "a.json", message: "m",
                count: Int.max),
            Baseline.Entry(
                fingerprint: FindingFingerprint(value: other), rule: .emptyAppID, file: "b.json", message: "m",
                count: Int.max),
        ]
        let capped = Baseline(entries: big)
        #expect(capped.entries.map(\.count) == [Int.max, Int.max])
        #expect(capped.unchecked(linted: []) == Int.max)
        #expect(Baseline.cappedSum(Int.max, 1) == Int.max && Baseline.cappedSum(2, 3) == 5)
    }

    /// Issue #24, the guarantee at its edge: a `duplicate-appid` message quotes where the first
    /// occurrence is, array indices included (`at $.applinks.details[0].appIDs[0], line 4,
    /// column 21`). An entry inserted before both moves every index and line in that text; the
    /// baseline written before the edit must still accept the finding after it.
    @Test("a finding whose message quotes array indices is still accepted after an entry is inserted before it")
    func indicesInTheMessage() throws {
        func document(inserting extra: String) -> Data {
            Data(
                """
                {"applinks": {"details": [\(extra)
                  {"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a/*"}]},
                  {"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/b/*"}]}
                ]}}
                """.utf8)
        }
        let before = Linter.lint(document(inserting: "")).diagnostics
        let after = Linter.lint(
            document(
                inserting: "\n" + #"  {"appIDs": ["ABCDE12345.com.example.other"], "components": [{"/": "/c/*"}]},"#)
        ).diagnostics
        let duplicate = try #require(before.first { $0.rule == .duplicateAppID }, "\(before.map(\.rule))")
        let moved = try #require(after.first { $0.rule == .duplicateAppID }, "\(after.map(\.rule))")
        // The messages differ in the indices and the line they quote: the edit is what it says.
        #expect(duplicate.message.contains("details[0]") && moved.message.contains("details[1]"))
        #expect(duplicate.message != moved.message)
        let baseline = try Baseline(findings: before.map { ("a.json", $0) })
        let match = try baseline.match(after, path: "a.json")
        #expect(!match.new.contains { $0.rule == .duplicateAppID }, "\(match.new.map(\.message))")
        #expect(match.stale.isEmpty, "\(match.stale.map(\.message))")
    }
}
