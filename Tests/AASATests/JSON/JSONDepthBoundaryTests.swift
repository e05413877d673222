import AASA
import Foundation
import Testing

/// The nesting limit at its exact boundary, for objects as for arrays (issue #15: only arrays
/// were tested), and through the linter as a user meets it.
@Suite("JSON depth: the exact boundary")
struct JSONDepthBoundaryTests {
    /// `depth` objects nested in each other: {"a": {"a": … {} …}}.
    static func objects(_ depth: Int) -> Data {
        Data((String(repeating: #"{"a": "#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)).utf8)
    }

    /// `depth` containers, alternating object and array: {"a": [{"a": [ … ]}]}.
    static func mixed(_ depth: Int) -> Data {
        var opening = ""
        var closing = ""
        for level in 0..<depth {
            if level % 2 == 0 {
                opening += level == depth - 1 ? "{" : #"{"a": "#
                closing = "}" + closing
            } else {
                opening += "["
                closing = "]" + closing
            }
        }
        return Data((opening + closing).utf8)
    }

    @Test("512 nested objects parse; 513 are refused, naming the limit", arguments: [Self.objects, Self.mixed])
    func boundary(make: @Sendable (Int) -> Data) throws {
        let limit = JSONParser.defaultMaximumDepth
        #expect(limit == 512)
        _ = try JSONParser().parse(make(limit))
        do {
            _ = try JSONParser().parse(make(limit + 1))
            Issue.record("\(limit + 1) levels were accepted")
        } catch let error as JSONSyntaxError {
            #expect(error.message.contains("deeper than 512"), "\(error)")
        }
    }

    @Test("a limit of 4: 4 objects parse, 5 do not")
    func smallLimit() throws {
        _ = try JSONParser(maximumDepth: 4).parse(Self.objects(4))
        #expect(throws: JSONSyntaxError.self) { try JSONParser(maximumDepth: 4).parse(Self.objects(5)) }
    }

    @Test("the linter: 513 nested objects are invalid-json, 512 are not")
    func linter() {
        #expect(!Linter.lint(Self.objects(512)).diagnostics.contains { $0.rule == .invalidJSON })
        #expect(Linter.lint(Self.objects(513)).diagnostics.contains { $0.rule == .invalidJSON })
    }
}
