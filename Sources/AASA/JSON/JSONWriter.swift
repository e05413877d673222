import Foundation

/// Serialises a ``JSONNode`` back to JSON text: pretty-printed (two-space indent) or compact.
///
/// Object members are written in the order they stand in the node (source order for a parsed
/// document), so the output is stable: the same input always gives the same bytes. Numbers are
/// written exactly as they were in the source (`1.50e3` stays `1.50e3`), strings are escaped
/// as RFC 8259 requires (`"`, `\` and the control characters; `/` and non-ASCII text are kept
/// as UTF-8), and the text ends with one newline.
///
/// The writer writes duplicate keys as they are; call ``JSONNode/deduplicatingKeys()`` first to
/// keep only the last occurrence of each, which is what Apple's parser keeps.
///
/// ```swift
/// let node = try JSONParser().parse(data)
/// let (clean, duplicates) = node.deduplicatingKeys()
/// let text = JSONWriter(style: .pretty).data(clean)
/// ```
public struct JSONWriter: Sendable {
    /// The layout of the output.
    public enum Style: String, Sendable, CaseIterable {
        /// One member or element per line, indented by two spaces; `"key": value`.
        case pretty
        /// No white space at all.
        case compact
    }

    public var style: Style

    public init(style: Style = .pretty) {
        self.style = style
    }

    /// The JSON text of `node`, ending with a newline.
    public func data(_ node: JSONNode) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        write(node, depth: 0, into: &output)
        output.append(0x0A)
        return Data(output)
    }

    /// The JSON text of `node` as a string, ending with a newline.
    public func string(_ node: JSONNode) -> String {
        String(decoding: data(node), as: UTF8.self)
    }

    // Iterative over the containers would be overkill: the parser caps nesting at 512 levels,
    // and generated nodes are shallow.
    private func write(_ node: JSONNode, depth: Int, into output: inout [UInt8]) {
        switch node.value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let text): Self.writeString(text, into: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(depth + 1, into: &output)
                write(element, depth: depth + 1, into: &output)
            }
            newline(depth, into: &output)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(depth + 1, into: &output)
                Self.writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                if style == .pretty { output.append(UInt8(ascii: " ")) }
                write(member.value, depth: depth + 1, into: &output)
            }
            newline(depth, into: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    private func newline(_ depth: Int, into output: inout [UInt8]) {
        guard style == .pretty else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `text` as a JSON string literal (RFC 8259 §7): `"` and `\` escaped, control characters
    /// as their short escapes or `\u00XX`, everything else (including `/` and non-ASCII) as is.
    static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

/// A key that appears more than once in the same JSON object.
public struct DuplicateKey: Sendable, Hashable, CustomStringConvertible {
    /// The object holding the key (`$` for the top level).
    public var objectPath: JSONPath
    public var key: String
    /// Where each occurrence of the key stands, in source order; the last one is kept.
    public var positions: [TextPosition]

    public init(objectPath: JSONPath, key: String, positions: [TextPosition]) {
        self.objectPath = objectPath
        self.key = key
        self.positions = positions
    }

    /// The path of the key itself, e.g. `applinks.details`.
    public var path: JSONPath { objectPath.appending(key) }

    public var description: String {
        let places = positions.map(\.description).joined(separator: ", ")
        return "\(path) appears \(positions.count) times (at \(places)); the last one is kept"
    }
}

extension JSONNode {
    /// This node with, in every object, only the last occurrence of each key (at the place of
    /// that last occurrence): what Apple's parser (and `NSDictionary`) keeps.
    /// - Returns: The node, and every key that was given more than once, in document order.
    public func deduplicatingKeys() -> (node: JSONNode, duplicates: [DuplicateKey]) {
        var duplicates: [DuplicateKey] = []
        let node = Self.deduplicate(self, path: JSONPath(), duplicates: &duplicates)
        return (node, duplicates)
    }

    private static func deduplicate(_ node: JSONNode, path: JSONPath, duplicates: inout [DuplicateKey]) -> JSONNode {
        switch node.value {
        case .array(let elements):
            var copy = node
            copy.value = .array(
                elements.enumerated().map { index, element in
                    deduplicate(element, path: path.appending(index), duplicates: &duplicates)
                })
            return copy
        case .object(let members):
            var lastIndex: [String: Int] = [:]
            var positions: [String: [TextPosition]] = [:]
            var order: [String] = []
            for (index, member) in members.enumerated() {
                if positions[member.key] == nil { order.append(member.key) }
                lastIndex[member.key] = index
                positions[member.key, default: []].append(member.keyLocation)
            }
            for key in order where positions[key]!.count > 1 {
                duplicates.append(DuplicateKey(objectPath: path, key: key, positions: positions[key]!))
            }
            var kept: [JSONMember] = []
            for (index, member) in members.enumerated() where lastIndex[member.key] == index {
                var member = member
                member.value = deduplicate(member.value, path: path.appending(member.key), duplicates: &duplicates)
                kept.append(member)
            }
            var copy = node
            copy.value = .object(kept)
            return copy
        default:
            return node
        }
    }

    /// Whether `other` is the same JSON value: same types, same strings, numbers with the same
    /// text, arrays element by element and objects member by member in the same order.
    /// Source positions are ignored.
    public func isStructurallyEqual(to other: JSONNode) -> Bool {
        switch (value, other.value) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isStructurallyEqual(to: $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count
                && zip(a, b).allSatisfy { $0.key == $1.key && $0.value.isStructurallyEqual(to: $1.value) }
        default: return false
        }
    }
}
