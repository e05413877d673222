import AASATestSupport
import Foundation
import Testing

@testable import AASA

/// The strict RFC 8259 parser: what it accepts, what it refuses and where it says the problem is.
@Suite("JSON parser")
struct JSONParserTests {
    @Test(
        "accepts RFC 8259 JSON",
        arguments: [
            "{}", "[]", "0", "-0", "1.5e-3", "1E+10", "\"\"", "true", "false", "null",
            " \t\r\n{ \"a\" : [ 1 , 2 ] } \n",
            "\"\\u00e9\\ud83d\\ude00\\n\\\"\\\\\\/\\b\\f\\r\\t\"", "{\"é\": \"日本\"}",
        ])
    func acceptsValidJSON(text: String) throws {
        _ = try JSONParser().parse(Data(text.utf8))
        // Foundation agrees that these are JSON.
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil)
    }

    @Test(
        "refuses what RFC 8259 does not allow, with the position",
        arguments: [
            ("{\"a\": 1,}", "1:9"), ("[1,]", "1:4"), ("[1 2]", "1:4"), ("{\"a\" 1}", "1:6"), ("{a: 1}", "1:2"),
            ("// comment\n{}", "1:1"), ("{\n  \"a\": 01\n}", "2:8"), ("[1.]", "1:2"), ("[.5]", "1:2"), ("[NaN]", "1:2"),
            ("[\"\\x\"]", "1:3"), ("[\"\\ud800\"]", "1:3"), ("[\"a\nb\"]", "1:4"), ("{\"a\": 1}}", "1:9"), ("", "1:1"),
            ("[tru]", "1:2"), ("{\"a\": [}", "1:8"), ("\"open", "1:1"), ("[1e]", "1:2"), ("{'a': 1}", "1:2"),
        ])
    func refusesInvalidJSON(text: String, position: String) {
        #expect {
            try JSONParser().parse(Data(text.utf8))
        } throws: { error in
            (error as? JSONSyntaxError)?.location.description == position
        }
    }

    @Test("refuses invalid UTF-8")
    func refusesInvalidUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(Data([0x22, 0xC3, 0x28, 0x22])) }
    }

    @Test("keeps member order, duplicate keys, number text and positions")
    func keepsSourceDetail() throws {
        let text = "{\n  \"b\": 1.50,\n  \"a\": [true, null],\n  \"b\": \"x\"\n}"
        let root = try JSONParser().parse(Data(text.utf8))
        let members = try #require(root.members)
        #expect(members.map(\.key) == ["b", "a", "b"])
        #expect(members[0].value.value == .number("1.50"))
        #expect(members[1].keyLocation == TextPosition(offset: 17, line: 3, column: 3))
        #expect(members[1].value.elements?.map(\.typeName) == ["boolean", "null"])
        #expect(root["b"]?.value == .number("1.50"))  // the first of duplicates
        #expect(members[2].value.stringValue == "x")
    }

    @Test("nesting deeper than the limit is an error, not a stack overflow")
    func limitsDepth() throws {
        let deep = Data(repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect {
            try JSONParser().parse(deep)
        } throws: { error in
            (error as? JSONSyntaxError)?.message.contains("deeper than 512") == true
        }
        let allowed = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try JSONParser().parse(Data(allowed.utf8))
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(Data(tooDeep.utf8)) }
    }

    @Test("every corpus plain file parses")
    func parsesCorpus() throws {
        let files = RealWorldCorpus.plainNames
        #expect(files.count == RealWorldCorpus.expectedPlainCount)
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: RealWorldCorpus.plain(file)))
            let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
            let root = try JSONParser().parse(Data(body))
            #expect(root.members != nil, "\(file)")
        }
    }
}
