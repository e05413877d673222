import Foundation
import Testing

/// `aasa sign`: byte-for-byte interop with `openssl smime -sign … -noattr -nodetach`, passphrase
/// sources, refusals, and the atomic output file.
@Suite("aasa sign")
struct SignCommandTests {
    private static let signer = [
        "--key", CLI.cert("leaf-rsa.key"), "--cert", CLI.cert("leaf-rsa.pem"), "--chain", CLI.cert("chain.pem"),
    ]

    // MARK: - Interop with openssl smime

    @Test("DER output is byte-identical to openssl smime -sign -noattr -nodetach -outform DER")
    func matchesOpenSSLDER() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let expected = try Fixture.opensslSign(input, to: dir.child("openssl.p7m"))
            let result = CLI.run(["sign", input.path, "-o", dir.child("aasa.p7m").path] + Self.signer)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(try contents(dir.child("aasa.p7m")) == contents(expected))
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("--binary matches openssl -binary (content not CRLF-canonicalised)")
    func binaryMatchesOpenSSLBinary() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let expected = try Fixture.opensslSign(input, binary: true, to: dir.child("openssl.p7m"))
            let result = CLI.run(["sign", input.path, "-o", dir.child("aasa.p7m").path, "--binary"] + Self.signer)
            #expect(result.status == 0, "\(result)")
            let signed = try contents(dir.child("aasa.p7m"))
            #expect(signed == (try contents(expected)))
            // The LF content is embedded as is; the default mode would embed CRLF.
            #expect(signed.range(of: Fixture.json) != nil)
        }
    }

    @Test("default (text) mode embeds the CRLF-canonical content")
    func textModeEmbedsCRLF() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let result = CLI.run(["sign", input.path, "-o", dir.child("aasa.p7m").path] + Self.signer)
            #expect(result.status == 0, "\(result)")
            let signed = try contents(dir.child("aasa.p7m"))
            #expect(signed.range(of: Fixture.jsonCRLF) != nil)
            #expect(signed.range(of: Fixture.json) == nil)
        }
    }

    @Test("--outform pem matches openssl -outform PEM")
    func pemMatchesOpenSSLPEM() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let expected = try Fixture.opensslSign(input, outform: "PEM", to: dir.child("openssl.pem"))
            let result = CLI.run(
                ["sign", input.path, "-o", dir.child("aasa.pem").path, "--outform", "pem"] + Self.signer)
            #expect(result.status == 0, "\(result)")
            let signed = try contents(dir.child("aasa.pem"))
            #expect(signed == (try contents(expected)))
            #expect(String(decoding: signed, as: UTF8.self).hasPrefix("-----BEGIN PKCS7-----"))
        }
    }

    @Test("-o - writes the signed file to stdout")
    func outputToStdout() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let expected = try Fixture.opensslSign(input, to: dir.child("openssl.p7m"))
            let result = CLI.run(["sign", input.path, "-o", "-"] + Self.signer, in: dir)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == (try contents(expected)))
            #expect(result.stderr.isEmpty)
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == ["aasa.json", "openssl.p7m"])
        }
    }

    @Test("input - is read from stdin")
    func inputFromStdin() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let expected = try Fixture.opensslSign(input, to: dir.child("openssl.p7m"))
            let output = dir.child("aasa.p7m")
            let result = CLI.run(["sign", "-", "-o", output.path] + Self.signer, stdin: Fixture.json)
            #expect(result.status == 0, "\(result)")
            #expect(try contents(output) == contents(expected))
        }
    }

    @Test("stdin to stdout with --outform pem")
    func stdinToStdoutPEM() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let expected = try Fixture.opensslSign(input, outform: "PEM", to: dir.child("openssl.pem"))
            let result = CLI.run(["sign", "-", "-o", "-", "--outform", "pem"] + Self.signer, stdin: Fixture.json)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == (try contents(expected)))
        }
    }

    // MARK: - Passphrases

    enum Identity: String, CaseIterable, CustomTestStringConvertible {
        case pkcs12, encryptedKey
        var arguments: [String] {
            switch self {
            case .pkcs12: return ["--pkcs12", CLI.cert("leaf-rsa.p12")]
            case .encryptedKey:
                return [
                    "--key", CLI.cert("leaf-rsa.enc.key"), "--cert", CLI.cert("leaf-rsa.pem"), "--chain",
                    CLI.cert("chain.pem"),
                ]
            }
        }
        var protectedFile: String { self == .pkcs12 ? CLI.cert("leaf-rsa.p12") : CLI.cert("leaf-rsa.enc.key") }
        var testDescription: String { rawValue }
    }

    enum PassphraseSource: String, CaseIterable, CustomTestStringConvertible {
        case file, environment
        var testDescription: String { rawValue }
    }

    @Test(
        "a protected identity signs with the passphrase from a file or the environment", arguments: Identity.allCases,
        PassphraseSource.allCases)
    func signsWithPassphrase(identity: Identity, source: PassphraseSource) throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            // The p12 holds leaf-rsa's key, certificate and the intermediate: same as the recipe with chain.pem.
            let expected = try Fixture.opensslSign(input, to: dir.child("openssl.p7m"))
            let output = dir.child("aasa.p7m")
            var args = ["sign", input.path, "-o", output.path] + identity.arguments
            var environment: [String: String] = [:]
            switch source {
            case .file: args += ["--passphrase-file", CLI.cert("passphrase.txt")]
            case .environment:
                args += ["--passphrase-env", "AASA_CLI_TEST_PASSPHRASE"]
                environment["AASA_CLI_TEST_PASSPHRASE"] = Fixture.passphrase
            }
            let result = CLI.run(args, environment: environment)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(try contents(output) == contents(expected))
        }
    }

    @Test(
        "rejectsMissingPassphraseWithoutTerminal: one line naming the file and how to give a passphrase",
        arguments: Identity.allCases)
    func rejectsMissingPassphraseWithoutTerminal(identity: Identity) throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let output = dir.child("aasa.p7m")
            let result = CLI.run(["sign", input.path, "-o", output.path] + identity.arguments)
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: identity.protectedFile, severity: "error",
                contains: ["--passphrase-env", "--passphrase-file"])
            #expect(!fileExists(output))
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("rejectsWrongPassphrase", arguments: Identity.allCases)
    func rejectsWrongPassphrase(identity: Identity) throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let output = dir.child("aasa.p7m")
            let result = CLI.run(
                ["sign", input.path, "-o", output.path, "--passphrase-env", "AASA_CLI_TEST_WRONG"] + identity.arguments,
                environment: ["AASA_CLI_TEST_WRONG": "wrong"])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: identity.protectedFile, severity: "error")
            #expect(!fileExists(output))
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("rejectsUnsetPassphraseVariable")
    func rejectsUnsetPassphraseVariable() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let output = dir.child("aasa.p7m")
            let result = CLI.run(
                [
                    "sign", input.path, "-o", output.path, "--passphrase-env",
                    "AASA_CLI_TEST_SURELY_UNSET_\(UUID().uuidString.prefix(8))",
                ]
                    + Identity.encryptedKey.arguments)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: "--passphrase-env", severity: "error",
                contains: ["AASA_CLI_TEST_SURELY_UNSET_"])
            #expect(!fileExists(output))
        }
    }

    // MARK: - Refusals that leave the output alone

    @Test("rejectsKeyNotMatchingCertificate: no output, and an existing output is untouched")
    func rejectsKeyNotMatchingCertificate() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let args = { (output: URL) in
                [
                    "sign", input.path, "-o", output.path, "--key", CLI.cert("leaf-ec.key"), "--cert",
                    CLI.cert("leaf-rsa.pem"),
                ]
            }
            let fresh = dir.child("fresh.p7m")
            var result = CLI.run(args(fresh))
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: CLI.cert("leaf-ec.key"), severity: "error",
                contains: ["does not belong to the certificate"])
            #expect(!fileExists(fresh))

            let existing = dir.child("existing.p7m")
            let previous = Data("previous contents\n".utf8)
            try previous.write(to: existing)
            result = CLI.run(args(existing))
            #expect(result.status == 2, "\(result)")
            #expect(try contents(existing) == previous)
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("an expired signer certificate is a warning; the file is still signed")
    func warnsAboutExpiredCertificate() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let output = dir.child("aasa.p7m")
            let expected = try Fixture.opensslSign(input, leaf: "leaf-expired", to: dir.child("openssl.p7m"))
            let result = CLI.run([
                "sign", input.path, "-o", output.path, "--key", CLI.cert("leaf-expired.key"), "--cert",
                CLI.cert("leaf-expired.pem"),
                "--chain", CLI.cert("chain.pem"),
            ])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: CLI.cert("leaf-expired.pem"), severity: "warning",
                contains: ["expired", "2016-01-01"])
            #expect(try contents(output) == contents(expected))
        }
    }

    @Test("rejectsExpiredCertificateWhenStrict: exit 1, nothing written")
    func rejectsExpiredCertificateWhenStrict() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let output = dir.child("aasa.p7m")
            let result = CLI.run([
                "sign", input.path, "-o", output.path, "--key", CLI.cert("leaf-expired.key"), "--cert",
                CLI.cert("leaf-expired.pem"),
                "--strict",
            ])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: CLI.cert("leaf-expired.pem"), severity: "error", contains: ["expired"])
            #expect(!fileExists(output))
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("--strict with a valid certificate signs normally")
    func strictWithValidCertificate() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let result = CLI.run(["sign", input.path, "-o", dir.child("aasa.p7m").path, "--strict"] + Self.signer)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            #expect(fileExists(dir.child("aasa.p7m")))
        }
    }

    @Test("content over 128 KB is a warning; still signed")
    func warnsAboutLargeContent() throws {
        try withTemporaryDirectory { dir in
            let paths = (0..<12_000).map { "\"/path/number/\($0)\"" }.joined(separator: ", ")
            let big = Data(
                "{\"applinks\": {\"apps\": [], \"details\": [{\"appID\": \"ABCDE12345.com.example.app\", \"paths\": [\(paths)]}]}}\n"
                    .utf8)
            try #require(big.count > 131_072)
            let input = try Fixture.write(big, to: dir, as: "big.json")
            let output = dir.child("big.p7m")
            let result = CLI.run(["sign", input.path, "-o", output.path, "--binary"] + Self.signer)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: input.path, severity: "warning", contains: ["\(big.count)", "131072"])
            let signed = try contents(output)
            #expect(signed.count > big.count)
            #expect(signed.range(of: big) != nil)
        }
    }

    @Test("non-JSON content is a warning; still signed")
    func warnsAboutNonJSONContent() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(Data("hello, this is not json\n".utf8), to: dir, as: "hello.txt")
            let output = dir.child("hello.p7m")
            let result = CLI.run(["sign", input.path, "-o", output.path] + Self.signer)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: input.path, severity: "warning", contains: ["not JSON"])
            #expect(fileExists(output))
        }
    }

    @Test(
        "an already signed input (DER, PEM, S/MIME) is refused with status 2 and nothing written, alone and in a batch; --wrap-signed signs it with a warning"
    )
    func refusesAlreadySignedInput() throws {
        try withTemporaryDirectory { dir in
            let json = try Fixture.write(to: dir, as: "source.json")
            var signed: [URL] = []
            for form in ["der", "pem", "smime"] {
                let output = dir.child("signed.\(form)")
                let made = CLI.run(["sign", json.path, "-o", output.path, "--outform", form] + Self.signer)
                try #require(made.status == 0, "\(made)")
                signed.append(output)
            }
            for input in signed {
                let output = dir.child("twice.p7m")
                let refused = CLI.run(["sign", input.path, "-o", output.path] + Self.signer)
                #expect(refused.status == 2 && !fileExists(output), "\(input.lastPathComponent): \(refused)")
                #expect(refused.stderrLines.count == 1, "\(refused)")
                expectDiagnostic(
                    refused.stderrLines.first, path: input.path, severity: "error",
                    contains: ["refusing to sign", "already a signed file", "--wrap-signed"])
            }
            let wrapped = dir.child("wrapped.p7m")
            let forced = CLI.run(["sign", signed[0].path, "-o", wrapped.path, "--wrap-signed"] + Self.signer)
            #expect(forced.status == 0 && fileExists(wrapped), "\(forced)")
            expectDiagnostic(
                forced.stderrLines.first, path: signed[0].path, severity: "warning", contains: ["already a signed file"]
            )
            // A batch: the signed file is refused, the JSON beside it signed; the worst status is 2.
            let tree = dir.child("tree")
            try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: json, to: tree.child("a.json"))
            try FileManager.default.copyItem(at: signed[0], to: tree.child("b.p7m"))
            let batch = CLI.run(["sign", tree.path, "--out-dir", dir.child("out").path] + Self.signer)
            #expect(batch.status == 2, "\(batch)")
            #expect(fileExists(dir.child("out/a.json")) && !fileExists(dir.child("out/b.p7m")), "\(batch)")
            #expect(
                batch.stderr.contains("b.p7m: error: refusing to sign: the content is already a signed file"),
                "\(batch)")
        }
    }

    @Test("--digest sha1 with --allow-sha1 signs with a warning, like openssl -md sha1")
    func sha1WithAllowFlag() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let output = dir.child("aasa.p7m")
            let result = CLI.run(
                ["sign", input.path, "-o", output.path, "--digest", "sha1", "--allow-sha1"] + Self.signer)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: input.path, severity: "warning", contains: ["SHA-1"])
            let expected = dir.child("openssl.p7m")
            try CLI.requireOpenSSL([
                "smime", "-sign", "-md", "sha1", "-inkey", CLI.cert("leaf-rsa.key"), "-signer",
                CLI.cert("leaf-rsa.pem"),
                "-certfile", CLI.cert("chain.pem"), "-noattr", "-nodetach", "-outform", "DER", "-in", input.path,
                "-out", expected.path,
            ])
            #expect(try contents(output) == contents(expected))
        }
    }

    @Test("rejectsOutputSameAsInput: refused, input unchanged")
    func rejectsOutputSameAsInput() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            for output in [input.path, dir.path + "/./aasa.json"] {
                let result = CLI.run(["sign", input.path, "-o", output] + Self.signer)
                #expect(result.status == 64, "\(result)")
                #expect(result.stderrLines.count == 1, "\(result)")
                expectDiagnostic(
                    result.stderrLines.first, path: output, severity: "error",
                    contains: ["the output is the input file"])
                #expect(try contents(input) == Fixture.json)
            }
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    /// `-o` naming the `--key` (or `--cert`, `--chain`, `--pkcs12`) file is refused like `-o`
    /// naming the content: the private key is never replaced by the signed output.
    @Test("rejectsOutputSameAsKey: the private key is not overwritten")
    func rejectsOutputSameAsKey() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let key = dir.child("signer.key")
            let original = try Data(contentsOf: URL(fileURLWithPath: CLI.cert("leaf-rsa.key")))
            try original.write(to: key)
            let result = CLI.run([
                "sign", input.path, "-o", key.path, "--key", key.path, "--cert", CLI.cert("leaf-rsa.pem"),
            ])
            let keyUnchanged = try contents(key) == original
            #expect(result.status == 64, "\(result)")
            #expect(keyUnchanged, "the private key file was replaced by the signed output")
        }
    }

    @Test("a not-yet-valid signer certificate is a warning naming the start date")
    func warnsAboutNotYetValidCertificate() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let output = dir.child("aasa.p7m")
            let result = CLI.run([
                "sign", input.path, "-o", output.path, "--key", CLI.cert("leaf-not-yet-valid.key"), "--cert",
                CLI.cert("leaf-not-yet-valid.pem"),
            ])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: CLI.cert("leaf-not-yet-valid.pem"), severity: "warning",
                contains: ["2090-01-01"])
            #expect(fileExists(output))
        }
    }

    @Test("ECDSA signers: the output verifies and extracts back to the input", arguments: ["leaf-ec", "leaf-ec384"])
    func ecdsaRoundTrip(leaf: String) throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let output = dir.child("\(leaf).p7m")
            let sign = CLI.run([
                "sign", input.path, "-o", output.path, "--key", CLI.cert("\(leaf).key"), "--cert",
                CLI.cert("\(leaf).pem"),
                "--chain", CLI.cert("chain.pem"),
            ])
            #expect(sign.status == 0, "\(sign)")
            #expect(sign.stderr.isEmpty)
            let extract = CLI.run(["extract", output.path, "--lf"] + Fixture.testTrust)
            #expect(extract.status == 0, "\(extract)")
            #expect(extract.stdout == Fixture.json)
            // openssl agrees that the signature is good.
            try CLI.requireOpenSSL([
                "smime", "-verify", "-inform", "DER", "-in", output.path, "-CAfile", CLI.cert("ca-bundle.pem"),
                "-purpose", "any",
                "-out", dir.child("openssl.out").path,
            ])
        }
    }

    @Test(
        "unreadable --cert, --chain or --passphrase-file: exit 2, one line naming that file",
        arguments: ["cert", "chain", "passphrase-file"])
    func unreadableSignerInput(which: String) throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let missing = dir.child("missing-\(which)").path
            let output = dir.child("aasa.p7m")
            var args = ["sign", input.path, "-o", output.path]
            switch which {
            case "cert": args += ["--key", CLI.cert("leaf-rsa.key"), "--cert", missing]
            case "chain":
                args += ["--key", CLI.cert("leaf-rsa.key"), "--cert", CLI.cert("leaf-rsa.pem"), "--chain", missing]
            default: args += Identity.encryptedKey.arguments + ["--passphrase-file", missing]
            }
            let result = CLI.run(args)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: missing, severity: "error")
            #expect(!fileExists(output))
        }
    }

    @Test("rejectsOutputInMissingDirectory: exit 2, nothing created")
    func rejectsOutputInMissingDirectory() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let output = dir.child("missing/sub/aasa.p7m")
            let result = CLI.run(["sign", input.path, "-o", output.path] + Self.signer)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: output.path, severity: "error")
            #expect(!fileExists(dir.child("missing")))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["aasa.json"])
        }
    }

    @Test("rejectsOutputThatIsADirectory: exit 2, no temporary file left beside it")
    func rejectsOutputThatIsADirectory() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let output = dir.child("out")
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
            let result = CLI.run(["sign", input.path, "-o", output.path] + Self.signer)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: output.path, severity: "error")
            #expect(leftoverTemporaries(in: dir).isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
        }
    }

    @Test("an existing output is replaced on success")
    func replacesExistingOutput() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let expected = try Fixture.opensslSign(input, to: dir.child("openssl.p7m"))
            let output = dir.child("aasa.p7m")
            try Data("old".utf8).write(to: output)
            let result = CLI.run(["sign", input.path, "-o", output.path] + Self.signer)
            #expect(result.status == 0, "\(result)")
            #expect(try contents(output) == contents(expected))
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("rejectsMissingInput: exit 2, one line naming it")
    func rejectsMissingInput() throws {
        try withTemporaryDirectory { dir in
            let input = dir.child("nope.json")
            let output = dir.child("aasa.p7m")
            let result = CLI.run(["sign", input.path, "-o", output.path] + Self.signer)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: input.path, severity: "error")
            #expect(!fileExists(output))
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    // MARK: - Usage errors (64)

    static let usageErrors: [(String, [String])] = [
        ("--key without --cert", ["--key", CLI.cert("leaf-rsa.key")]),
        ("--cert without --key", ["--cert", CLI.cert("leaf-rsa.pem")]),
        ("no signer at all", []),
        (
            "--pkcs12 with --key",
            [
                "--pkcs12", CLI.cert("leaf-rsa.p12"), "--key", CLI.cert("leaf-rsa.key"), "--cert",
                CLI.cert("leaf-rsa.pem"),
            ]
        ),
        ("unknown flag", ["--key", CLI.cert("leaf-rsa.key"), "--cert", CLI.cert("leaf-rsa.pem"), "--frobnicate"]),
        (
            "--digest sha1 without --allow-sha1",
            ["--key", CLI.cert("leaf-rsa.key"), "--cert", CLI.cert("leaf-rsa.pem"), "--digest", "sha1"]
        ),
        ("unknown digest", ["--key", CLI.cert("leaf-rsa.key"), "--cert", CLI.cert("leaf-rsa.pem"), "--digest", "md5"]),
        (
            "unknown outform",
            ["--key", CLI.cert("leaf-rsa.key"), "--cert", CLI.cert("leaf-rsa.pem"), "--outform", "xml"]
        ),
        ("--chain with --pkcs12", ["--pkcs12", CLI.cert("leaf-rsa.p12"), "--chain", CLI.cert("chain.pem")]),
        (
            "both passphrase sources",
            Identity.encryptedKey.arguments + [
                "--passphrase-env", "X", "--passphrase-file", CLI.cert("passphrase.txt"),
            ]
        ),
    ]

    @Test("usage errors exit 64 and write nothing", arguments: usageErrors)
    func usageError(name: String, extra: [String]) throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let output = dir.child("aasa.p7m")
            let result = CLI.run(["sign", input.path, "-o", output.path] + extra)
            #expect(result.status == 64, "\(name): \(result)")
            #expect(result.stdout.isEmpty)
            #expect(!result.stderr.isEmpty)
            #expect(!fileExists(output))
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("missing -o is a usage error")
    func missingOutputIsUsageError() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let result = CLI.run(["sign", input.path] + Self.signer)
            #expect(result.status == 64, "\(result)")
        }
    }

    /// Issue #15: mode 620 was called "readable by its group"; the words now follow the bits.
    @Test(
        "the warning says exactly who can read or write the key",
        arguments: [
            (0o620, "writable by its group"), (0o604, "readable by every user"),
            (0o660, "readable by its group and writable by its group"),
            (0o622, "writable by every user"), (0o646, "readable by every user and writable by every user"),
        ])
    func exposureWording(mode: Int, words: String) throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let key = dir.child("exposed.key")
            try Data(contentsOf: URL(fileURLWithPath: CLI.cert("leaf-rsa.key"))).write(to: key)
            chmod(key.path, mode_t(mode))
            let result = CLI.run([
                "sign", input.path, "-o", dir.child("a.p7m").path, "--key", key.path, "--cert",
                CLI.cert("leaf-rsa.pem"),
            ])
            #expect(result.status == 0, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: key.path, severity: "warning",
                contains: ["private key file is \(words) (mode \(String(mode, radix: 8)))"])
        }
    }

    @Test("a passphrase file others can read is a warning too; 0600 is quiet")
    func exposedPassphraseFile() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let passphrase = dir.child("passphrase.txt")
            try Data(contentsOf: URL(fileURLWithPath: CLI.cert("passphrase.txt"))).write(to: passphrase)
            for (mode, warned) in [(0o644, true), (0o600, false)] {
                chmod(passphrase.path, mode_t(mode))
                let result = CLI.run([
                    "sign", input.path, "-o", dir.child("out-\(mode).p7m").path, "--pkcs12", CLI.cert("leaf-rsa.p12"),
                    "--passphrase-file", passphrase.path,
                ])
                #expect(result.status == 0, "\(result)")
                let warning = result.stderrLines.first { $0.hasPrefix("\(passphrase.path): warning: ") }
                #expect((warning != nil) == warned, "\(result)")
                if warned { #expect(warning?.contains("passphrase file is readable by every user (mode 644)") == true) }
            }
        }
    }

    @Test("a private key readable by others is a warning naming the file and its mode; 0600 is quiet")
    func warnsAboutExposedKey() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let key = dir.child("exposed.key")
            try Data(contentsOf: URL(fileURLWithPath: CLI.cert("leaf-rsa.key"))).write(to: key)
            chmod(key.path, 0o644)
            let exposed = CLI.run([
                "sign", input.path, "-o", dir.child("a.p7m").path, "--key", key.path, "--cert",
                CLI.cert("leaf-rsa.pem"),
            ])
            #expect(exposed.status == 0, "\(exposed)")
            expectDiagnostic(
                exposed.stderrLines.first, path: key.path, severity: "warning",
                contains: ["readable by every user", "644", "chmod 600"])
            chmod(key.path, 0o640)
            let group = CLI.run([
                "sign", input.path, "-o", dir.child("b.p7m").path, "--key", key.path, "--cert",
                CLI.cert("leaf-rsa.pem"),
            ])
            expectDiagnostic(
                group.stderrLines.first, path: key.path, severity: "warning",
                contains: ["readable by its group", "640"])
            chmod(key.path, 0o600)
            let quiet = CLI.run([
                "sign", input.path, "-o", dir.child("c.p7m").path, "--key", key.path, "--cert",
                CLI.cert("leaf-rsa.pem"),
            ])
            #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet)")
        }
    }
}
