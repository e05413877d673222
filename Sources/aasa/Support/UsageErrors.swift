import AASA
import ArgumentParser
import Foundation

/// The one place the messages that argument-parser words are printed: usage errors (its own,
/// such as "Unexpected argument 'x'" or "The value 'x' is invalid for '--format'", and every
/// `ValidationError` of a `validate()`), help and `--version`.
///
/// argument-parser quotes the values a user typed as they are: an escape sequence or a newline
/// in a domain, a `--resolve`, `--proxy`, `--shard`, `--at` or `--format` value or a mistyped
/// subcommand would reach the terminal raw, while the same text read from a file is escaped.
/// Here the message (the part that quotes values) is escaped as one line (``TerminalText``);
/// the usage lines after it are the tool's own text and stay as they are (issue #24).
enum UsageErrors {
    /// The text argument-parser's `exit(withError:)` prints for `error` raised by `command`, with
    /// the message of an error escaped; help and other clean exits unchanged.
    static func text(for error: any Error, command: any ParsableCommand.Type) -> String {
        let full = command.fullMessage(for: error)
        guard command.exitCode(for: error) != ExitCode.success else { return full }
        let message = command.message(for: error)
        guard !message.isEmpty, let range = full.range(of: message) else { return full }
        return full.replacingCharacters(in: range, with: TerminalText.line(message))
    }

    /// Ends the process as argument-parser's `exit(withError:)` does (help on standard output
    /// and 0; an error's text on standard error and its status), with ``text(for:command:)``.
    static func exit(_ error: any Error, command: any ParsableCommand.Type) -> Never {
        // A command's own exit status (a verification that failed, `throw ExitCode(1)`) has no
        // text: argument-parser would still reflect the command and build its help to find that
        // out (docs/performance.md, "Re-measured later the same day").
        if let code = error as? ExitCode { Foundation.exit(code.rawValue) }
        let status = command.exitCode(for: error)
        let text = self.text(for: error, command: command)
        if !text.isEmpty {
            if status == ExitCode.success {
                StandardStreams.out(Data((text + "\n").utf8))
            } else {
                StandardStreams.err(text + "\n")
            }
        }
        Foundation.exit(status.rawValue)
    }
}
