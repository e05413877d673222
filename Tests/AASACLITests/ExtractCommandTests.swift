import Foundation
import Testing

/// `aasa extract`: the embedded bytes exactly, only after verification (unless `--no-verify`).
@Suite("aasa extract")
struct ExtractCommandTests {
    @Test("stdout is exactly the embedded bytes: CRLF canonical for a text-mode signature")
    func extractsCRLFContent() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let result = CLI.run(["extract", signed.path] + Fixture.testTrust)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == Fixture.jsonCRLF)
            #expect(result.stderr.isEmpty, "\(result)")
            // Same bytes as openssl's own extraction.
            let openssl = try CLI.requireOpenSSL([
                "smime", "-verify", "-noverify", "-inform", "DER", "-in", signed.path,
            ])
            #expect(result.stdout == openssl.stdout)
        }
    }

    /// Issue #15: `-o` could replace a trust anchor read through `--ca-dir` (the same path
    /// through `--ca-file` was refused). Every certificate of a CA directory is an input.
    @Test("-o naming a certificate inside --ca-dir is refused, and the anchor stays")
    func outputInsideCADirectoryIsRefused() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let anchors = dir.child("anchors")
            try FileManager.default.createDirectory(at: anchors, withIntermediateDirectories: true)
            let root = anchors.child("root-ca.pem")
            try FileManager.default.copyItem(atPath: CLI.cert("root-ca.pem"), toPath: root.path)
            let original = try contents(root)
            let result = CLI.run([
                "extract", signed.path, "-o", root.path, "--ca-dir", anchors.path, "--no-system-roots",
            ])
            #expect(result.status == 64, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: root.path, severity: "error", contains: ["the output is the input file"]
            )
            #expect(try contents(root) == original)
        }
    }

    @Test("--lf gives back the original LF JSON (sign → extract round trip)")
    func extractsOriginalWithLF() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let result = CLI.run(["extract", signed.path, "--lf"] + Fixture.testTrust)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == Fixture.json)
        }
    }

    @Test("a --binary signature extracts the LF bytes as they were")
    func extractsBinarySignedContent() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let signed = dir.child("binary.p7m")
            let sign = CLI.run([
                "sign", input.path, "-o", signed.path, "--binary", "--key", CLI.cert("leaf-rsa.key"), "--cert",
                CLI.cert("leaf-rsa.pem"),
                "--chain", CLI.cert("chain.pem"),
            ])
            try #require(sign.status == 0, "\(sign)")
            let result = CLI.run(["extract", signed.path] + Fixture.testTrust)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == Fixture.json)
        }
    }

    @Test("-o FILE writes the content there, nothing on stdout")
    func extractsToFile() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let output = dir.child("out.json")
            let result = CLI.run(["extract", signed.path, "-o", output.path, "--lf"] + Fixture.testTrust)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.isEmpty)
            #expect(try contents(output) == Fixture.json)
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("stdin - works")
    func extractsFromStdin() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let result = CLI.run(["extract", "-", "--lf"] + Fixture.testTrust, stdin: try contents(signed))
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == Fixture.json)
        }
    }

    enum Invalid: String, CaseIterable, CustomTestStringConvertible {
        case untrusted, tampered
        var testDescription: String { rawValue }

        /// Makes the invalid file in `dir` and returns it with the trust flags to use.
        func make(in dir: URL) throws -> (URL, [String]) {
            let signed = try Fixture.signedFile(in: dir)
            switch self {
            case .untrusted:
                return (signed, [])  // the system roots do not include the test root
            case .tampered:
                var bytes = try contents(signed)
                let range = try #require(bytes.firstRange(of: "NOT /buy/admin"))
                bytes[range.lowerBound] = UInt8(ascii: "M")
                let tampered = dir.child("tampered.p7m")
                try bytes.write(to: tampered)
                return (tampered, Fixture.testTrust)
            }
        }
    }

    @Test("refusesInvalidFile: exit 1, no output file, an existing output untouched", arguments: Invalid.allCases)
    func refusesInvalidFile(kind: Invalid) throws {
        try withTemporaryDirectory { dir in
            let (file, trust) = try kind.make(in: dir)

            let toStdout = CLI.run(["extract", file.path] + trust)
            #expect(toStdout.status == 1, "\(toStdout)")
            #expect(toStdout.stdout.isEmpty, "nothing may be written: \(toStdout)")
            #expect(toStdout.stderrLines.count == 1, "\(toStdout)")
            expectDiagnostic(toStdout.stderrLines.first, path: file.path, severity: "error", code: kind.rawValue)

            let fresh = dir.child("fresh.json")
            let result = CLI.run(["extract", file.path, "-o", fresh.path] + trust)
            #expect(result.status == 1, "\(result)")
            #expect(!fileExists(fresh))

            let existing = dir.child("existing.json")
            let previous = Data("{\"previous\": true}\n".utf8)
            try previous.write(to: existing)
            let again = CLI.run(["extract", file.path, "-o", existing.path] + trust)
            #expect(again.status == 1, "\(again)")
            #expect(try contents(existing) == previous)
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("--no-verify extracts an untrusted file with an UNVERIFIED warning")
    func noVerifyWarns() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let result = CLI.run(["extract", signed.path, "--no-verify"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == Fixture.jsonCRLF)
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: signed.path, severity: "warning", contains: ["UNVERIFIED"])
        }
    }

    @Test("refusesPlainJSON: exit 2, 'already plain JSON'", arguments: [false, true])
    func refusesPlainJSON(noVerify: Bool) throws {
        try withTemporaryDirectory { dir in
            let plain = try Fixture.write(to: dir)
            let output = dir.child("out.json")
            let result = CLI.run(
                ["extract", plain.path, "-o", output.path] + (noVerify ? ["--no-verify"] : Fixture.testTrust))
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: plain.path, severity: "error", contains: ["already plain JSON"])
            #expect(!fileExists(output))
        }
    }

    enum Unusable: String, CaseIterable, CustomTestStringConvertible {
        case garbage, truncated, empty
        var testDescription: String { rawValue }
    }

    @Test(
        "nothing to extract from garbage, damaged or empty input: exit 2, nothing written",
        arguments: Unusable.allCases, [false, true])
    func refusesUnusableInput(kind: Unusable, noVerify: Bool) throws {
        try withTemporaryDirectory { dir in
            let bytes: Data
            switch kind {
            case .garbage: bytes = Data((0..<400).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 7) })
            case .truncated:
                let signed = try contents(try Fixture.signedFile(in: dir))
                bytes = signed.prefix(signed.count / 2)
            case .empty: bytes = Data()
            }
            let file = try Fixture.write(bytes, to: dir, as: "input.\(kind.rawValue)")
            let output = dir.child("out.json")
            let result = CLI.run(
                ["extract", file.path, "-o", output.path] + (noVerify ? ["--no-verify"] : Fixture.testTrust))
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: file.path, severity: "error", contains: ["nothing to extract"])
            #expect(!fileExists(output))
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("a missing file exits 2")
    func missingFile() throws {
        try withTemporaryDirectory { dir in
            let missing = dir.child("missing.p7m")
            let result = CLI.run(["extract", missing.path] + Fixture.testTrust)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: missing.path, severity: "error")
        }
    }

    @Test("refusesOutputSameAsInput: the signed file is not overwritten")
    func refusesOutputSameAsInput() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let before = try contents(signed)
            let result = CLI.run(["extract", signed.path, "-o", signed.path, "--no-verify"])
            #expect(result.status == 64, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            #expect(try contents(signed) == before)
        }
    }

    @Test("refusesOutputSameAsTrustFile: -o naming the --ca-file leaves the trust file intact")
    func refusesOutputSameAsTrustFile() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let ca = dir.child("ca.pem")
            let original = try Data(contentsOf: URL(fileURLWithPath: CLI.cert("ca-bundle.pem")))
            try original.write(to: ca)
            let result = CLI.run(["extract", signed.path, "--ca-file", ca.path, "--no-system-roots", "-o", ca.path])
            #expect(result.status == 64, "\(result)")
            #expect(try contents(ca) == original)
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("replacing an existing output keeps its permissions")
    func keepsPermissionsOfReplacedOutput() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let output = dir.child("out.json")
            try Data("old".utf8).write(to: output)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: output.path)
            let result = CLI.run(["extract", signed.path, "-o", output.path] + Fixture.testTrust)
            #expect(result.status == 0, "\(result)")
            let mode = try FileManager.default.attributesOfItem(atPath: output.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(try contents(output) == Fixture.jsonCRLF)
        }
    }

    @Test("corpus artsy -a: --no-verify --lf equals its published unsigned source")
    func artsyRoundTrip() throws {
        let signed = CLI.realSigned("artsy_artsy-eigen-web-association_aasa-20150915-a.p7m")
        let result = CLI.run(["extract", signed, "--no-verify", "--lf"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout
                == (try Data(contentsOf: URL(fileURLWithPath: CLI.realPlain("artsy_force_aasa-json-2015.json")))))
        expectDiagnostic(result.stderrLines.first, path: signed, severity: "warning", contains: ["UNVERIFIED"])

        // Without --lf the bytes are the CRLF ones openssl extracts.
        let raw = CLI.run(["extract", signed, "--no-verify"])
        let openssl = try CLI.requireOpenSSL(["smime", "-verify", "-noverify", "-inform", "DER", "-in", signed])
        #expect(raw.stdout == openssl.stdout)
    }

    @Test("the real signed files do not extract with verification", arguments: CLI.realSignedFiles)
    func realSignedFilesRefused(name: String) throws {
        let result = CLI.run(["extract", CLI.realSigned(name)])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty)
    }
}
