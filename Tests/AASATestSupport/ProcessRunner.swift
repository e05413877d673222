// The one way every test target runs a program: the `aasa` executable under test, the
// `openssl` CLI oracle, util-linux `script`.
import Foundation

/// What a finished program did: its exit status, what it wrote, how long it took.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status; -1 when the program could not be launched (``stderr`` says why).
    public var status: Int32
    public var stdout: Data
    public var stderr: String
    /// Wall-clock time from launch to exit.
    public var seconds: Double
    /// Whether the time limit ran out and the program was terminated.
    public var timedOut: Bool
    /// Whether the program was launched at all.
    public var launched: Bool

    public var succeeded: Bool { status == 0 }

    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

    /// The stderr lines, without the empty one after the final newline.
    public var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }

    /// stdout parsed as JSON (`JSONSerialization`, so a test does not share the CLI's types).
    public func json() throws -> Any { try JSONSerialization.jsonObject(with: stdout) }

    /// stdout as one JSON object.
    public func jsonObject() throws -> [String: Any] {
        guard let object = try json() as? [String: Any] else {
            throw NotJSON("stdout is not a JSON object: \(stdoutText)")
        }
        return object
    }

    /// stdout as JSON lines, one object each.
    public func jsonLines() throws -> [[String: Any]] {
        try stdoutText.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw NotJSON("not a JSON object: \(line)")
            }
            return object
        }
    }

    /// Output that is not the JSON a test expected.
    public struct NotJSON: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public var description: String {
        let ending = timedOut ? "terminated at the time limit" : "exit \(status)"
        return "\(ending) after \(String(format: "%.1f", seconds)) s\n--- stdout (\(stdout.count) bytes)\n"
            + "\(stdoutText.prefix(6000))\n--- stderr\n\(stderr.prefix(4000))"
    }
}

/// Runs a program to completion, as a user would, and captures what it did.
///
/// stdout and stderr go to temporary files rather than pipes, so a child that writes a lot to
/// both can never deadlock the test; standard input is the given bytes or `/dev/null`, so
/// nothing ever waits for a terminal (the passphrase prompt needs `isatty(0)`).
public enum ProcessRunner {
    /// Runs `executable` with `arguments` and waits for it.
    /// - Parameters:
    ///   - stdin: The bytes on standard input; nil for `/dev/null`.
    ///   - environment: Added to (and overriding) the test's own environment; nil leaves it as is.
    ///   - directory: The working directory; nil for the test's.
    ///   - timeout: Seconds before the program is terminated (SIGTERM, then SIGKILL after 2 s);
    ///     nil waits for ever.
    public static func run(
        _ executable: URL, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil,
        in directory: URL? = nil, timeout: TimeInterval? = 120
    ) -> ProcessResult {
        func failure(_ reason: String) -> ProcessResult {
            ProcessResult(status: -1, stdout: Data(), stderr: reason, seconds: 0, timedOut: false, launched: false)
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aasa-test-run-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            return failure("cannot create \(scratch.path): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        let inURL = scratch.appendingPathComponent("stdin")
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
            FileManager.default.createFile(atPath: errURL.path, contents: nil),
            stdin == nil || FileManager.default.createFile(atPath: inURL.path, contents: stdin),
            let output = try? FileHandle(forWritingTo: outURL), let errors = try? FileHandle(forWritingTo: errURL),
            let input = stdin == nil
                ? FileHandle(forReadingAtPath: "/dev/null") : try? FileHandle(forReadingFrom: inURL)
        else {
            return failure("cannot set up the files for a run of \(executable.path) in \(scratch.path)")
        }
        defer {
            try? input.close()
            try? output.close()
            try? errors.close()
        }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        if let directory { process.currentDirectoryURL = directory }
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let started = Date()
        do {
            try process.run()
        } catch {
            return failure("cannot launch \(executable.path): \(error)")
        }
        var timedOut = false
        if let timeout {
            let deadline = started.addingTimeInterval(timeout)
            while process.isRunning {
                if Date() > deadline {
                    // SIGTERM, then SIGKILL: a program that handles SIGTERM (aasa removes its
                    // temporaries) may be blocked where the handler cannot end it.
                    process.terminate()
                    timedOut = true
                    let grace = Date().addingTimeInterval(2)
                    while process.isRunning && Date() < grace { usleep(5_000) }
                    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                    break
                }
                usleep(5_000)
            }
        }
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus, stdout: (try? Data(contentsOf: outURL)) ?? Data(),
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self),
            seconds: Date().timeIntervalSince(started), timedOut: timedOut, launched: true)
    }
}
