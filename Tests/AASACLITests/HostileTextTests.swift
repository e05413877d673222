import AASATestSupport
import Foundation
import Testing

/// Issue #15, probe 1: text from a file (its name, its JSON keys and values, the URLs of a list)
/// never reaches the terminal raw. The property, for every command's text output and every
/// diagnostic: no byte but LF below 0x20, no DEL, no C1 control, no line or paragraph separator,
/// no bidirectional override or isolate; and every line of standard error is one diagnostic.
@Suite("Hostile text in file names and contents")
struct HostileTextTests {
    /// What an attacker writes: a line end, a carriage return, a terminal escape (set the
    /// title), DEL, a C1 control (CSI), a right-to-left override, an isolate, a separator.
    static let hostile = ["\n", "\r", "\u{1B}]0;pwned\u{7}", "\u{7F}", "\u{9B}31m", "\u{202E}", "\u{2066}", "\u{2028}"]

    /// The bytes, or (for multi-byte characters) UTF-8 sequences, no text output may hold.
    static func violations(_ data: Data) -> [String] {
        var found: [String] = []
        let text = String(decoding: data, as: UTF8.self)
        for scalar in text.unicodeScalars where scalar != "\n" {
            let value = scalar.value
            if value < 0x20 || (0x7F...0x9F).contains(value) || [0x2028, 0x2029].contains(value)
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            {
                found.append("U+\(String(value, radix: 16, uppercase: true))")
            }
        }
        return found
    }

    static func expectClean(
        _ result: ProcessResult, lines expected: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            violations(result.stdout).isEmpty, "stdout: \(violations(result.stdout)) in \(result)",
            sourceLocation: sourceLocation)
        #expect(violations(Data(result.stderr.utf8)).isEmpty, "stderr: \(result)", sourceLocation: sourceLocation)
        for line in result.stderrLines {
            // A diagnostic (`PATH: severity: …`), a batch summary (`verify: …`), or lint's counts.
            let diagnostic = [": error: ", ": warning: ", ": note: "].contains { line.contains($0) }
            let summary = ["verify: ", "detect: ", "lint: "].contains { line.hasPrefix($0) }
            let counts = line.first?.isNumber == true && line.contains(" file")
            #expect(diagnostic || summary || counts, "not one diagnostic: \(line)", sourceLocation: sourceLocation)
        }
        if let expected {
            #expect(
                result.stdoutText.split(separator: "\n").count == expected, "\(result)", sourceLocation: sourceLocation)
        }
    }

    /// A key and a value holding `text`, in an otherwise valid file, as JSON escapes.
    static func document(with text: String) throws -> Data {
        let escaped = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
        return Data(
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example\#(escaped.dropFirst().dropLast())"], "components": [{"/": "/a\#(escaped.dropFirst().dropLast())*"}]}], "x\#(escaped.dropFirst().dropLast())y": 1}}"#
                .utf8)
    }

    @Test("lint, check and match --explain on a file whose keys and values hold controls", arguments: hostile)
    func contents(text: String) throws {
        try withTemporaryDirectory { dir in
            let file = dir.child("aasa.json")
            try Self.document(with: text).write(to: file)
            Self.expectClean(CLI.run(["lint", file.path]))
            Self.expectClean(CLI.run(["check", file.path]))
            Self.expectClean(CLI.run(["match", file.path, "/a\(text)b", "--explain"]))
        }
    }

    @Test("file names with controls: one line per file in verify, detect and lint batches", arguments: hostile)
    func fileNames(text: String) throws {
        try withTemporaryDirectory { dir in
            let batch = dir.child("batch")
            try FileManager.default.createDirectory(at: batch, withIntermediateDirectories: true)
            // The name that forged a `valid` line for a tampered file.
            let signed = batch.child("evil.p7m: valid\(text)x.p7m")
            try FileManager.default.moveItem(at: try Fixture.signedFile(in: dir, name: "evil.p7m"), to: signed)
            try FileManager.default.moveItem(
                at: try Fixture.signedFile(in: dir, name: "good.p7m"), to: batch.child("good.p7m"))
            var tampered = try Data(contentsOf: signed)
            let at = try #require(tampered.firstRange(of: Data("/*".utf8))).lowerBound
            tampered[at + 1] = UInt8(ascii: "x")
            try tampered.write(to: signed)
            let verify = CLI.run(["verify", batch.path] + Fixture.testTrust)
            Self.expectClean(verify, lines: 2)
            #expect(verify.stdoutText.split(separator: "\n").filter { $0.hasSuffix(": valid") }.count == 1, "\(verify)")
            Self.expectClean(CLI.run(["detect", batch.path]), lines: 2)
            Self.expectClean(CLI.run(["lint", batch.path]))
            Self.expectClean(CLI.run(["inspect", signed.path]))
        }
    }

    @Test("URLs of a list with controls (a CR inside a line, escapes)", arguments: hostile.filter { $0 != "\n" })
    func urlList(text: String) throws {
        try withTemporaryDirectory { dir in
            let file = dir.child("aasa.json")
            try Self.document(with: "").write(to: file)
            let urls = dir.child("urls.txt")
            try Data("/a/one\n/a/t\(text)wo\n/b\(text)\n".utf8).write(to: urls)
            Self.expectClean(CLI.run(["match", file.path, "--urls-file", urls.path]), lines: 3)
        }
    }
}
