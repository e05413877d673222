/// One thing a migration did, or that a reader should know (``Migration/notes``).
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
    /// What was done, in the library's words (it names no command-line flag).
    public var message: String
    /// What ``MigrationOptions/keepLegacy`` would do instead ("keeps it"), for a front end to
    /// say after the message with the option's name in its own terms; nil when it changes nothing.
    public var keepLegacyWould: String?

    public init(kind: Kind, path: JSONPath?, message: String, keepLegacyWould: String? = nil) {
        self.kind = kind
        self.path = path
        self.message = message
        self.keepLegacyWould = keepLegacyWould
    }

    /// The note for a person: where, what, and what ``MigrationOptions/keepLegacy`` would do.
    public var description: String { description(namingKeepLegacy: "MigrationOptions.keepLegacy") }

    /// ``description`` with the option named as a front end names it (the CLI: `--keep-legacy`).
    public func description(namingKeepLegacy option: String) -> String {
        (path.map { "\($0): " } ?? "") + message + (keepLegacyWould.map { " (\(option) \($0))" } ?? "")
    }
}
