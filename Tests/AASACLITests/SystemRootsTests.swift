import Foundation
import Testing
import AASATestSupport

/// The system trust store as `verify` loads it by default: issuers are looked up by subject
/// hash in the certificate directory (`SSL_CERT_DIR`, default /etc/ssl/certs) when a chain needs
/// them, and `SSL_CERT_FILE` loads a bundle, as OpenSSL's default paths do. Each case runs the
/// binary with its own environment, so the trust decision is the one a user gets.
@Suite("aasa verify: system trust store")
struct SystemRootsTests {
    static let example = Repository.examples.appendingPathComponent("apple-app-site-association.p7m").path

    /// A hash directory holding the test root (and nothing else), as `openssl rehash` makes it.
    func hashDirectory(in dir: URL, with anchor: String = "root-ca.pem") throws -> URL {
        let certs = dir.child("certs")
        try FileManager.default.createDirectory(at: certs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.cert(anchor), toPath: certs.child("anchor.pem").path)
        let rehash = CLI.openssl(["rehash", certs.path])
        try #require(rehash.status == 0, "\(rehash)")
        let names = try FileManager.default.contentsOfDirectory(atPath: certs.path)
        try #require(names.contains { $0.hasSuffix(".0") }, "openssl rehash made no hash link: \(names)")
        return certs
    }

    @Test("SSL_CERT_DIR as a hash directory holding the test root: valid")
    func hashDirectoryTrusts() throws {
        try withTemporaryDirectory { dir in
            let certs = try hashDirectory(in: dir)
            let result = CLI.run(["verify", Self.example], environment: ["SSL_CERT_DIR": certs.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutText.contains("valid"), "\(result)")
        }
    }

    @Test("SSL_CERT_DIR as a hash directory of another root: untrusted, whatever the bundle holds")
    func hashDirectoryOfAnotherRoot() throws {
        try withTemporaryDirectory { dir in
            let certs = try hashDirectory(in: dir, with: "untrusted-root-ca.pem")
            let result = CLI.run(["verify", Self.example], environment: ["SSL_CERT_DIR": certs.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdoutText.contains("untrusted"), "\(result)")
        }
    }

    @Test("the root under a name that is not a hash is not found (no directory listing)")
    func plainNamesAreNotRead() throws {
        try withTemporaryDirectory { dir in
            let certs = dir.child("certs")
            try FileManager.default.createDirectory(at: certs, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: CLI.cert("root-ca.pem"), toPath: certs.child("root-ca.pem").path)
            let result = CLI.run(["verify", Self.example], environment: ["SSL_CERT_DIR": certs.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdoutText.contains("untrusted"), "\(result)")
        }
    }

    @Test("SSL_CERT_FILE names a bundle: it is loaded, as with OpenSSL's default paths")
    func certFileTrusts() throws {
        try withTemporaryDirectory { dir in
            let empty = dir.child("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let result = CLI.run(
                ["verify", Self.example], environment: ["SSL_CERT_FILE": CLI.cert("ca-bundle.pem"), "SSL_CERT_DIR": empty.path])
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test("SSL_CERT_DIR as a list of directories: each is searched")
    func directoryList() throws {
        try withTemporaryDirectory { dir in
            let empty = dir.child("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let certs = try hashDirectory(in: dir)
            let result = CLI.run(["verify", Self.example], environment: ["SSL_CERT_DIR": "\(empty.path):\(certs.path)"])
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test("the default system store does not trust the test PKI")
    func defaultStore() {
        let result = CLI.run(["verify", Self.example])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutText.contains("untrusted"), "\(result)")
    }

    @Test("--no-system-roots ignores SSL_CERT_DIR")
    func noSystemRoots() throws {
        try withTemporaryDirectory { dir in
            let certs = try hashDirectory(in: dir)
            let result = CLI.run(
                ["verify", Self.example, "--ca-file", CLI.cert("untrusted-root-ca.pem"), "--no-system-roots"],
                environment: ["SSL_CERT_DIR": certs.path])
            #expect(result.status == 1, "\(result)")
        }
    }
}
