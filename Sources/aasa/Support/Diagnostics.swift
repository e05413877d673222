import AASA
import AASAReports
import ArgumentParser
import Foundation

/// Prints diagnostics to stderr as `PATH: severity: [CODE] message`, one whole line at a time.
enum Diagnostics {
    enum Severity: String {
        case error, warning, note
    }

    /// Prints the line, unless it is a note under `--quiet` (``Display``).
    static func emit(_ path: String, _ severity: Severity, _ message: String, code: String? = nil) {
        guard shows(severity) else { return }
        StandardStreams.err(line(path, severity, message, code: code))
    }

    /// Whether a diagnostic of `severity` is printed: all but notes under `--quiet`.
    static func shows(_ severity: Severity) -> Bool {
        !(Display.quiet && severity == .note)
    }

    /// The line ``emit(_:_:_:code:)`` prints, with its newline, coloured when standard error
    /// takes colour (``TerminalColor``).
    static func line(_ path: String, _ severity: Severity, _ message: String, code: String? = nil) -> String {
        // Path and message escaped (``TerminalText``): a diagnostic is always one line.
        let line = TerminalText.line(
            DiagnosticLineWriter.line(path: path, severity: severity.rawValue, tag: code, message: message))
        return (TerminalColor.standardError ? TerminalColor.highlight(line) : line) + "\n"
    }

    /// "<stdin>" and "<stdout>" for "-".
    static func displayName(_ path: String) -> String { ReportSubject.displayName(path) }
}

/// A failure the CLI reports as one diagnostic line and an exit status.
struct CLIFailure: Error {
    var path: String
    var message: String
    var status: ExitCode
    var code: String?

    init(_ path: String, _ message: String, status: ExitCode = ExitStatus.badInput, code: String? = nil) {
        self.path = path
        self.message = message
        self.status = status
        self.code = code
    }

    init(_ path: String, _ error: AASAError, status: ExitCode = ExitStatus.badInput) {
        self.init(path, error.message, status: status)
    }

    /// Any error met while handling the file at `path`: a ``CLIFailure`` as it is, an
    /// ``AASAError`` by its message (never its debug description), anything else described.
    init(_ path: String, describing error: any Error) {
        switch error {
        case let failure as CLIFailure: self = failure
        case let error as AASAError: self.init(path, error)
        default: self.init(path, "\(error)")
        }
    }
}

/// Runs a subcommand body, turning ``CLIFailure`` and ``AASAError`` into one stderr line and
/// the documented exit status (never a stack trace, never argument-parser's generic "Error:").
func reportingFailures(path: String, _ body: () throws -> Void) throws {
    if case .failure(let status) = try reportingFailure(path: path, body) { throw status }
}

/// ``reportingFailures(path:_:)`` for one input of many: the failure's line is written and its
/// exit status returned, so that the caller goes on with the next input. A thrown ``ExitCode``
/// (the body's own line already written) is returned as it is; any other error (a usage error
/// for argument-parser) is thrown on.
func reportingFailure<Value>(path: String, _ body: () throws -> Value) rethrows -> Result<Value, ExitCode> {
    do {
        return .success(try body())
    } catch let failure as CLIFailure {
        Diagnostics.emit(failure.path, .error, failure.message, code: failure.code)
        return .failure(failure.status)
    } catch let status as ExitCode {
        return .failure(status)
    } catch let error as AASAError {
        Diagnostics.emit(path, .error, error.message)
        return .failure(ExitStatus.badInput)
    }
}
