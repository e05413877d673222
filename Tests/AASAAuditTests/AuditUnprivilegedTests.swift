import AASATestSupport
import Foundation
import Testing

/// `aasa audit` run by a user without privileges, as users (and the container image, which runs
/// as 65532) run it. The other suites run as whatever user runs the tests, root on CI, where a
/// socket option that needs CAP_NET_ADMIN (SO_DEBUG, once set by mistake for TCP_NODELAY) is
/// granted and a connect that fails for everyone else passes.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct AuditUnprivilegedTests {
    static let user = "65532"

    @Test("an unprivileged user audits the test nginx: connections open, the file is fetched and verified")
    func auditsWithoutPrivileges() throws {
        let directory = try Self.directoryTheUserCanRun()
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = directory.appendingPathComponent("aasa")
        let ca = directory.appendingPathComponent("ca-bundle.pem")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: TestPaths.cert("ca-bundle.pem")), to: ca)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: ca.path)

        try withNginx { server in
            let arguments = [
                "audit", server.domain(.plain), server.domain(.signedRoot), "--resolve", "*:*:127.0.0.1",
                "--ca-file", ca.path, "--no-system-roots", "--proxy", "", "--format", "json",
            ]
            // As root (CI): setpriv drops to another user with no capabilities; as anyone
            // else, the tests' own user is already unprivileged.
            let result = Self.runUnprivileged(binary, arguments, in: directory)
            #expect(result.status == 0, "\(result)")
            let document = try #require(try result.json() as? [String: Any], "\(result)")
            let domains = try #require(document["domains"] as? [[String: Any]], "\(result)")
            #expect(domains.count == 2, "\(result)")
            let verdicts = domains.map { $0["verdict"] as? String ?? "?" }
            #expect(verdicts == ["current", "legacy"], "\(result)")
            let text = result.stdoutText
            #expect(!text.contains("Permission denied"), "\(text)")
            #expect(!text.contains("connection-failed"), "\(text)")
        }
    }

    /// Runs `binary` as ``user`` with no capabilities when the tests run as root, else as the
    /// tests' own (already unprivileged) user.
    static func runUnprivileged(_ binary: URL, _ arguments: [String], in directory: URL) -> ProcessResult {
        guard getuid() == 0 else { return ProcessRunner.run(binary, arguments, in: directory) }
        return ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid", user, "--regid", user, "--clear-groups", "--inh-caps=-all", binary.path] + arguments,
            in: directory)
    }

    /// A fresh directory holding a copy of `aasa` that ``user`` can execute. A CI clone may sit
    /// under a mode-700 directory and a temporary directory may be mounted noexec, so each
    /// candidate is tried with `aasa --version` run as that user; the test is skipped, with
    /// every candidate's answer, only when none runs it.
    static func directoryTheUserCanRun() throws -> URL {
        var roots: [String] = []
        for root in [FileManager.default.temporaryDirectory.path, "/var/tmp", "/tmp", "/dev/shm"]
        where !roots.contains(root) {
            roots.append(root)
        }
        var answers: [String] = []
        for root in roots {
            let directory = URL(fileURLWithPath: root).appendingPathComponent(
                "aasa-unprivileged-\(UUID().uuidString.prefix(8))")
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
                let binary = directory.appendingPathComponent("aasa")
                try FileManager.default.copyItem(at: Executables.aasa, to: binary)
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: binary.path)
            } catch {
                answers.append("\(root): \(error)")
                try? FileManager.default.removeItem(at: directory)
                continue
            }
            let probe = runUnprivileged(directory.appendingPathComponent("aasa"), ["--version"], in: directory)
            if probe.status == 0 { return directory }
            answers.append("\(root): exit \(probe.status): \(probe.stderr.prefix(300))")
            try? FileManager.default.removeItem(at: directory)
        }
        try Test.cancel(
            "skipped: no directory where user \(user) can run a copy of aasa: \(answers.joined(separator: "; "))")
    }
}
