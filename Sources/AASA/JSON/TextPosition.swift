/// A place in a source text: byte offset, and 1-based line and column (column counts bytes).
public struct TextPosition: Hashable, Sendable, Codable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var column: Int

    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}
