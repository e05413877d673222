import AASA
import AASAAudit
import Foundation
import Testing

/// ``AuditLine``: the one reader of an `aasa audit --format jsonl` line. It reads records of
/// aasa 0.2.0 (before `settings`, a path's `descriptorWaitMs` and `reusedConnection`, an item's
/// `message`), and refuses any other line with a reason that names keys of the schema only.
@Suite("an audit line read back")
struct AuditLineTests {
    /// A record of aasa 0.2.0 with a path, a signed file, an item and a finding: every key that
    /// version wrote, none it did not.
    static var version020: [String: Any] {
        [
            "aasaVersion": "0.2.0", "schemaVersion": 1, "domain": "old.example.com", "host": "old.example.com",
            "port": 443, "verdict": "legacy", "tls": NSNull(), "cdn": NSNull(), "startedAt": "2026-11-23T10:00:00Z",
            "durationMs": 12.5,
            "paths": [
                [
                    "url": "https://old.example.com/apple-app-site-association", "address": "127.0.0.1:443",
                    "status": 200, "contentType": "application/pkcs7-mime", "contentEncoding": NSNull(),
                    "location": NSNull(), "size": 2000, "declaredSize": 2000, "truncated": false, "kind": "pkcs7-der",
                    "signed": true, "error": NSNull(), "attempts": 1, "timings": ["totalMs": 10.0],
                ]
            ],
            "file": [
                "url": "https://old.example.com/apple-app-site-association", "kind": "pkcs7-der", "signed": true,
                "size": 2000,
                "items": [
                    [
                        "rule": "signed-file", "severity": "deprecation", "location": "$", "title": "Signed file",
                        "neededBy": "iOS 8", "nextStep": "serve it unsigned",
                    ]
                ],
            ],
            "diagnostics": [
                [
                    "rule": "signed-file", "severity": "deprecation", "message": "signed",
                    "location": ["path": "applinks.details[0][\"a b\"]", "line": 3, "column": 7], "url": NSNull(),
                ]
            ],
        ]
    }

    static func line(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    static func problem(_ object: [String: Any]) throws -> String? {
        guard case .failure(let problem) = AuditLine.parse(try line(object), decoder: AuditLine.decoder()) else {
            return nil
        }
        return problem.description
    }

    @Test("a record of aasa 0.2.0 reads, with the defaults of what it did not write")
    func version020Reads() throws {
        let read = try AuditLine.parse(Self.line(Self.version020), decoder: AuditLine.decoder()).get()
        #expect(read.aasaVersion == "0.2.0")
        let report = read.report
        #expect(report.domain == "old.example.com" && report.port == 443 && report.verdict == .legacy)
        #expect(report.settings == nil)
        #expect(report.paths.count == 1)
        #expect(report.paths.first?.reusedConnection == false && report.paths.first?.descriptorWaitMs == nil)
        #expect(report.paths.first?.timings.totalMs == 10.0 && report.paths.first?.timings.connectMs == nil)
        #expect(report.file?.items.first?.message == "Signed file", "an item without a message: its title")
        #expect(report.file?.effect == nil)
        let finding = try #require(report.diagnostics.first)
        #expect(finding.rule == .signedFile && finding.severity == .deprecation)
        #expect(
            finding.location
                == DiagnosticLocation(
                    path: JSONPath([.key("applinks"), .key("details"), .index(0), .key("a b")]), line: 3, column: 7))
        #expect(report.startedAt == Date(timeIntervalSince1970: 1_795_428_000))
    }

    @Test("each line that is no record gets its reason, naming keys of the schema only")
    func problems() throws {
        var noHost = Self.version020
        noHost["host"] = nil
        var noTotal = Self.version020
        var path = (noTotal["paths"] as? [[String: Any]])?.first ?? [:]
        path["timings"] = [:] as [String: Any]
        noTotal["paths"] = [path]
        var wrongType = Self.version020
        wrongType["port"] = "443"
        var later = Self.version020
        later["schemaVersion"] = 2
        var hostileKey = Self.version020
        hostileKey["settings"] = ["ruleSeverities": ["\u{1B}[2Jx": "fatal"]]
        var badRule = Self.version020
        badRule["diagnostics"] = [
            [
                "rule": "Signed File", "severity": "error", "message": "m",
                "location": ["path": "$", "line": NSNull(), "column": NSNull()], "url": NSNull(),
            ]
        ]
        var badPath = Self.version020
        badPath["diagnostics"] = [
            [
                "rule": "signed-file", "severity": "error", "message": "m",
                "location": ["path": "a..b", "line": NSNull(), "column": NSNull()], "url": NSNull(),
            ]
        ]
        let cases: [([String: Any], String)] = [
            (noHost, #"an audit record without "host""#),
            (noTotal, #"an audit record without "paths[0].timings.totalMs""#),
            (wrongType, #"an audit record whose "port" is not as the audit schema has it"#),
            (later, "an audit record of schemaVersion 2; this aasa reads schemaVersion 1"),
            (hostileKey, #"an audit record whose "settings.ruleSeverities.…" is not as the audit schema has it"#),
            (badRule, #"an audit record with a finding whose "rule" is not a rule ID"#),
            (badPath, #"an audit record whose "diagnostics[0].location.path" is not as the audit schema has it"#),
            (["domain": "a.example.com"], #"not an audit domain record (no "schemaVersion" or "domain")"#),
        ]
        #expect(cases.count == 8)
        for (object, expected) in cases {
            #expect(try Self.problem(object) == expected)
        }
        let decoder = AuditLine.decoder()
        for (text, expected) in [
            ("[1, 2]", "not an audit domain record (not a JSON object)"),
            (#"{"schemaVersion":1,"domain":"#, "not JSON (a line cut short, or not audit output)"),
        ] {
            guard case .failure(let problem) = AuditLine.parse(text, decoder: decoder) else {
                Issue.record("\(text) read as a record")
                continue
            }
            #expect(problem.description == expected)
        }
    }
}
