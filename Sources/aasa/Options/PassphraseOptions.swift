import AASA
import ArgumentParser
import Foundation

/// Where a passphrase comes from. Never from the command line itself: argv is visible to
/// every user of the machine (`ps`) and lands in shell history.
struct PassphraseOptions: ParsableArguments {
    @Option(
        name: .customLong("passphrase-env"),
        help: ArgumentHelp("Read the key's passphrase from this environment variable.", valueName: "name"))
    var environmentVariable: String?

    @Option(
        name: .customLong("passphrase-file"),
        help: ArgumentHelp("Read the key's passphrase from the first line of this file.", valueName: "path"))
    var file: String?

    func validate() throws {
        if environmentVariable != nil && file != nil {
            throw ValidationError("give either --passphrase-env or --passphrase-file, not both")
        }
    }

    /// The passphrase from the named source, or nil when none was named.
    func explicitPassphrase() throws -> Passphrase? {
        if let name = environmentVariable {
            guard let value = ProcessInfo.processInfo.environment[name] else {
                throw CLIFailure("--passphrase-env", "the environment variable \(name) is not set")
            }
            return Passphrase(value)
        }
        if let file {
            SecretFile.warnIfExposed(file, what: "passphrase file")
            var data = try InputFile.read(file, what: "passphrase file", limit: 64 * 1024)
            defer { data.resetBytes(in: 0..<data.count) }
            let line = data.prefix { $0 != 0x0A && $0 != 0x0D }
            return Passphrase(bytes: line)
        }
        return nil
    }

    /// Asks on the terminal (echo off) when standard input is a terminal; nil otherwise.
    func promptedPassphrase(for what: String) -> Passphrase? {
        guard isatty(STDIN_FILENO) == 1, let tty = fopen("/dev/tty", "r+") else { return nil }
        defer { fclose(tty) }
        let fd = fileno(tty)
        var saved = termios()
        tcgetattr(fd, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        // Ctrl-C at the prompt must not leave the terminal without echo (issue #15).
        return InterruptCleanup.shared.restoringTerminal(fd, to: saved) { () -> Passphrase? in
            tcsetattr(fd, TCSAFLUSH, &quiet)
            defer {
                tcsetattr(fd, TCSAFLUSH, &saved)
                fputs("\n", tty)
            }
            fputs("Passphrase for \(what): ", tty)
            fflush(tty)
            var buffer = [CChar](repeating: 0, count: 1024)
            defer { for index in buffer.indices { buffer[index] = 0 } }
            guard fgets(&buffer, Int32(buffer.count), tty) != nil else { return nil }
            let bytes = buffer.prefix { $0 != 0 && $0 != 0x0A && $0 != 0x0D }.map { UInt8(bitPattern: $0) }
            return Passphrase(bytes: bytes)
        }
    }

    /// Loads something that may need a passphrase: first with the explicit one (if any); when
    /// it turns out to need one and none was named, asks on the terminal, or explains how to give one.
    func load<T>(_ path: String, _ body: (Passphrase?) throws -> T) throws -> T {
        let given = try explicitPassphrase()
        do {
            return try body(given)
        } catch let error as AASAError where error.code == .passphraseRequired && given == nil {
            guard let prompted = promptedPassphrase(for: path) else {
                throw CLIFailure(
                    path,
                    "\(error.reason); give --passphrase-env NAME or --passphrase-file PATH (no terminal to ask on)")
            }
            do {
                return try body(prompted)
            } catch let error as AASAError {
                throw CLIFailure(path, error)
            }
        } catch let error as AASAError {
            throw CLIFailure(path, error)
        }
    }
}
