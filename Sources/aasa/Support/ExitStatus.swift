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

    /// The worse of two statuses, for a batch: usage error, then unreadable input, then a
    /// failed check, then success.
    static func worst(_ a: ExitCode, _ b: ExitCode) -> ExitCode {
        func rank(_ code: ExitCode) -> Int {
            switch code.rawValue {
            case 0: return 0
            case 1: return 1
            case 64: return 3
            default: return 2
            }
        }
        return rank(b) > rank(a) ? b : a
    }

    /// The status of a run from those of its parts: the worst of them (``worst(_:_:)``), success
    /// for none. The one exit policy of every command that handles many inputs.
    static func worst(of statuses: some Sequence<ExitCode>) -> ExitCode {
        statuses.reduce(success) { worst($0, $1) }
    }

    /// Throws `status` unless it is success: the end of a command that counted its outcomes.
    static func throwing(_ status: ExitCode) throws {
        if status != success { throw status }
    }
}
