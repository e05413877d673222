/// Why a text is not JSON, and where.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var location: TextPosition

    public var description: String { "\(location): \(message)" }
}
