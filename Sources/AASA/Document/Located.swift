/// A value read from the document, with where it was.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
    public var value: Value
    public var path: JSONPath
    public var position: TextPosition

    public init(_ value: Value, path: JSONPath, position: TextPosition) {
        self.value = value
        self.path = path
        self.position = position
    }
}
