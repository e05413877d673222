// Re-exported so that every file of this target sees the members of AASATestSupport's types
// (`TestProcess.Result` is its `ProcessResult`) without an import of its own (MemberImportVisibility).
@_exported import AASATestSupport
import Foundation

/// Where the package's files are: AASATestSupport's `Repository`, under this target's names.
enum TestPaths {
    /// The package root (AASATestSupport's `Repository`).
    static let repoRoot: URL = Repository.root

    /// The test PKI (certs/README.md).
    static let certs = Repository.certs

    static func cert(_ name: String) -> String { Repository.cert(name) }

    /// The `aasa` executable under test (`$AASA_EXECUTABLE` overrides, as for every target).
    static let aasa: URL = Executables.aasa
}

/// Runs a program through AASATestSupport's `ProcessRunner` (stdout and stderr captured in
/// files, stdin from the given bytes or /dev/null, a time limit): one runner for every target.
enum TestProcess {
    /// What a run produced: status, stdout, stderr, time (AASATestSupport's `ProcessResult`).
    typealias Result = ProcessResult

    /// Runs the built `aasa` with `args`.
    static func aasa(_ args: [String], stdin: Data? = nil, timeout: TimeInterval = 120) -> Result {
        run(TestPaths.aasa.path, args, stdin: stdin, timeout: timeout)
    }

    static func run(_ executable: String, _ args: [String], stdin: Data? = nil, timeout: TimeInterval = 120) -> Result {
        ProcessRunner.run(URL(fileURLWithPath: executable), args, stdin: stdin, timeout: timeout)
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
