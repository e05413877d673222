import AASATestSupport
import Foundation
import Testing

/// The repository's `.pre-commit-hooks.yaml`, run by the real pre-commit tool (Debian's
/// `pre-commit`, which scripts/test.sh installs) as a user's configuration names it: in a new
/// git repository, a commit of good files passes and a staged bad file stops the commit.
@Suite("pre-commit hooks, run by pre-commit")
struct PreCommitHookTests {
    static let preCommit = ["/usr/bin/pre-commit", "/usr/local/bin/pre-commit"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs `command` with `arguments` in `directory`, with `aasa` and nothing but the system's
    /// programs on PATH, pre-commit's cache in `home`.
    static func run(_ command: String, _ arguments: [String], in directory: URL, home: URL, bin: URL)
        -> ProcessResult
    {
        ProcessRunner.run(
            URL(fileURLWithPath: command), arguments,
            environment: [
                "PATH": bin.path + ":/usr/bin:/bin", "HOME": home.path, "PRE_COMMIT_HOME": home.child("cache").path,
                "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@localhost", "GIT_COMMITTER_NAME": "t",
                "GIT_COMMITTER_EMAIL": "t@localhost", "LC_ALL": "C.UTF-8", "NO_COLOR": "1",
            ], in: directory, timeout: 300)
    }

    @Test("a commit of good AASA files passes both hooks; a bad plain file or a tampered signed one stops it")
    func hooksGateTheCommit() throws {
        let preCommit = try #require(
            Self.preCommit, "pre-commit is not installed (scripts/test.sh installs Debian's pre-commit)")
        try withTemporaryDirectory { root in
            let bin = root.child("bin")
            let home = root.child("home")
            let hooks = root.child("hooks")
            let work = root.child("work")
            for directory in [bin, home, hooks, work] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            try FileManager.default.createSymbolicLink(at: bin.child("aasa"), withDestinationURL: CLI.executable)
            @discardableResult func git(_ arguments: [String], in directory: URL) throws -> ProcessResult {
                let result = Self.run("/usr/bin/git", arguments, in: directory, home: home, bin: bin)
                try #require(result.status == 0, "git \(arguments.joined(separator: " ")): \(result)")
                return result
            }

            // The hooks as a repository at a commit, as a user's configuration names it: the
            // file of this checkout, committed or not.
            try git(["init", "-q", "-b", "main"], in: hooks)
            try FileManager.default.copyItem(
                at: CLI.repoRoot.child(".pre-commit-hooks.yaml"), to: hooks.child(".pre-commit-hooks.yaml"))
            try git(["add", "."], in: hooks)
            try git(["commit", "-q", "-m", "hooks"], in: hooks)
            let revision = try git(["rev-parse", "HEAD"], in: hooks).stdoutText
                .trimmingCharacters(in: .whitespacesAndNewlines)

            try git(["init", "-q", "-b", "main"], in: work)
            let config = """
                repos:
                  - repo: \(hooks.path)
                    rev: \(revision)
                    hooks:
                      - id: aasa-lint
                      - id: aasa-verify
                        args: [--ca-file, \(CLI.cert("ca-bundle.pem")), --no-system-roots]

                """
            try Data(config.utf8).write(to: work.child(".pre-commit-config.yaml"))
            let install = Self.run(preCommit, ["install"], in: work, home: home, bin: bin)
            try #require(install.status == 0, "pre-commit install: \(install)")

            // Good files: both hooks run and pass, the commit is made.
            let served = work.child("apple-app-site-association")
            let signed = work.child("legacy.p7m")
            try FileManager.default.copyItem(
                at: CLI.repoRoot.child("examples/apple-app-site-association.json"), to: served)
            let example = try Data(contentsOf: CLI.repoRoot.child("examples/apple-app-site-association.p7m"))
            try example.write(to: signed)
            try git(["add", "."], in: work)
            let good = Self.run("/usr/bin/git", ["commit", "-m", "good"], in: work, home: home, bin: bin)
            #expect(good.status == 0, "\(good)")
            for hook in ["aasa lint", "aasa verify"] {
                #expect(
                    (good.stdoutText + good.stderr).range(of: "\(hook)\\.+Passed", options: .regularExpression) != nil,
                    "\(hook): \(good)")
            }

            // A plain file with an error: aasa lint fails, the commit is not made.
            try Data(#"{"applinks": {"details": "not an array"}}"#.utf8).write(to: served)
            try git(["add", "."], in: work)
            let lint = Self.run("/usr/bin/git", ["commit", "-m", "bad json"], in: work, home: home, bin: bin)
            #expect(lint.status != 0, "\(lint)")
            #expect(
                (lint.stdoutText + lint.stderr).range(of: #"aasa lint\.+Failed"#, options: .regularExpression) != nil,
                "\(lint)")
            #expect(
                (lint.stdoutText + lint.stderr).contains("apple-app-site-association:"),
                "the finding names the file: \(lint)")
            try git(["checkout", "--", "."], in: work)
            try git(["reset", "-q", "--hard"], in: work)

            // A signed file changed after signing: aasa verify fails, the commit is not made.
            var tampered = example
            let content = try #require(tampered.range(of: Data("applinks".utf8)), "the example embeds its JSON")
            tampered[content.lowerBound] = UInt8(ascii: "A")
            try tampered.write(to: signed)
            try git(["add", "."], in: work)
            let verify = Self.run("/usr/bin/git", ["commit", "-m", "tampered"], in: work, home: home, bin: bin)
            #expect(verify.status != 0, "\(verify)")
            #expect(
                (verify.stdoutText + verify.stderr).range(of: #"aasa verify\.+Failed"#, options: .regularExpression)
                    != nil, "\(verify)")
            #expect((verify.stdoutText + verify.stderr).contains("tampered"), "the verdict is said: \(verify)")
            let log = try git(["log", "--format=%s"], in: work).stdoutText
            #expect(log == "good\n", "only the good commit was made: \(log)")
        }
    }
}
