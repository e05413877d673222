/// Settings for ``Linter/lint(_:options:)``.
public struct LintOptions: Sendable {
    /// The largest file, in bytes, that passes `file-too-large`: 131,072 (128 KB), the size
    /// Apple documents for apple-app-site-association files, signed or not.
    public var maximumFileSize: Int
    /// The JSON depth and certificate count past which the file is unreadable (`invalid-json`,
    /// `unreadable-signed-file`).
    public var limits: InputLimits

    public init(maximumFileSize: Int = 131_072, limits: InputLimits = .default) {
        self.maximumFileSize = maximumFileSize
        self.limits = limits
    }
}
