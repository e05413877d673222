import Foundation
import AASATestSupport
import Testing

/// Where the package's files are, found through `#filePath`.
enum TestPaths {
    /// The package root (AASATestSupport's `Repository`).
    static let repoRoot: URL = Repository.root

    /// The test PKI (certs/README.md).
    static let certs = Repository.certs

    static func cert(_ name: String) -> String { Repository.cert(name) }

    /// The `aasa` executable under test (`$AASA_EXECUTABLE` overrides, as for every target).
    static let aasa: URL = Executables.aasa
}

/// Runs a program with stdout and stderr captured in files (no pipe can fill up), stdin from
/// a file or /dev/null, and a time limit.
enum TestProcess {
    struct Result: CustomStringConvertible {
        var status: Int32
        var stdout: Data
        var stderr: String
        var seconds: Double

        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

        /// stdout as one JSON object.
        func jsonObject() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any], "stdout is not a JSON object: \(stdoutText)")
        }

        /// stdout as JSON lines, one object each.
        func jsonLines() throws -> [[String: Any]] {
            try stdoutText.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
            }
        }

        var description: String {
            "exit \(status) after \(String(format: "%.1f", seconds)) s\n--- stdout (\(stdout.count) bytes)\n\(stdoutText.prefix(6000))\n--- stderr\n\(stderr.prefix(4000))"
        }
    }

    /// Runs the built `aasa` with `args`.
    static func aasa(_ args: [String], stdin: Data? = nil, timeout: TimeInterval = 120) -> Result {
        run(TestPaths.aasa.path, args, stdin: stdin, timeout: timeout)
    }

    static func run(_ executable: String, _ args: [String], stdin: Data? = nil, timeout: TimeInterval = 120) -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-audit-run-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        let inURL = scratch.appendingPathComponent("stdin")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: inURL.path, contents: stdin ?? Data())
        guard let output = try? FileHandle(forWritingTo: outURL), let errors = try? FileHandle(forWritingTo: errURL),
            let input = stdin == nil ? FileHandle(forReadingAtPath: "/dev/null") : try? FileHandle(forReadingFrom: inURL)
        else {
            return Result(status: -1, stdout: Data(), stderr: "cannot set up the run", seconds: 0)
        }
        defer {
            try? output.close()
            try? errors.close()
            try? input.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let started = Date()
        do {
            try process.run()
        } catch {
            return Result(status: -1, stdout: Data(), stderr: "cannot launch \(executable): \(error)", seconds: 0)
        }
        let deadline = started.addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: (try? Data(contentsOf: outURL)) ?? Data(),
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self),
            seconds: Date().timeIntervalSince(started))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs a helper program (openssl) and throws unless it exits 0.
    static func requireSuccess(_ executable: String, _ args: [String]) throws {
        let result = run(executable, args)
        guard result.status == 0 else {
            throw Failure(description: "\(executable) \(args.joined(separator: " ")) failed: \(result)")
        }
    }
}
