/// What ``Migrator/migrate(_:options:)`` may do.
public struct MigrationOptions: Sendable, Hashable {
    /// Keep `applinks.apps`, `appID` and `paths` beside the modern keys, for iOS 12 and earlier.
    public var keepLegacy: Bool

    public init(keepLegacy: Bool = false) {
        self.keepLegacy = keepLegacy
    }
}
