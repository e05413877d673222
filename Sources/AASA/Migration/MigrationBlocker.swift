/// Why a document cannot be migrated without changing its meaning.
public struct MigrationBlocker: Sendable, Hashable, CustomStringConvertible {
    /// Where, in the input (nil: the whole file).
    public var path: JSONPath?
    public var message: String
    /// Whether `--force` may write the migrated document anyway (false: it cannot be built).
    public var forceable: Bool

    public var description: String { (path.map { "\($0): " } ?? "") + message }
}
