import ArgumentParser

/// The exit statuses every subcommand shares (docs/exit-codes.md).
enum ExitStatus {
    /// Success, valid, clean.
    static let success = ExitCode(0)
    /// The check failed: invalid signature, untrusted chain, refused by `--strict`.
    static let checkFailed = ExitCode(1)
    /// An input could not be read, or is not what the command needs.
    static let badInput = ExitCode(2)
    /// Usage error (argument-parser's `ValidationError` exits with this too).
    static let usage = ExitCode(64)
}
