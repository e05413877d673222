// The verification policy of GitHub issue #12 through the built `aasa`: each fixture of
// Tests/Fixtures/policy gets its verdict code and reason from `verify`, and `extract` writes
// nothing for any file that is not valid.
import Foundation
import Testing

/// The fixtures of Tests/Fixtures/policy (README.md there).
enum PolicyFiles {
    static let folder = CLI.repoRoot.appendingPathComponent("Tests/Fixtures/policy", isDirectory: true)
    static func file(_ name: String) -> String { folder.appendingPathComponent("files/\(name)").path }
    static let root = folder.appendingPathComponent("pki/root.pem").path
    /// Trust pki/root.pem only, at 2025-01-01.
    static let trust = ["--ca-file", root, "--no-system-roots", "--at", "2025-01-01"]
}

/// A fixture that must not be valid: its verdict and a fragment of its reason.
struct RefusedFile: Sendable, CustomTestStringConvertible {
    var name: String
    var code: String
    var reason: String
    var testDescription: String { "\(name) → \(code)" }

    static let all: [RefusedFile] = [
        RefusedFile(
            name: "rsa512.p7m", code: "weak-algorithm", reason: "512-bit RSA key, below the minimum of 1024 bits"),
        RefusedFile(name: "rsa1023.p7m", code: "weak-algorithm", reason: "1023-bit RSA key"),
        RefusedFile(name: "md5-digest.p7m", code: "weak-algorithm", reason: "uses the digest MD5"),
        RefusedFile(name: "md5-cert.p7m", code: "weak-algorithm", reason: "signed with MD5"),
        RefusedFile(name: "keyenc-only.p7m", code: "wrong-purpose", reason: "may not make digital signatures"),
        RefusedFile(name: "attrs-no-content-type.p7m", code: "malformed", reason: "no contentType attribute"),
        RefusedFile(
            name: "attrs-two-content-type-values.p7m", code: "malformed", reason: "contentType attribute has 2 values"),
        RefusedFile(name: "attrs-bad-signing-time.p7m", code: "malformed", reason: "not a valid UTCTime"),
        RefusedFile(name: "attrs-no-message-digest.p7m", code: "malformed", reason: "no messageDigest attribute"),
        RefusedFile(name: "md4-digest.p7m", code: "unsupported-algorithm", reason: "md4"),
        RefusedFile(name: "ed25519-noattr.p7m", code: "unsupported-algorithm", reason: "ED25519"),
        RefusedFile(name: "dsa-inherited-parameters.p7m", code: "unsupported-algorithm", reason: "without parameters"),
        RefusedFile(name: "authenticode.p7m", code: "malformed", reason: "Microsoft Authenticode"),
        RefusedFile(name: "digested-data.p7m", code: "malformed", reason: "DigestedData"),
        RefusedFile(name: "signed-data-without-content.der", code: "malformed", reason: "the [0] field is missing"),
        RefusedFile(name: "cms-keyid-signer.p7m", code: "unsupported-cms", reason: "subjectKeyIdentifier"),
        RefusedFile(name: "two-messages.pem", code: "malformed", reason: "after the PEM block"),
        RefusedFile(name: "trailing-text.smime", code: "malformed", reason: "after the S/MIME message's base64 body"),
        RefusedFile(name: "multipart-tampered.smime", code: "tampered", reason: "does not match the content"),
        RefusedFile(name: "multipart-trailing.smime", code: "malformed", reason: "after the closing boundary"),
    ]
}

@Suite("Verification policy through the CLI (issue #12)")
struct PolicyCommandTests {
    @Test("verify gives the verdict code and reason, exit 1; extract writes nothing", arguments: RefusedFile.all)
    func refused(_ fixture: RefusedFile) throws {
        let path = PolicyFiles.file(fixture.name)
        let verify = CLI.run(["verify", path] + PolicyFiles.trust)
        #expect(verify.status == 1, "\(verify)")
        let lines = verify.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(path): \(fixture.code)", "\(verify)")
        let reason = lines.first { $0.hasPrefix("  reason:     ") }
        #expect(reason?.contains(fixture.reason) == true, "\(verify)")
        expectDiagnostic(
            verify.stderrLines.last, path: path, severity: "error", code: fixture.code, contains: [fixture.reason])

        let json = CLI.run(["verify", path, "--format", "json"] + PolicyFiles.trust)
        let report = try json.jsonObject()
        #expect(report["verdict"] as? String == fixture.code)
        #expect((report["reason"] as? String)?.contains(fixture.reason) == true)

        try withTemporaryDirectory { directory in
            let output = directory.child("out.json")
            let extract = CLI.run(["extract", path, "-o", output.path] + PolicyFiles.trust)
            #expect(extract.status != 0, "\(extract)")
            #expect(extract.stdout.isEmpty)
            #expect(!fileExists(output), "extract wrote \(output.path)")
            #expect(leftoverTemporaries(in: directory).isEmpty)
            #expect(extract.stderr.contains(fixture.code), "\(extract)")
        }
    }

