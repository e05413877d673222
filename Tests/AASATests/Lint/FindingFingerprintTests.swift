import AASA
import AASATestSupport
import Foundation
import Testing

/// ``FindingFingerprint``: what a baseline and SARIF's partialFingerprints identify a finding by.
@Suite("finding fingerprints")
struct FindingFingerprintTests {
    static func finding(
        _ rule: RuleID = .unknownKey, _ message: String = "unknown key 'pathz'",
        path: JSONPath = JSONPath([.key("applinks"), .key("details"), .index(3), .key("pathz")]), line: Int? = 7
    ) -> Diagnostic {
        Diagnostic(rule, message, at: DiagnosticLocation(path: path, line: line, column: 9))
    }

    @Test("the digest is OpenSSL's SHA-256 of the length-prefixed fields, as `openssl dgst -sha256` computes it")
    func knownAnswer() throws {
        let diagnostic = Self.finding()
        let fields = ["v1", "unknown-key", "site/aasa.json", "k8:applinksk7:details[]k5:pathz", "unknown key 'pathz'"]
        let bytes = Data(fields.flatMap { Array("\($0.utf8.count):".utf8) + Array($0.utf8) })
        let result = ProcessRunner.run(Executables.openssl, ["dgst", "-sha256", "-r"], stdin: bytes)
        try #require(result.status == 0, "\(result)")
        let expected = try #require(String(decoding: result.stdout, as: UTF8.self).split(separator: " ").first)
        let fingerprint = try FindingFingerprint(diagnostic, path: "site/aasa.json")
        #expect(fingerprint.value == "v1:" + expected.prefix(32))
        #expect(try SHA256Digest.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("lines, columns and array indices do not change it; rule, file, keys and message do")
    func stableAcrossEdits() throws {
        let base = try FindingFingerprint(Self.finding(), path: "a.json")
        let moved = Self.finding(
            path: JSONPath([.key("applinks"), .key("details"), .index(0), .key("pathz")]), line: 40)
        #expect(try FindingFingerprint(moved, path: "a.json") == base)
        #expect(try FindingFingerprint(Self.finding(), path: "b.json") != base)
        #expect(try FindingFingerprint(Self.finding(.wrongType), path: "a.json") != base)
        #expect(try FindingFingerprint(Self.finding(.unknownKey, "unknown key 'pathy'"), path: "a.json") != base)
        let otherKey = Self.finding(path: JSONPath([.key("applinks"), .key("details"), .index(3), .key("paths")]))
        #expect(try FindingFingerprint(otherKey, path: "a.json") != base)
        // A key holding a dot is not the two keys it looks like.
        let dotted = Self.finding(path: JSONPath([.key("applinks.details"), .index(3), .key("pathz")]))
        #expect(try FindingFingerprint(dotted, path: "a.json") != base)
    }

    @Test("it encodes as a bare string and decodes back")
    func codable() throws {
        let fingerprint = try FindingFingerprint(Self.finding(), path: "a.json")
        let data = try JSONEncoder().encode([fingerprint])
        #expect(String(decoding: data, as: UTF8.self) == "[\"\(fingerprint.value)\"]")
        #expect(try JSONDecoder().decode([FindingFingerprint].self, from: data) == [fingerprint])
    }
}
