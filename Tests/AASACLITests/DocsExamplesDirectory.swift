import AASATestSupport
import Foundation
import Testing

/// The directory the docs' examples run in: made by `docs/examples/setup.sh` (what the pages
/// tell a reader to run first), with the `aasa` under test first on PATH, no colour, UTC and
/// no rules URL, so that outputs are those the pages show.
enum DocsExamplesDirectory {
    /// Runs `body` with the examples directory and the environment to run commands with.
    static func with<T>(_ body: (_ directory: URL, _ environment: [String: String]) throws -> T) throws -> T {
        try withTemporaryDirectory { scratch in
            let directory = scratch.child("examples")
            let bin = scratch.child("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: bin.child("aasa"), withDestinationURL: CLI.executable)
            let setUp = ProcessRunner.run(
                URL(fileURLWithPath: "/bin/bash"),
                [Repository.root.appendingPathComponent("docs/examples/setup.sh").path, directory.path],
                environment: ["AASA": CLI.executable.path], in: Repository.root)
            try #require(setUp.status == 0, "docs/examples/setup.sh: \(setUp)")
            let environment = [
                "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                "NO_COLOR": "1", "TZ": "UTC", "LC_ALL": "C.UTF-8", "AASA_RULES_URL": "",
            ]
            return try body(directory, environment)
        }
    }
}
