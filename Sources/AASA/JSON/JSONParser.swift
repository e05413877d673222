import Foundation

/// A strict RFC 8259 JSON parser that records where every value stands.
///
/// Why not Foundation: on Linux both `JSONSerialization` and `JSONDecoder` accept trailing
/// commas (`{"a": 1,}`), which iOS's parser rejects, and neither reports line and column, nor
/// keeps duplicate keys or member order. The parser is iterative (an explicit stack), so a
/// deeply nested input gives an error at ``maximumDepth``, never a stack overflow.
public struct JSONParser: Sendable {
    /// The deepest nesting of arrays and objects accepted.
    public var maximumDepth: Int

    /// 512 levels: real AASA files nest five or six deep.
    public static let defaultMaximumDepth = 512

    public init(maximumDepth: Int = defaultMaximumDepth) {
        self.maximumDepth = maximumDepth
    }

    /// Parses a whole document: one value, surrounded by optional white space. The caller
    /// strips a UTF-8 byte-order mark first if it accepts one.
    /// - Throws: ``JSONSyntaxError``.
    public func parse(_ data: Data) throws -> JSONNode {
        try data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
            return try reader.document()
        }
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var index = 0
    var line = 1
    var lineStart = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    var location: TextPosition { TextPosition(offset: index, line: line, column: index - lineStart + 1) }

    func fail(_ message: String, at location: TextPosition? = nil) -> JSONSyntaxError {
        JSONSyntaxError(message: message, location: location ?? self.location)
    }

    /// A containing array or object under construction. The stack is mutated in place
    /// (`stack[last].elements.append`), so each container's array is appended to without
    /// being copied.
    struct Frame {
        var isObject: Bool
        var start: TextPosition
        var elements: [JSONNode] = []
        var members: [JSONMember] = []
        var key = ""
        var keyLocation = TextPosition(offset: 0, line: 1, column: 1)
    }

