import AASATestSupport
import Foundation
import Testing

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
                ["verify", Self.example],
                environment: ["SSL_CERT_FILE": CLI.cert("ca-bundle.pem"), "SSL_CERT_DIR": empty.path])
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test("a missing SSL_CERT_FILE is no error: the directory alone decides")
    func missingBundle() throws {
        try withTemporaryDirectory { dir in
            let certs = try hashDirectory(in: dir)
            let result = CLI.run(
                ["verify", Self.example],
                environment: ["SSL_CERT_DIR": certs.path, "SSL_CERT_FILE": dir.child("no-such-bundle.pem").path])
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test("a bundle in OpenSSL's TRUSTED CERTIFICATE form is read too")
    func trustedCertificateForm() throws {
        try withTemporaryDirectory { dir in
            let empty = dir.child("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let bundle = dir.child("trusted.pem")
            let convert = CLI.openssl([
                "x509", "-in", CLI.cert("root-ca.pem"), "-trustout", "-addtrust", "serverAuth", "-out", bundle.path,
            ])
            try #require(convert.status == 0, "\(convert)")
            let text = try String(contentsOf: bundle, encoding: .utf8)
            try #require(text.contains("BEGIN TRUSTED CERTIFICATE"), "\(text)")
            let result = CLI.run(
                ["verify", Self.example], environment: ["SSL_CERT_DIR": empty.path, "SSL_CERT_FILE": bundle.path])
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test("a batch whose workers all miss the directory at once: each finds the issuer once the bundle is loaded")
    func lazyBundleUnderConcurrency() throws {
        try withTemporaryDirectory { dir in
            let empty = dir.child("empty")
            let files = dir.child("files")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            // Files signed by different leaves, so that the chain cache does not answer for them.
            let leaves = ["leaf-rsa", "leaf-ec", "leaf-ec384", "leaf-wildcard"]
            for (index, leaf) in leaves.enumerated() {
                let output = files.child("\(index).p7m")
                let sign = CLI.run([
                    "sign", Self.example.replacingOccurrences(of: ".p7m", with: ".json"), "-o", output.path,
                    "--key", CLI.cert("\(leaf).key"), "--cert", CLI.cert("\(leaf).pem"), "--chain",
                    CLI.cert("chain.pem"),
                ])
                try #require(sign.status == 0, "\(sign)")
            }
            let result = CLI.run(
                ["verify", files.path, "--jobs", "4"],
                environment: ["SSL_CERT_DIR": empty.path, "SSL_CERT_FILE": CLI.cert("ca-bundle.pem")])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutText.components(separatedBy: ": valid").count - 1 == leaves.count, "\(result)")
        }
    }

    @Test("SSL_CERT_DIR as a list of directories: each is searched")
    func directoryList() throws {
        try withTemporaryDirectory { dir in
            let empty = dir.child("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let certs = try hashDirectory(in: dir)
            let result = CLI.run(
                ["verify", Self.example], environment: ["SSL_CERT_DIR": "\(empty.path):\(certs.path)"])
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
