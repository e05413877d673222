/// The result of ``Migrator/migrate(_:options:)``.
public struct Migration: Sendable {
    /// The input, with duplicate keys resolved (the last occurrence kept).
    public var original: JSONNode
    /// The migrated document (generated nodes have no source position).
    public var root: JSONNode
    /// Keys that appeared more than once in an object of the input.
    public var duplicates: [DuplicateKey]
    /// What the migration did, and what a reader should know, in document order.
    public var notes: [MigrationNote]
    /// What cannot be migrated without a change of meaning (the migrated document is then
    /// best effort, or the input itself when a blocker is not ``MigrationBlocker/forceable``).
    public var blockers: [MigrationBlocker]
    public var options: MigrationOptions

    /// Whether the migration changed anything (false: the input is already in the current format).
    public var changed: Bool { !root.isStructurallyEqual(to: original) }

    /// Whether the document can be written, with `force` for blockers that allow it.
    public func canWrite(force: Bool) -> Bool { blockers.allSatisfy { force && $0.forceable } }

    public var originalDocument: AASADocument { AASADocument(root: original) }
    public var document: AASADocument { AASADocument(root: root) }
}