    @Test("weak-algorithm, unsupported-algorithm and unsupported-cms make extract exit 1")
    func extractStatusForNewVerdicts() throws {
        for name in ["rsa512.p7m", "md4-digest.p7m", "cms-keyid-signer.p7m"] {
            let extract = CLI.run(["extract", PolicyFiles.file(name), "-o", "/dev/null"] + PolicyFiles.trust)
            #expect(extract.status == 1, "\(name): \(extract)")
        }
    }

    @Test("SHA-1 and a 1024-bit key are valid with warnings in the text and JSON reports")
    func warningsAreReported() throws {
        for (name, fragment) in [
            ("sha1-digest.p7m", "uses the digest SHA1"),
            ("rsa1024.p7m", "1024-bit RSA key, below the recommended 2048 bits"),
        ] {
            let path = PolicyFiles.file(name)
            let text = CLI.run(["verify", path] + PolicyFiles.trust)
            #expect(text.status == 0, "\(text)")
            #expect(text.stdoutText.contains("  warning:    "), "\(text)")
            #expect(text.stdoutText.contains(fragment), "\(text)")
            let json = try CLI.run(["verify", path, "--format", "json"] + PolicyFiles.trust).jsonObject()
            let warnings = try #require(json["warnings"] as? [String])
            #expect(warnings.count == 1 && warnings[0].contains(fragment), "\(warnings)")
        }
        let clean = try CLI.run(["verify", PolicyFiles.file("valid.p7m"), "--format", "json"] + PolicyFiles.trust)
            .jsonObject()
        #expect((clean["warnings"] as? [String])?.isEmpty == true)
    }

    @Test("check reports SHA-1 as signature-weak-algorithm")
    func checkReportsWeakSignature() throws {
        let result = CLI.run(["check", PolicyFiles.file("sha1-digest.p7m"), "--format", "json"] + PolicyFiles.trust)
        #expect(result.stdoutText.contains("signature-weak-algorithm"), "\(result)")
        #expect(result.stdoutText.contains("uses the digest SHA1"), "\(result)")
    }

    @Test("--allow-weak-crypto accepts a 512-bit signer, says so on every run, and still reports it")
    func allowWeakCrypto() throws {
        let path = PolicyFiles.file("rsa512.p7m")
        let verify = CLI.run(["verify", path, "--allow-weak-crypto"] + PolicyFiles.trust)
        #expect(verify.status == 0, "\(verify)")
        expectDiagnostic(
            verify.stderrLines.first, path: "--allow-weak-crypto", severity: "warning", contains: ["forensic use only"])
        #expect(verify.stdoutText.contains("accepted only because weak algorithms were allowed"), "\(verify)")
        try withTemporaryDirectory { directory in
            let output = directory.child("out.json")
            let extract = CLI.run(["extract", path, "-o", output.path, "--allow-weak-crypto"] + PolicyFiles.trust)
            #expect(extract.status == 0, "\(extract)")
            #expect(fileExists(output))
            #expect(extract.stderr.contains("--allow-weak-crypto: warning:"), "\(extract)")
        }
        // Never the default.
        #expect(CLI.run(["verify", path] + PolicyFiles.trust).status == 1)
    }

    @Test("multipart/signed: verify is valid and extract writes exactly what openssl smime -verify writes")
    func multipartExtractMatchesOpenSSL() throws {
        let path = PolicyFiles.file("multipart.smime")
        let verify = CLI.run(["verify", path] + PolicyFiles.trust)
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdoutText.contains("kind:       pkcs7-smime"))
        try withTemporaryDirectory { directory in
            let ours = directory.child("ours.json")
            let theirs = directory.child("theirs.json")
            let extract = CLI.run(["extract", path, "-o", ours.path] + PolicyFiles.trust)
            #expect(extract.status == 0, "\(extract)")
            try CLI.requireOpenSSL([
                "smime", "-verify", "-in", path, "-CAfile", PolicyFiles.root, "-purpose", "sslserver", "-out",
                theirs.path,
            ])
            let expected = try contents(theirs)
            #expect(!expected.isEmpty)
            #expect(try contents(ours) == expected)
        }
    }

    @Test(
        "padding after DER, PEM and S/MIME stays tolerated",
        arguments: ["valid-nul-padded.p7m", "valid-padded.pem", "valid.smime"])
    func paddingTolerated(name: String) throws {
        let verify = CLI.run(["verify", PolicyFiles.file(name)] + PolicyFiles.trust)
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stderr.isEmpty, "\(verify)")
    }

    @Test("detect agrees on CMS content types in DER and PEM", arguments: ["cms-compressed", "cms-auth-enveloped"])
    func detectAgrees(name: String) throws {
        let der = try CLI.run(["detect", PolicyFiles.file("\(name).der"), "--format", "json"]).json()
        let pem = try CLI.run(["detect", PolicyFiles.file("\(name).pem"), "--format", "json"]).json()
        let derText = "\(der)", pemText = "\(pem)"
        #expect(derText.contains("pkcs7-other"), "\(derText)")
        #expect(pemText.contains("pkcs7-other"), "\(pemText)")
    }
}
