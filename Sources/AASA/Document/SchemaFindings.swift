// What the document builder notes against the format: wrong types and unknown keys.

/// A known key whose value has the wrong JSON type (the `wrong-type` rule).
public struct TypeMismatch: Sendable, Hashable {
    public var path: JSONPath
    public var position: TextPosition
    /// What the format requires: "array of strings", "boolean", …
    public var expected: String
    /// What the file has: "string", "number", …
    public var found: String
}

/// A key the format does not define (kept, reported, never fatal).
public struct UnknownKey: Sendable, Hashable {
    public var path: JSONPath
    public var position: TextPosition
    public var key: String
}
