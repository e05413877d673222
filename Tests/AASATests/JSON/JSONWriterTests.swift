import AASATestSupport
// JSONWriter: pretty and compact layouts, source key order, numbers as written, RFC 8259
// string escapes, duplicate keys (the last one kept), and round trips over the real corpus.
import Foundation
import Testing

@testable import AASA

@Suite("JSONWriter")
struct JSONWriterTests {
    private func parse(_ text: String) throws -> JSONNode { try JSONParser().parse(Data(text.utf8)) }

    @Test("pretty: two-space indent, \"key\": value, empty containers inline, one final newline")
    func prettyLayout() throws {
        let node = try parse(#"{"b":[1,{"x":null}],"a":{},"c":[],"d":true,"e":"s"}"#)
        let expected = """
            {
              "b": [
                1,
                {
                  "x": null
                }
              ],
              "a": {},
              "c": [],
              "d": true,
              "e": "s"
            }

            """
        #expect(JSONWriter(style: .pretty).string(node) == expected)
    }

    @Test("compact: no white space, one final newline")
    func compactLayout() throws {
        let node = try parse("{ \"b\" : [ 1 , { \"x\" : null } ] ,\n \"a\" : { } }")
        #expect(JSONWriter(style: .compact).string(node) == "{\"b\":[1,{\"x\":null}],\"a\":{}}\n")
    }

    @Test("keys stay in source order (stable, not sorted)")
    func sourceOrder() throws {
        let node = try parse(#"{"z":1,"a":2,"m":{"y":1,"b":2}}"#)
        #expect(JSONWriter(style: .compact).string(node) == "{\"z\":1,\"a\":2,\"m\":{\"y\":1,\"b\":2}}\n")
    }

    @Test(
        "numbers are written exactly as in the source",
        arguments: ["1.50e3", "-0", "1E+2", "0.10", "123456789012345678901234567890", "-1.5e-7"])
    func numbersAsWritten(_ number: String) throws {
        let node = try parse("[\(number)]")
        #expect(JSONWriter(style: .compact).string(node) == "[\(number)]\n")
    }

    @Test("strings: quote, backslash and control characters escaped; / and non-ASCII kept as UTF-8")
    func stringEscapes() throws {
        let text = "q\"b\\s/n\nt\tr\rb\u{08}f\u{0C}c\u{01}\u{1F}é😀\u{2028}"
        let node = JSONNode(.string(text), at: TextPosition(offset: 0, line: 1, column: 1))
        let written = JSONWriter(style: .compact).string(node)
        #expect(written == "\"q\\\"b\\\\s/n\\nt\\tr\\rb\\bf\\fc\\u0001\\u001fé😀\u{2028}\"\n")
        // And it reads back as the same string.
        #expect(try JSONParser().parse(Data(written.utf8)).stringValue == text)
    }

    @Test("escaped input comes out as plain UTF-8 (\\u00e9 → é, \\/ → /)")
    func escapesNormalised() throws {
        let node = try parse(#"["caf\u00e9", "a\/b", "\ud83d\ude00"]"#)
        #expect(JSONWriter(style: .compact).string(node) == "[\"café\",\"a/b\",\"😀\"]\n")
    }

    @Test("duplicate keys: the last occurrence is kept, where it stands, and reported")
    func duplicatesKeepLast() throws {
        let node = try parse(#"{"a": 1, "b": {"x": 1, "x": 2}, "a": 3}"#)
        let (clean, duplicates) = node.deduplicatingKeys()
        #expect(JSONWriter(style: .compact).string(clean) == "{\"b\":{\"x\":2},\"a\":3}\n")
        #expect(duplicates.count == 2)
        #expect(duplicates.map(\.path.description) == ["a", "b.x"])
        #expect(duplicates[0].positions.map(\.column) == [2, 33])
        #expect(duplicates[0].description.contains("the last one is kept"))
    }

    @Test("no duplicates: the node is unchanged")
    func noDuplicates() throws {
        let node = try parse(#"{"a": [{"b": 1}], "c": 2}"#)
        let (clean, duplicates) = node.deduplicatingKeys()
        #expect(duplicates.isEmpty)
        #expect(clean == node)
    }

    @Test("isStructurallyEqual ignores positions, not order or number text")
    func structuralEquality() throws {
        let a = try parse(#"{"a": [1, "x"]}"#)
        let b = try parse("{\n  \"a\": [\n    1,\n    \"x\"\n  ]\n}")
        #expect(a.isStructurallyEqual(to: b))
        #expect(!a.isStructurallyEqual(to: try parse(#"{"a": ["x", 1]}"#)))
        #expect(!a.isStructurallyEqual(to: try parse(#"{"a": [1.0, "x"]}"#)))
    }

    static var corpusFiles: [String] { RealWorldCorpus.plainNames }

    @Test("every real plain file: pretty and compact output read back as the same JSON", arguments: corpusFiles)
    func corpusRoundTrip(_ name: String) throws {
        let data = try Data(contentsOf: Paths.realPlain.appendingPathComponent(name))
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(data.dropFirst(3)) : data
        let (clean, _) = try JSONParser().parse(body).deduplicatingKeys()
        for style in JSONWriter.Style.allCases {
            let written = JSONWriter(style: style).data(clean)
            #expect(try JSONParser().parse(written).isStructurallyEqual(to: clean), "\(style)")
            // Foundation's parser agrees that nothing changed.
            let original = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) as? NSObject
            let reread = try JSONSerialization.jsonObject(with: written, options: [.fragmentsAllowed]) as? NSObject
            #expect(original == reread, "\(style)")
            // Writing is stable: the output written again is the same bytes.
            #expect(JSONWriter(style: style).data(try JSONParser().parse(written)) == written)
        }
    }
}
