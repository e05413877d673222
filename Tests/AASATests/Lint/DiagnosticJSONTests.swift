import AASA
import Foundation
import Testing

/// ``Diagnostic/encode(to:url:)``: the one JSON form of a finding (lint, check, audit).
@Suite("the diagnostic object")
struct DiagnosticJSONTests {
    static func object(_ diagnostic: Diagnostic) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(diagnostic)) as? [String: Any])
    }

    @Test("every key is present; a file-level finding's line and column and the url are explicit nulls")
    func explicitNulls() throws {
        let fileLevel = Diagnostic(.signedFile, "signed", at: .file)
        let object = try Self.object(fileLevel)
        #expect(Set(object.keys) == ["rule", "severity", "message", "location", "url"])
        #expect(object["rule"] as? String == "signed-file")
        #expect(object["severity"] as? String == fileLevel.severity.rawValue)
        #expect(object["url"] is NSNull)
        let location = try #require(object["location"] as? [String: Any])
        #expect(Set(location.keys) == ["path", "line", "column"])
        #expect(location["path"] as? String == "$")
        #expect(location["line"] is NSNull && location["column"] is NSNull)
    }

    @Test("a positioned finding has its path, line and column; the object and the older form without nulls both decode")
    func positionedAndDecodable() throws {
        let diagnostic = Diagnostic(
            .unknownKey, "unknown key 'pathz'",
            at: DiagnosticLocation(path: JSONPath([.key("applinks"), .key("pathz")]), line: 3, column: 5))
        let location = try #require(try Self.object(diagnostic)["location"] as? [String: Any])
        #expect(location["path"] as? String == "applinks.pathz")
        #expect(location["line"] as? Int == 3 && location["column"] as? Int == 5)
        let older = Data(#"{"rule":"signed-file","severity":"deprecation","message":"m","location":{"path":"$"}}"#.utf8)
        let findings = [
            (try JSONEncoder().encode(diagnostic), diagnostic),
            (
                try JSONEncoder().encode(Diagnostic(.signedFile, "m", at: .file)),
                Diagnostic(.signedFile, "m", at: .file)
            ),
            (older, Diagnostic(.signedFile, "m", at: .file, severity: .deprecation)),
        ]
        #expect(findings.count == 3)
        for (data, expected) in findings {
            let decoded = try JSONDecoder().decode(Diagnostic.self, from: data)
            #expect(decoded.rule == expected.rule && decoded.severity == expected.severity)
            #expect(decoded.message == expected.message)
            #expect(decoded.location.line == expected.location.line)
            #expect(decoded.location.column == expected.location.column)
            #expect(decoded.location.path == expected.location.path)
        }
    }
}
