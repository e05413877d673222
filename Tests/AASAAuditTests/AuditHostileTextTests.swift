import Foundation
import Testing

/// What the hostile hosts of ``NginxServer`` serve (issue #15).
extension Fixtures {
    /// Valid JSON whose appIDs, paths, components and a key hold, as JSON escapes, a terminal
    /// title sequence (ESC ] … BEL), a colour (ESC [ 31m), a clear-screen, a newline followed by
    /// a forged report line, a carriage return, U+202E, a C1 CSI and U+2028.
    static let hostile = Data(
        #"""
        {"applinks": {"details": [{"appIDs": ["AB\u001b]0;title\u0007.com.example", "ABCDE12345.x\nother.example: ok"], "paths": ["/a\r\u202e*"], "components": [{"/": "/a\u001b[31m*", "?": 5, "#": "\r\u202e"}]}], "k\u001b[2Jey\nother.example:443: current": 1}, "webcredentials": {"apps": ["\u009b31mX.y\u2028z"]}}

        """#.utf8)

    /// Headers that the HTTP parser lets through (UTF-8: obs-text) but a terminal obeys or
    /// reorders: U+202E, U+2066, the C1 controls CSI (U+009B) and NEL (U+0085), U+2028, U+2029.
    static let hostileContentType = "application/json; x=\u{202E}\u{9B}2J\u{85}\u{2028}"
    static let hostileLocation = "https://evil.example/\u{202E}\u{9B}31m\u{2066}x"
    static let hostileFailure = "SWC\u{9B}31mERR\u{202E}ok\u{2029}other.example: ok"

    static var hostileCDN: String { "add_header Apple-Failure-Reason \"\(hostileFailure)\" always;" }

    static func hostileLocations(wellKnown: String, root: String, serve: (String, String, String) -> String) -> String {
        "\(wellKnown) \(serve("hostile.json", "\"\(hostileContentType)\"", "")) \(root) { return 301 \"\(hostileLocation)\"; }"
    }

    /// ESC, BEL and a carriage return followed by a forged line, raw in a header: nginx sends
    /// them, SwiftNIO's parser refuses the answer.
    static func hostileHeaderLocation(wellKnown: String, serve: (String, String, String) -> String) -> String {
        "\(wellKnown) \(serve("plain.json", "application/json", "add_header X-Forged \"a\u{1B}]0;title\u{7}\rother.example: ok\" always;"))"
    }
}

/// Issue #15: a hostile server cannot forge `aasa audit`'s output. Its text report shows every
/// control, line end and bidirectional control escaped (`\u{1B}`), on the line it belongs to;
/// `--format json` and `jsonl` keep the exact strings the server sent.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct AuditHostileTextTests {
    /// Code points that no text output may hold raw (as HostileTextTests has them): every C0
    /// control but the line feed, DEL, the C1 controls, U+2028, U+2029, U+202A–U+202E,
    /// U+2066–U+2069.
    static func violations(_ text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            let value = scalar.value
            return scalar != "\n"
                && (value < 0x20 || (0x7F...0x9F).contains(value) || (0x2028...0x202E).contains(value)
                    || (0x2066...0x2069).contains(value))
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    func audit(_ server: NginxServer, _ args: [String]) -> TestProcess.Result {
        TestProcess.aasa(
            [
                "audit", server.domain(.hostile), server.domain(.hostileHeader), "--cdn", "--cdn-base-url",
                server.cdnBaseURL,
            ]
                + args + server.auditOptions)
    }

    @Test func textReportEscapesWhatTheServerSent() throws {
        try withNginx { server in
            let result = audit(server, [])
            #expect(result.status == 1, "\(result)")
            let text = result.stdoutText
            #expect(Self.violations(text).isEmpty, "\(Self.violations(text)): \(text.debugDescription)")
            #expect(Self.violations(result.stderr).isEmpty, "\(result.stderr.debugDescription)")
            #expect(!text.contains("\u{1B}") && !text.contains("\r"))
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // No forged line: the text after a newline, CR or separator stays on its line.
            #expect(!lines.contains { $0.hasPrefix("other.example") }, "\(text)")
            for line in lines where line.contains("other.example") {
                #expect(line.hasPrefix("    ") || line.hasPrefix("      "), "forged: \(line)")
            }
            // Each header shown, escaped, where it belongs.
            #expect(text.contains("      200, application/json; x=\\u{202E}\\u{9B}2J\\u{85}\\u{2028}, "), "\(text)")
            #expect(
                text.contains("      301, Location: https://evil.example/\\u{202E}\\u{9B}31m\\u{2066}x, "), "\(text)")
            #expect(
                text.contains("      Apple-Failure-Reason: SWC\\u{9B}31mERR\\u{202E}ok\\u{2029}other.example: ok\n"))
            // The file's keys and values, as the lint messages quote them (JSON escapes).
            #expect(text.contains(#"App identifier "AB\u001B]0;title\u0007.com.example""#), "\(text)")
            #expect(text.contains(#"App identifier "\u009B31mX.y\u2028z""#), "\(text)")
            // The header the parser refused: said, and nothing of it shown.
            let refused = try #require(text.range(of: "\(server.domain(.hostileHeader)): broken\n"), "\(text)")
            #expect(text[refused.upperBound...].contains("the answer is not HTTP/1.1: invalid character in header"))
            #expect(!text.contains("title\\u{7}") && !text.contains("]0;title\u{7}"))
            // The summary table: one row per domain.
            let rows = lines.filter { line in
                [NginxServer.Host.hostile, .hostileHeader].contains { line.hasPrefix(server.domain($0) + " ") }
            }
            #expect(rows.count == 2, "\(rows)")
        }
    }

    @Test func jsonKeepsTheExactStrings() throws {
        try withNginx { server in
            let result = audit(server, ["--format", "json"])
            #expect(result.status == 1, "\(result)")
            let domains = try #require(try result.jsonObject()["domains"] as? [[String: Any]])
            let hostile = try #require(domains.first)
            let paths = try #require(hostile["paths"] as? [[String: Any]])
            #expect(paths[0]["contentType"] as? String == Fixtures.hostileContentType)
            #expect(paths[1]["location"] as? String == Fixtures.hostileLocation)
            let cdn = try #require(hostile["cdn"] as? [String: Any])
            #expect((cdn["failure"] as? [String: String])?["Apple-Failure-Reason"] == Fixtures.hostileFailure)
            let messages = (hostile["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
            #expect(messages.contains { $0.contains(#""AB\u001B]0;title\u0007.com.example""#) }, "\(messages)")
            #expect(messages.contains { $0.contains(Fixtures.hostileFailure) }, "\(messages)")
            // JSON's own escaping: no raw C0 control in the document.
            #expect(!result.stdout.contains { $0 < 0x20 && $0 != 0x0A }, "\(result.stdoutText.debugDescription)")
            // JSON lines: the same strings.
            let lines = try audit(server, ["--format", "jsonl"]).jsonLines()
            let line = try #require(lines.first { $0["domain"] as? String == server.domain(.hostile) })
            #expect((line["paths"] as? [[String: Any]])?[0]["contentType"] as? String == Fixtures.hostileContentType)
        }
    }
}
