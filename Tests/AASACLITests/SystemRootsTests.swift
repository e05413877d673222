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

    /// `openssl req -x509` of the test root's key under `subject`, its values encoded as
    /// BMPString (string_mask MASK:0x800), written to `path`.
    func rootVariant(subject: String, at path: URL, in dir: URL) throws {
        let config = dir.child("variant.cnf")
        try """
        [req]
        distinguished_name = dn
        string_mask = MASK:0x800
        prompt = no
        [dn]
        [ext]
        basicConstraints = critical,CA:TRUE
        keyUsage = critical,keyCertSign,cRLSign
        subjectKeyIdentifier = hash
        """.write(to: config, atomically: true, encoding: .utf8)
        let make = CLI.openssl([
            "req", "-x509", "-new", "-key", CLI.cert("root-ca.key"), "-days", "3650", "-subj", subject, "-utf8",
            "-config", config.path, "-extensions", "ext", "-out", path.path,
        ])
        try #require(make.status == 0, "\(make)")
        let shown = CLI.openssl(["x509", "-in", path.path, "-noout", "-subject", "-nameopt", "multiline,show_type"])
        try #require(shown.stdoutText.contains("BMPSTRING"), "\(shown)")
    }

    /// The intermediate names its issuer "O=aasa test PKI, CN=AASA Test Root CA" in UTF8String;
    /// the bundle holds the same key under that name in BMPString, other case and other spacing.
    /// X509_NAME_cmp compares canonical forms, so OpenSSL's file lookup finds it; the bundle index
    /// decodes only subjects whose fingerprint matches, so this fails if the fingerprint kept
    /// case, spacing or the string type.
    @Test("a bundle root named in another encoding of the issuer's name (BMPString, case, spacing): found")
    func canonicalNameMatch() throws {
        try withTemporaryDirectory { dir in
            let empty = dir.child("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let variant = dir.child("variant.pem")
            try rootVariant(subject: "/O=AASA  TEST pki/CN= aasa test   ROOT ca", at: variant, in: dir)
            let reference = CLI.openssl([
                "verify", "-CAfile", variant.path, "-untrusted", CLI.cert("intermediate-ca.pem"),
                CLI.cert("leaf-rsa.pem"),
            ])
            try #require(reference.status == 0, "openssl itself must find it: \(reference)")
            let result = CLI.run(
                ["verify", Self.example], environment: ["SSL_CERT_DIR": empty.path, "SSL_CERT_FILE": variant.path])
            #expect(result.status == 0, "\(result)")
            // A name that differs in one letter is another name, for openssl and for aasa.
            let other = dir.child("other.pem")
            try rootVariant(subject: "/O=aasa test PKI/CN=AASA Test Root CB", at: other, in: dir)
            let refused = CLI.run(
                ["verify", Self.example], environment: ["SSL_CERT_DIR": empty.path, "SSL_CERT_FILE": other.path])
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stdoutText.contains("untrusted"), "\(refused)")
        }
    }

    /// A chain made for one bundle lookup: a root key; the bundle's root under `bundleSubject`;
    /// an issuing copy of the same key under `issuerSubject`, which names the leaf's issuer; a
    /// leaf for example.com; the AASA example content signed by it. Returns the signed file,
    /// the bundle root and the leaf.
    func chain(bundleSubject: String, issuerSubject: String, in dir: URL) throws -> (
        file: String, bundle: URL, leaf: String
    ) {
        let config = dir.child("chain.cnf")
        try """
        [req]
        distinguished_name = dn
        prompt = no
        [dn]
        [root]
        basicConstraints = critical,CA:TRUE
        keyUsage = critical,keyCertSign,cRLSign
        subjectKeyIdentifier = hash
        [leaf]
        basicConstraints = critical,CA:FALSE
        keyUsage = critical,digitalSignature
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:example.com
        authorityKeyIdentifier = keyid
        """.write(to: config, atomically: true, encoding: .utf8)
        func openssl(_ arguments: [String]) throws {
            let result = CLI.openssl(arguments)
            try #require(result.status == 0, "openssl \(arguments): \(result)")
        }
        let rootKey = dir.child("root.key").path, leafKey = dir.child("leaf.key").path
        for key in [rootKey, leafKey] {
            try openssl(["genpkey", "-quiet", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key])
        }
        let bundle = dir.child("bundle.pem"), issuer = dir.child("issuer.pem").path
        for (subject, out) in [(bundleSubject, bundle.path), (issuerSubject, issuer)] {
            try openssl([
                "req", "-x509", "-new", "-key", rootKey, "-days", "3650", "-subj", subject, "-config", config.path,
                "-extensions", "root", "-out", out,
            ])
        }
        let request = dir.child("leaf.csr").path, leaf = dir.child("leaf.pem").path
        try openssl([
            "req", "-new", "-key", leafKey, "-subj", "/CN=example.com", "-config", config.path, "-out", request,
        ])
        try openssl([
            "x509", "-req", "-in", request, "-CA", issuer, "-CAkey", rootKey, "-set_serial", "7", "-days", "3650",
            "-extfile", config.path, "-extensions", "leaf", "-out", leaf,
        ])
        let file = dir.child("signed.p7m").path
        try openssl([
            "smime", "-sign", "-in", Repository.examples.appendingPathComponent("apple-app-site-association.json").path,
            "-signer", leaf, "-inkey", leafKey, "-md", "sha256", "-noattr", "-nodetach", "-binary", "-outform", "DER",
            "-out", file,
        ])
        return (file, bundle, leaf)
    }

    /// The fingerprint folds A to Z into a to z before it compares: a bundle root named "ZZ"
    /// where the leaf's issuer says "zz" is the same name for X509_NAME_cmp, so it must be found
    /// (this fails if the fold stopped short of Z); a name one letter off is another name.
    @Test("a bundle root whose name differs from the issuer's only in the case of Z: found")
    func caseOfZ() throws {
        try withTemporaryDirectory { dir in
            let empty = dir.child("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let made = try chain(bundleSubject: "/CN=ZZ Case Root", issuerSubject: "/CN=zz case root", in: dir)
            let reference = CLI.openssl(["verify", "-CAfile", made.bundle.path, made.leaf])
            try #require(reference.status == 0, "openssl itself must find it: \(reference)")
            let result = CLI.run(
                ["verify", made.file, "--domain", "example.com"],
                environment: ["SSL_CERT_DIR": empty.path, "SSL_CERT_FILE": made.bundle.path])
            #expect(result.status == 0, "\(result)")
            let other = try withTemporaryDirectory { otherDir in
                let made = try chain(bundleSubject: "/CN=ZY Case Root", issuerSubject: "/CN=zz case root", in: otherDir)
                return CLI.run(
                    ["verify", made.file], environment: ["SSL_CERT_DIR": empty.path, "SSL_CERT_FILE": made.bundle.path])
            }
            #expect(other.status == 1 && other.stdoutText.contains("untrusted"), "\(other)")
        }
    }

    /// A bundle root whose subject holds a constructed UTF8String (BER that OpenSSL decodes and
    /// X509_NAME_cmp finds equal to the issuer's primitive one): the bundle index cannot
    /// fingerprint it, and must then compare it rather than pass it over.
    @Test("a bundle root whose subject the index cannot fingerprint is still compared, and found")
    func unfingerprintableSubject() throws {
        try withTemporaryDirectory { dir in
            let empty = dir.child("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let made = try chain(
                bundleSubject: "/O=aasa tests/CN=Constructed Root", issuerSubject: "/O=aasa tests/CN=Constructed Root",
                in: dir)
            let constructed = dir.child("constructed.pem")
            let script = Repository.fixtures.appendingPathComponent("system-roots/constructed-subject.py").path
            let craft = ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["python3", script, made.bundle.path, dir.child("root.key").path, constructed.path])
            try #require(craft.status == 0, "\(craft)")
            let parsed = CLI.openssl(["asn1parse", "-in", constructed.path])
            try #require(parsed.stdoutText.contains("cons: UTF8STRING"), "the subject is constructed: \(parsed)")
            let reference = CLI.openssl(["verify", "-CAfile", constructed.path, made.leaf])
            try #require(reference.status == 0, "openssl itself must find it: \(reference)")
            let result = CLI.run(
                ["verify", made.file], environment: ["SSL_CERT_DIR": empty.path, "SSL_CERT_FILE": constructed.path])
            #expect(result.status == 0, "\(result)")
        }
    }

    /// The bundle's blocks as real files have them and as PEM allows: other blocks first, a
    /// block with a PEM header (not plain base64: OpenSSL decodes that block), CRLF line ends,
    /// short lines, one line, and the root last after other certificates.
    @Test("a bundle of every shape PEM allows: the root is found in each")
    func bundleShapes() throws {
        try withTemporaryDirectory { dir in
            let empty = dir.child("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let root = try String(contentsOfFile: CLI.cert("root-ca.pem"), encoding: .utf8)
            let lines = root.split(separator: "\n").map(String.init)
            let body = lines.filter { !$0.hasPrefix("-----") }.joined()
            let key = try String(contentsOfFile: CLI.cert("leaf-rsa.key"), encoding: .utf8)
            let others = try [
                "untrusted-root-ca.pem", "intermediate-ca.pem", "leaf-rsa.pem", "leaf-ec.pem", "self-signed.pem",
            ].map { try String(contentsOfFile: CLI.cert($0), encoding: .utf8) }.joined()
            var shortLines = "-----BEGIN CERTIFICATE-----\n"
            var rest = Substring(body)
            while !rest.isEmpty {
                shortLines += rest.prefix(20) + "\n"
                rest = rest.dropFirst(20)
            }
            shortLines += "-----END CERTIFICATE-----\n"
            let shapes: [(String, String)] = [
                ("after a key and other certificates", key + others + root),
                (
                    "with a PEM header",
                    root.replacingOccurrences(
                        of: "-----BEGIN CERTIFICATE-----\n", with: "-----BEGIN CERTIFICATE-----\nComment: test root\n\n"
                    )
                ),
                ("with CRLF line ends", root.replacingOccurrences(of: "\n", with: "\r\n")),
                ("in lines of 20 characters", shortLines),
                ("in one line", "-----BEGIN CERTIFICATE-----\n" + body + "\n-----END CERTIFICATE-----\n"),
            ]
            for (index, (shape, text)) in shapes.enumerated() {
                let bundle = dir.child("bundle-\(index).pem")
                try text.write(to: bundle, atomically: true, encoding: .utf8)
                let result = CLI.run(
                    ["verify", Self.example], environment: ["SSL_CERT_DIR": empty.path, "SSL_CERT_FILE": bundle.path])
                #expect(result.status == 0, "\(shape): \(result)")
            }
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
