import Foundation

extension JSONPath {
    /// The path that ``description`` wrote as `text`, so that a finding read back from JSON output
    /// (`aasa audit --format jsonl`, read by `audit summarize` and `--resume`) names the same
    /// place: `$` is the root, keys are joined by `.`, an index is `[n]`, and a key written
    /// `["…"]` is the JSON string literal inside the brackets. Nil when `text` is not such a path.
    ///
    /// Written by hand because no library reads this notation (it is ours: JSONPath's bare keys
    /// with JSON string literals for the keys that need quoting); the literal itself is read by
    /// the package's own ``JSONParser``.
    public init?(text: String) {
        guard text != "$" else {
            self.init()
            return
        }
        var components: [Component] = []
        let bytes = Array(text.utf8)
        var index = 0
        func bareKeyEnd(from start: Int) -> Int {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "."), bytes[end] != UInt8(ascii: "[") { end += 1 }
            return end
        }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "["):
                guard let (component, next) = Self.bracketed(bytes, at: index) else { return nil }
                components.append(component)
                index = next
            case UInt8(ascii: ".") where !components.isEmpty:
                let end = bareKeyEnd(from: index + 1)
                guard end > index + 1 else { return nil }
                components.append(.key(String(decoding: bytes[(index + 1)..<end], as: UTF8.self)))
                index = end
            case _ where components.isEmpty && index == 0:
                let end = bareKeyEnd(from: 0)
                components.append(.key(String(decoding: bytes[0..<end], as: UTF8.self)))
                index = end
            default:
                return nil
            }
        }
        guard !components.isEmpty else { return nil }
        self.init(components)
        // Only the text this path writes: a bare key with a character that needs quoting
        // (`a]b`, `a b`) is not one of ours.
        guard description == text else { return nil }
    }

    /// `[n]` or `["key"]` at `start`: the component and the index after its `]`.
    private static func bracketed(_ bytes: [UInt8], at start: Int) -> (Component, Int)? {
        var index = start + 1
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "]"),
                let key = (try? JSONParser().parse(Data(bytes[(start + 1)...index])))?.stringValue
            else { return nil }
            return (.key(key), index + 2)
        }
        let digits = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        guard index > digits, index - digits <= 18, index < bytes.count, bytes[index] == UInt8(ascii: "]"),
            let number = Int(String(decoding: bytes[digits..<index], as: UTF8.self))
        else { return nil }
        return (.index(number), index + 1)
    }
}
