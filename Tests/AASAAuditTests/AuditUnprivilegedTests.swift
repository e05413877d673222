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
        // The binary and the CA in a directory that user can read (a CI clone may be mode 700).
        let directory = URL(fileURLWithPath: "/tmp/aasa-unprivileged-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let binary = directory.appendingPathComponent("aasa")
        try FileManager.default.copyItem(at: Executables.aasa, to: binary)
        let ca = directory.appendingPathComponent("ca-bundle.pem")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: TestPaths.cert("ca-bundle.pem")), to: ca)
        for (path, mode) in [(binary.path, 0o755), (ca.path, 0o644)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        }

        try withNginx { server in
            let arguments = [
                "audit", server.domain(.plain), server.domain(.signedRoot), "--resolve", "*:*:127.0.0.1",
                "--ca-file", ca.path, "--no-system-roots", "--proxy", "", "--format", "json",
            ]
            // As root (CI): setpriv drops to another user with no capabilities; as anyone
            // else, the tests' own user is already unprivileged.
            let result: ProcessResult
            if getuid() == 0 {
                result = ProcessRunner.run(
                    URL(fileURLWithPath: "/usr/bin/setpriv"),
                    ["--reuid", Self.user, "--regid", Self.user, "--clear-groups", "--inh-caps=-all", binary.path]
                        + arguments, in: directory)
            } else {
                result = ProcessRunner.run(binary, arguments, in: directory)
            }
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
}
