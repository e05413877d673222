/// Settings for ``Linter/lint(_:options:)``.
public struct LintOptions: Sendable {
    /// The largest file, in bytes, that passes `file-too-large`: 131,072 (128 KB), the size
    /// Apple documents for apple-app-site-association files, signed or not.
    public var maximumFileSize: Int

    public init(maximumFileSize: Int = 131_072) {
        self.maximumFileSize = maximumFileSize
    }
}
