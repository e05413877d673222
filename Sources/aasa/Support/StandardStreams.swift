import AASA
import Foundation

/// Every write of the CLI to standard output and standard error, so that none can trap.
///
/// Foundation's `FileHandle.write(_:)` ends the process with `try!` when a write fails (a full
/// disk, a closed descriptor): `aasa inspect F > /dev/full` died with SIGILL. Here:
/// - standard output that cannot be written: a reader that went away (EPIPE, `aasa … | head`,
///   with SIGPIPE ignored by a parent) ends the process by SIGPIPE, quietly, as other Unix
///   tools end (141 in a shell); any other failure is one line on standard error and exit 2;
/// - standard error that cannot be written (`2>&-`, a full disk) is ignored: there is nowhere
///   left to say so, and the exit status still tells.
enum StandardStreams {
    /// The status of a process ended by SIGPIPE, which shells show as 141.
    static let brokenPipeStatus: Int32 = 128 + SIGPIPE

    /// Writes `data` to standard output, or ends the process as described above.
    static func out(_ data: Data) {
        do {
            try writeOut(data)
        } catch {
            exitAfterOutputFailure(error)
        }
    }

    /// `text` as one line on standard output, escaped for the terminal (``TerminalText``).
    static func out(line text: String) {
        out(lines: [text])
    }

    /// Text lines on standard output, each escaped for the terminal (``TerminalText``): a
    /// newline or escape sequence inside an untrusted value cannot forge a line or drive the
    /// terminal. The one place text output is escaped: renderers give lines, not joined text.
    static func out(lines: [String]) {
        out(Data(utf8: escaped(lines)))
    }

    /// `lines`, each escaped, each with its newline, coloured when standard output takes
    /// colour (``TerminalColor``).
    static func escaped(_ lines: [String]) -> String {
        let colored = TerminalColor.standardOutput
        var text = ""
        for line in lines {
            let line = TerminalText.line(line)
            text += colored ? TerminalColor.highlight(line) : line
            text += "\n"
        }
        return text
    }

    /// Writes `data` to standard output; throws what the write threw (for a batch, which
    /// reports the failure once and goes on counting).
    static func writeOut(_ data: Data) throws {
        guard !data.isEmpty else { return }
        try FileHandle.standardOutput.write(contentsOf: data)
    }

    /// Writes `data` to standard error; a failure is only remembered (``errorFailed``).
    static func err(_ data: Data) {
        guard !data.isEmpty else { return }
        do {
            try FileHandle.standardError.write(contentsOf: data)
        } catch {
            errorFailure.set()
        }
    }

    /// Whether a write to standard error has failed in this process: for a command whose
    /// standard error carries part of its result (lint's summary and notes), which then ends
    /// with status 2 rather than 0 (issue #24).
    static var errorFailed: Bool { errorFailure.isSet }

    private static let errorFailure = Flag()

    /// A flag set from any thread.
    private final class Flag: @unchecked Sendable {  // every access holds `lock`
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    /// `text` (a whole line, with its newline) on standard error.
    static func err(_ text: String) {
        err(Data(utf8: text))
    }

    /// Whether `error` is a write to a pipe or socket whose reader has gone.
    static func isBrokenPipe(_ error: any Error) -> Bool {
        posixCode(error) == EPIPE
    }

    /// The POSIX error behind a Foundation write error, in words ("No space left on device").
    static func describe(_ error: any Error) -> String {
        posixCode(error).map { String(cString: strerror($0)) } ?? error.localizedDescription
    }

    /// Ends the process as a reader that went away ends other Unix tools: by SIGPIPE, which
    /// shells show as 141. (`_exit` if the signal does not end it.) No exit handler runs, as
    /// none would for the signal; nothing is left to flush: every write is unbuffered.
    static func endForBrokenPipe() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        _exit(brokenPipeStatus)
    }

    /// What a failed write to standard output means: for a reader that went away (EPIPE), the
    /// end of the process, quietly (``endForBrokenPipe()``); otherwise the failure to report.
    static func outputFailure(_ error: any Error) -> CLIFailure {
        if isBrokenPipe(error) { endForBrokenPipe() }
        return CLIFailure("<stdout>", "cannot write output: \(describe(error))")
    }

    /// Ends the process after standard output failed: quietly with 141 for EPIPE, else one line and 2.
    static func exitAfterOutputFailure(_ error: any Error) -> Never {
        let failure = outputFailure(error)
        err(Diagnostics.line(failure.path, .error, failure.message))
        exit(2)
    }

    private static func posixCode(_ error: any Error) -> Int32? {
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return Int32(nsError.code) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return Int32(underlying.code)
        }
        return nil
    }
}
