/// One thing the migration did or noticed.
public struct MigrationNote: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// A rewrite that keeps the meaning (checked by the proof).
        case changed
        /// Something to look at: kept as is, or a change that only older iOS versions see.
        case warning
    }

    public var kind: Kind
    /// Where, in the input (nil: the whole file).
    public var path: JSONPath?
    public var message: String

    public var description: String { (path.map { "\($0): " } ?? "") + message }
}
