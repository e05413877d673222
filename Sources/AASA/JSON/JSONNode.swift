/// A JSON value as written, with where each part of it stands in the source.
///
/// Unlike `JSONSerialization`, objects keep their members in source order, duplicate keys
/// included, and numbers keep their source text, so nothing is lost for linting or rewriting.
public struct JSONNode: Hashable, Sendable {
    public indirect enum Value: Hashable, Sendable {
        case object([JSONMember])
        case array([JSONNode])
        case string(String)
        /// The number exactly as written (e.g. "1.50e3").
        case number(String)
        case bool(Bool)
        case null
    }

    public var value: Value
    /// Where the value starts.
    public var location: TextPosition

    public init(_ value: Value, at location: TextPosition) {
        self.value = value
        self.location = location
    }

    /// The JSON type's name: "object", "array", "string", "number", "boolean" or "null".
    public var typeName: String {
        switch value {
        case .object: return "object"
        case .array: return "array"
        case .string: return "string"
        case .number: return "number"
        case .bool: return "boolean"
        case .null: return "null"
        }
    }

    /// The members of an object (nil for other types).
    public var members: [JSONMember]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// The first member named `key` of an object.
    public subscript(key: String) -> JSONNode? {
        members?.first { $0.key == key }?.value
    }

    /// The elements of an array (nil for other types).
    public var elements: [JSONNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    /// The string's value (nil for other types).
    public var stringValue: String? {
        if case .string(let string) = value { return string }
        return nil
    }

    /// The boolean's value (nil for other types).
    public var boolValue: Bool? {
        if case .bool(let bool) = value { return bool }
        return nil
    }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Hashable, Sendable {
    public var key: String
    public var keyLocation: TextPosition
    public var value: JSONNode

    public init(key: String, keyLocation: TextPosition, value: JSONNode) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}
