// How a rule's message names a JSON value it did not expect.

extension JSONNode {
    /// A short description of the value for messages: `number 5`, `boolean true`, `null`,
    /// `string "x"`, `array`, `object`.
    var shortDescription: String {
        switch value {
        case .number(let text): return "number \(text)"
        case .bool(let bool): return "boolean \(bool)"
        case .null: return "null"
        case .string(let string): return "string \(quotedShortened(string))"
        case .array(let elements): return elements.isEmpty ? "empty array" : "array"
        case .object(let members): return members.isEmpty ? "empty object" : "object"
        }
    }

    /// The same with an article, for "is …": `a number (1)`, `a boolean (true)`, `null`, `an array`.
    var describedWithArticle: String {
        switch value {
        case .number(let text): return "a number (\(text))"
        case .bool(let bool): return "a boolean (\(bool))"
        case .null: return "null"
        case .string(let string): return "a string (\(quotedShortened(string)))"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