    mutating func document() throws -> JSONNode {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw fail("not valid UTF-8", at: TextPosition(offset: 0, line: 1, column: 1))
        }
        skipWhitespace()
        let root = try value()
        skipWhitespace()
        if index < bytes.count { throw fail("unexpected \(describe(bytes[index])) after the JSON value") }
        return root
    }

    /// Reads one value (iteratively for arrays and objects).
    mutating func value() throws -> JSONNode {
        var stack: [Frame] = []
        while true {
            skipWhitespace()
            guard index < bytes.count else {
                throw fail(stack.isEmpty ? "no JSON value (empty input)" : "unexpected end of input")
            }
            let start = location
            var completed: JSONNode
            switch bytes[index] {
            case UInt8(ascii: "["):
                index += 1
                guard stack.count < maximumDepth else {
                    throw fail("nesting deeper than \(maximumDepth) levels", at: start)
                }
                skipWhitespace()
                if peek(UInt8(ascii: "]")) {
                    index += 1
                    completed = JSONNode(.array([]), at: start)
                } else {
                    stack.append(Frame(isObject: false, start: start))
                    continue
                }
            case UInt8(ascii: "{"):
                index += 1
                guard stack.count < maximumDepth else {
                    throw fail("nesting deeper than \(maximumDepth) levels", at: start)
                }
                skipWhitespace()
                if peek(UInt8(ascii: "}")) {
                    index += 1
                    completed = JSONNode(.object([]), at: start)
                } else {
                    let (key, keyLocation) = try memberKey()
                    stack.append(Frame(isObject: true, start: start, key: key, keyLocation: keyLocation))
                    continue
                }
            case UInt8(ascii: "\""):
                completed = JSONNode(.string(try string()), at: start)
            case UInt8(ascii: "t"):
                try literal("true")
                completed = JSONNode(.bool(true), at: start)
            case UInt8(ascii: "f"):
                try literal("false")
                completed = JSONNode(.bool(false), at: start)
            case UInt8(ascii: "n"):
                try literal("null")
                completed = JSONNode(.null, at: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                completed = JSONNode(.number(try number()), at: start)
            case UInt8(ascii: "/"):
                throw fail("comments are not allowed in JSON")
            case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","):
                throw fail(
                    stack.isEmpty
                        ? "unexpected \(describe(bytes[index]))"
                        : "unexpected \(describe(bytes[index])): a value is missing (trailing comma?)")
            default:
                throw fail("unexpected \(describe(bytes[index]))")
            }

            // Attach the completed value to its container; close containers as they end.
            while true {
                guard let last = stack.indices.last else { return completed }
                skipWhitespace()
                if !stack[last].isObject {
                    stack[last].elements.append(completed)
                    if peek(UInt8(ascii: ",")) {
                        index += 1
                    } else if peek(UInt8(ascii: "]")) {
                        index += 1
                        let frame = stack.removeLast()
                        completed = JSONNode(.array(frame.elements), at: frame.start)
                        continue
                    } else {
                        throw fail(
                            index < bytes.count
                                ? "expected ',' or ']' in array, found \(describe(bytes[index]))"
                                : "unterminated array (opened at \(stack[last].start))")
                    }
                } else {
                    stack[last].members.append(
                        JSONMember(key: stack[last].key, keyLocation: stack[last].keyLocation, value: completed))
                    if peek(UInt8(ascii: ",")) {
                        index += 1
                        skipWhitespace()
                        let (nextKey, nextLocation) = try memberKey()
                        stack[last].key = nextKey
                        stack[last].keyLocation = nextLocation
                    } else if peek(UInt8(ascii: "}")) {
                        index += 1
                        let frame = stack.removeLast()
                        completed = JSONNode(.object(frame.members), at: frame.start)
                        continue
                    } else {
                        throw fail(
                            index < bytes.count
                                ? "expected ',' or '}' in object, found \(describe(bytes[index]))"
                                : "unterminated object (opened at \(stack[last].start))")
                    }
                }
                break
            }
        }
    }

    /// `"key"` then `:`.
    mutating func memberKey() throws -> (String, TextPosition) {
        let keyLocation = location
        guard peek(UInt8(ascii: "\"")) else {
            if peek(UInt8(ascii: "}")) { throw fail("a member is missing before '}' (trailing comma?)") }
            throw fail(
                index < bytes.count
                    ? "expected a string key, found \(describe(bytes[index]))" : "unexpected end of input")
        }
        let key = try string()
        skipWhitespace()
        guard peek(UInt8(ascii: ":")) else { throw fail("expected ':' after the key \"\(key)\"") }
        index += 1
        return (key, keyLocation)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    mutating func literal(_ word: StaticString) throws {
        let start = location
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, zip(bytes[index...], expected).allSatisfy({ $0 == $1 }) else {
            throw fail("invalid literal (expected \(word))", at: start)
        }
        index += expected.count
    }

    mutating func number() throws -> String {
        let start = index
        let startLocation = location
        func digits() -> Int {
            let first = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - first
        }
        if peek(UInt8(ascii: "-")) { index += 1 }
        if peek(UInt8(ascii: "0")) {
            index += 1
            if index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                throw fail("numbers may not have leading zeros", at: startLocation)
            }
        } else if digits() == 0 {
            throw fail("invalid number", at: startLocation)
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard digits() > 0 else { throw fail("invalid number: digits must follow '.'", at: startLocation) }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard digits() > 0 else { throw fail("invalid number: digits must follow the exponent", at: startLocation) }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func string() throws -> String {
        let start = location
        index += 1  // opening quote
        // Most strings have no escape: one scan, one copy (the document is valid UTF-8).
        var end = index
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
                index = end + 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            end += 1
        }
        var utf8: [UInt8] = []
        var runStart = index
        func flush(_ end: Int) {
            if end > runStart { utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<end])) }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                flush(index)
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                flush(index)
                let escapeStart = location
                index += 1
                utf8.append(contentsOf: String(try escape(startingAt: escapeStart)).utf8)
                runStart = index
            case 0x00..<0x20:
                throw fail("control character \(describe(byte)) in a string: escape it")
            default:
                index += 1
            }
        }
        throw fail("unterminated string (opened at \(start))", at: start)
    }

    /// Reads an escape after its backslash; errors point at the backslash.
    mutating func escape(startingAt start: TextPosition) throws -> Unicode.Scalar {
        guard index < bytes.count else { throw fail("unterminated escape", at: start) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high) {
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw fail("unpaired UTF-16 surrogate \\u\(String(high, radix: 16))", at: start)
                }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw fail("unpaired UTF-16 surrogate \\u\(String(high, radix: 16))", at: start)
                }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else {
                throw fail("unpaired UTF-16 surrogate \\u\(String(high, radix: 16))", at: start)
            }
            return scalar
        default:
            throw fail("invalid escape \\\(describe(byte))", at: start)
        }
    }

    mutating func hex4() throws -> UInt32 {
        guard bytes.count - index >= 4 else { throw fail("\\u needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 0x41 + 10)
            default: throw fail("\\u needs four hex digits")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }
}
