import AASA
import AASATestSupport
import Foundation
import Testing

@testable import AASAAudit

/// `aasa audit summarize --format csv` (``FleetCSV``): RFC 4180 as Python's csv module reads
/// it back, and every cell safe for a spreadsheet.
@Suite("fleet CSV: RFC 4180, formulas neutralised, escapes visible")
struct FleetCSVTests {
    /// `data` read back by Python's csv module (an independent RFC 4180 reader), as rows.
    static func parsed(_ data: Data) throws -> [[String]] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString).csv")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                "-c",
                "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8'), strict=True))))",
                file.path,
            ])
        try #require(result.status == 0, "\(result)")
        return try #require(try result.json() as? [[String]], "\(result)")
    }

    static func row(_ domain: String, subject: String, rules: [String] = ["signed-file"]) -> FleetDomainRow {
        FleetDomainRow(
            domain: domain, verdict: .legacy, errors: 0, warnings: 0, deprecations: 1, rules: rules,
            signer: FleetSigner(
                subject: subject, issuer: "CN=CA, O=\"Quoted, Inc.\"",
                notAfter: Date(timeIntervalSince1970: 1_451_606_400),
                sha256Fingerprint: "AA:BB"),
            signerExpired: true)
    }

    @Test("a header, then a row per domain, each ending in CRLF; commas, quotes and line breaks survive the round trip")
    func roundTrip() throws {
        let rows = [
            Self.row("a.example.com", subject: "CN=a.example.com"),
            Self.row(
                "b.example.com", subject: "CN=b, O=\"x\"\nOU=next line", rules: ["signed-file", "signer-expired"]),
        ]
        let data = try FleetCSV.data(rows)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasSuffix("\r\n"))
        #expect(text.hasPrefix(FleetCSV.header.joined(separator: ",") + "\r\n"))
        let parsed = try Self.parsed(data)
        #expect(parsed.count == 3, "\(parsed)")
        #expect(parsed[0] == FleetCSV.header)
        #expect(
            parsed[1] == [
                "a.example.com", "legacy", "0", "0", "1", "signed-file", "CN=a.example.com",
                "CN=CA, O=\"Quoted, Inc.\"",
                "2016-01-01T00:00:00Z", "yes", "AA:BB",
            ], "\(parsed[1])")
        // A line break in a value is escaped (\u{A}), so a row is always one line.
        #expect(parsed[2][6] == "CN=b, O=\"x\"\\u{A}OU=next line", "\(parsed[2])")
        #expect(parsed[2][5] == "signed-file signer-expired")
    }

    @Test(
        "a cell starting with = + - @ is prefixed with ' (OWASP); TAB and CR are escaped; other first characters pass",
        arguments: [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"), ("+1+1", "'+1+1"), ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"), ("\t=1", "\\u{9}=1"), ("\r=1", "\\u{D}=1"), ("CN==x", "CN==x"),
            ("'quoted", "'quoted"),
            ("x=1", "x=1"), ("", ""),
        ])
    func formulasAreNeutralised(value: String, expected: String) throws {
        #expect(FleetCSV.cell(value) == expected)
        let parsed = try Self.parsed(try FleetCSV.data([Self.row("c.example.com", subject: value)]))
        #expect(parsed[1][6] == expected, "\(parsed)")
    }

    @Test("control and bidirectional characters are written as visible escapes, never raw")
    func controlsAreEscaped() throws {
        let hostile = "CN=evil\u{1B}[31m\u{202E}txt.exe\u{7}"
        let data = try FleetCSV.data([Self.row("d.example.com", subject: hostile)])
        #expect(!data.contains(0x1B) && !data.contains(0x07))
        #expect(String(decoding: data, as: UTF8.self).unicodeScalars.allSatisfy { $0 != "\u{202E}" })
        let parsed = try Self.parsed(data)
        #expect(parsed[1][6] == TerminalText.line(hostile), "\(parsed)")
    }
}
