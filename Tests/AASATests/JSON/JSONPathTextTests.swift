import AASA
import Foundation
import Testing

/// ``JSONPath/init(text:)``: a path read back from the text ``JSONPath/description`` wrote (a
/// finding's `location.path` in JSON output), component for component.
@Suite("a JSON path read back from its text")
struct JSONPathTextTests {
    static let paths: [JSONPath] = [
        JSONPath(),
        JSONPath([.key("applinks")]),
        JSONPath([.key("applinks"), .key("details"), .index(0), .key("components"), .index(12), .key("/")]),
        JSONPath([.key("applinks"), .key("details"), .key("ABCDE12345.com.example.app"), .key("paths")]),
        JSONPath([.index(3)]),
        JSONPath([.key("a b"), .key(""), .key("x]y"), .key("[0]"), .key("q\"uo\\te")]),
        JSONPath([.key("line\nbreak\u{1B}[2J\u{2028}"), .index(7), .key("?"), .key("#")]),
        JSONPath([.key("$")]),
        JSONPath([.key("émoji 😀"), .key("0")]),
    ]

    @Test("every path written reads back as the same components")
    func roundTrip() throws {
        #expect(Self.paths.count == 9)
        for path in Self.paths {
            let text = path.description
            #expect(!text.contains("\n"), "one line: \(text)")
            let read = try #require(JSONPath(text: text), "\(text)")
            // `$` alone is the root: a top-level key named `$` is written like it.
            if path == JSONPath([.key("$")]) {
                #expect(read == JSONPath())
            } else {
                #expect(read == path, "\(text)")
            }
            let decoded = try JSONDecoder().decode(JSONPath.self, from: JSONEncoder().encode(path))
            #expect(decoded.description == text)
        }
    }

    @Test(
        "text that no path writes is refused, and refused when decoded",
        arguments: [
            "", ".a", "a.", "a..b", "a[", "a[]", "a[x]", "a[-1]", "a]b", "a b", "a[\"b\"", "a[\"b]", "[\"a\"]x",
            "a[\"b\"].c[99999999999999999999]", "a[\"plain\"]", "a[0]]",
        ])
    func refused(_ text: String) throws {
        #expect(JSONPath(text: text) == nil, "\(text)")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(JSONPath.self, from: JSONEncoder().encode(text))
        }
    }
}
