import Foundation
import Testing

/// `aasa verify`: verdicts, their codes on stderr and in `--format json`, and exit statuses.
@Suite("aasa verify")
struct VerifyCommandTests {
    /// Runs `verify` on `file` with the test trust store plus `extra`.
    private func verify(_ file: URL, _ extra: [String] = [], trust: [String] = Fixture.testTrust) -> CLI.Result {
        CLI.run(["verify", file.path] + trust + extra)
    }

    /// Checks a failed verification: exit 1, stdout names the verdict, one `[code]` error line on stderr.
    private func expectRejected(
        _ result: CLI.Result, path: String, code: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdoutText.hasPrefix("\(path): \(code)\n"), "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderrLines.count == 1, "\(result)", sourceLocation: sourceLocation)
        expectDiagnostic(
            result.stderrLines.first, path: path, severity: "error", code: code, sourceLocation: sourceLocation)
    }

    // MARK: - Valid

    @Test("a file signed by leaf-rsa with the chain is valid against the test root")
    func acceptsValidFile() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let result = verify(signed)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutText.hasPrefix("\(signed.path): valid\n"), "\(result)")
            #expect(result.stdoutText.contains("CN=example.com"))
            #expect(result.stderr.isEmpty, "\(result)")
        }
    }

    @Test("--format json: valid, null reason, signer and a chain of 3")
    func validJSONReport() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let result = verify(signed, ["--format", "json"])
            #expect(result.status == 0, "\(result)")
            let report = try result.jsonObject()
            #expect(report["valid"] as? Bool == true)
            #expect(report["reason"] is NSNull, "reason must be an explicit null: \(report["reason"] ?? "missing")")
            #expect(report.keys.contains("reason"))
            #expect(report["verdict"] as? String == "valid")
            #expect(report["path"] as? String == signed.path)
            #expect(report["kind"] as? String == "pkcs7-der")
            let signer = try #require(report["signer"] as? [String: Any])
            #expect(signer["subject"] as? String == "CN=example.com")
            #expect(signer["serialNumber"] as? String == "3001")
            let chain = try #require(report["chain"] as? [[String: Any]])
            #expect(chain.count == 3)
            #expect(chain.last?["subject"] as? String == "O=aasa test PKI, CN=AASA Test Root CA")
            let infos = try #require(report["signerInfos"] as? [[String: Any]])
            #expect(infos.first?["hasSignedAttributes"] as? Bool == false)
        }
    }

    @Test("stdin - is verified, reported as <stdin>")
    func verifiesStdin() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let result = CLI.run(["verify", "-"] + Fixture.testTrust, stdin: try contents(signed))
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutText.hasPrefix("<stdin>: valid\n"), "\(result)")
        }
    }

    @Test("PEM and S/MIME encodings verify too", arguments: ["PEM", "SMIME"])
    func verifiesOtherEncodings(outform: String) throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let signed = try Fixture.opensslSign(input, outform: outform, to: dir.child("signed.\(outform)"))
            let result = verify(signed)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutText.hasPrefix("\(signed.path): valid\n"), "\(result)")
        }
    }

    // MARK: - Trust

    @Test("rejectsUntrustedRoot: with the default system roots the test PKI is untrusted")
    func rejectsUntrustedRoot() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let result = verify(signed, trust: [])
            expectRejected(result, path: signed.path, code: "untrusted")

            let json = verify(signed, ["--format", "json"], trust: [])
            #expect(json.status == 1, "\(json)")
            let report = try json.jsonObject()
            #expect(report["valid"] as? Bool == false)
            #expect(report["verdict"] as? String == "untrusted")
            let reason = try #require(report["reason"] as? String)
            #expect(!reason.isEmpty)
            expectDiagnostic(json.stderrLines.first, path: signed.path, severity: "error", code: "untrusted")
        }
    }

    @Test("rejectsUnrelatedRoot: leaf-untrusted does not chain to the test root")
    func rejectsUnrelatedRoot() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir, leaf: "leaf-untrusted")
            expectRejected(verify(signed), path: signed.path, code: "untrusted")
        }
    }

    @Test("rejectsTamperedContent: one flipped byte in the embedded JSON")
    func rejectsTamperedContent() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            var bytes = try contents(signed)
            let range = try #require(bytes.firstRange(of: "ABCDE12345.com.example.app"))
            #expect(bytes.range(of: Data("ABCDE12345.com.example.app".utf8), in: range.upperBound..<bytes.count) == nil)
            bytes[range.lowerBound] ^= 0x01  // "A" -> "@"
            let tampered = dir.child("tampered.p7m")
            try bytes.write(to: tampered)
            expectRejected(verify(tampered), path: tampered.path, code: "tampered")
        }
    }

    // MARK: - Time

    @Test(
        "rejectsExpiredSigner now, accepts it at --at 2015-06-01",
        arguments: [
            "2015-06-01T00:00:00Z", "1433116800", "2015-06-01", "2015-06-01T02:00:00+02:00",
            "2015-06-01T00:00:00.000Z", "2015-05-31T23:00:00-01:00",
        ])
    func expiredSigner(at time: String) throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir, leaf: "leaf-expired")
            expectRejected(verify(signed), path: signed.path, code: "expired")

            let then = verify(signed, ["--at", time])
            #expect(then.status == 0, "\(then)")
            #expect(then.stdoutText.hasPrefix("\(signed.path): valid\n"), "\(then)")
            #expect(then.stdoutText.contains("checked at: 2015-06-01T00:00:00Z"), "\(then)")
            #expect(then.stderr.isEmpty)
        }
    }

    @Test("rejectsNotYetValidSigner")
    func rejectsNotYetValidSigner() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir, leaf: "leaf-not-yet-valid")
            expectRejected(verify(signed), path: signed.path, code: "not-yet-valid")
            #expect(verify(signed, ["--at", "2095-01-01T00:00:00Z"]).status == 0)
        }
    }

    @Test("--min-days-valid: leaf-short-lived at 2029-12-01 is expiring soon")
    func rejectsExpiringSoon() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir, leaf: "leaf-short-lived")
            expectRejected(
                verify(signed, ["--at", "2029-12-01", "--min-days-valid", "60"]), path: signed.path,
                code: "expiring-soon")
            #expect(verify(signed, ["--at", "2029-12-01", "--min-days-valid", "10"]).status == 0)
            #expect(verify(signed, ["--at", "2029-12-01"]).status == 0)
        }
    }

    // MARK: - Purpose and host

    @Test("rejectsWrongPurpose: leaf-rsa (serverAuth only) for smimesign")
    func rejectsSMIMEPurposeForServerCertificate() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            expectRejected(verify(signed, ["--purpose", "smimesign"]), path: signed.path, code: "wrong-purpose")
        }
    }

    @Test("rejectsWrongPurpose: leaf-client-auth by default; --purpose any accepts it")
    func clientAuthCertificate() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir, leaf: "leaf-client-auth")
            expectRejected(verify(signed), path: signed.path, code: "wrong-purpose")
            let any = verify(signed, ["--purpose", "any"])
            #expect(any.status == 0, "\(any)")
        }
    }

    @Test("--domain: SAN matches www.example.com, not example.org")
    func domainMatching() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let ok = verify(signed, ["--domain", "www.example.com"])
            #expect(ok.status == 0, "\(ok)")
            expectRejected(verify(signed, ["--domain", "example.org"]), path: signed.path, code: "host-mismatch")
        }
    }

    @Test(
        "--domain with a wildcard certificate",
        arguments: [("www.example.com", Int32(0)), ("example.com", Int32(1)), ("a.b.example.com", Int32(1))])
    func wildcardDomain(host: String, status: Int32) throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir, leaf: "leaf-wildcard")
            let result = verify(signed, ["--domain", host])
            #expect(result.status == status, "\(result)")
            if status == 1 { expectRejected(result, path: signed.path, code: "host-mismatch") }
        }
    }

    // MARK: - Not signed, unreadable

    @Test("rejectsPlainJSON: exit 1 [not-signed]")
    func rejectsPlainJSON() throws {
        try withTemporaryDirectory { dir in
            let plain = try Fixture.write(to: dir)
            expectRejected(verify(plain), path: plain.path, code: "not-signed")
        }
    }

    @Test("rejectsGarbage: exit 1")
    func rejectsGarbage() throws {
        try withTemporaryDirectory { dir in
            let garbage = try Fixture.write(
                Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }), to: dir, as: "garbage.bin")
            let result = verify(garbage)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: garbage.path, severity: "error")
        }
    }

    @Test("rejectsTruncatedFile: exit 1, not valid")
    func rejectsTruncatedFile() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let bytes = try contents(signed)
            let truncated = try Fixture.write(bytes.prefix(bytes.count / 2), to: dir, as: "truncated.p7m")
            let result = verify(truncated)
            #expect(result.status == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: truncated.path, severity: "error")
        }
    }

    @Test("a missing file exits 2 with one line naming it")
    func missingFile() throws {
        try withTemporaryDirectory { dir in
            let missing = dir.child("missing.p7m")
            let result = verify(missing)
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: missing.path, severity: "error")
        }
    }

    @Test("a directory exits 2")
    func directoryInput() throws {
        try withTemporaryDirectory { dir in
            let result = verify(dir)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: dir.path, severity: "error", contains: ["directory"])
        }
    }

    @Test("an unreadable --ca-file exits 2")
    func missingCAFile() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let result = verify(signed, trust: ["--ca-file", dir.child("nope.pem").path, "--no-system-roots"])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
        }
    }

    // MARK: - Usage

    static let usageErrors: [(String, [String])] = [
        ("--at yesterday", Fixture.testTrust + ["--at", "yesterday"]),
        ("--no-system-roots alone", ["--no-system-roots"]),
        ("unknown purpose", Fixture.testTrust + ["--purpose", "codesign"]),
        ("unknown format", Fixture.testTrust + ["--format", "xml"]),
        ("bad domain", Fixture.testTrust + ["--domain", "exa mple.com"]),
        ("unknown flag", Fixture.testTrust + ["--frobnicate"]),
        ("negative --min-days-valid", Fixture.testTrust + ["--min-days-valid=-1"]),
        ("domain with a slash", Fixture.testTrust + ["--domain", "example.com/x"]),
    ]

    @Test("usage errors exit 64", arguments: usageErrors)
    func usageError(name: String, args: [String]) throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let result = CLI.run(["verify", signed.path] + args)
            #expect(result.status == 64, "\(name): \(result)")
            #expect(result.stdout.isEmpty)
            #expect(!result.stderr.isEmpty)
        }
    }

    @Test("no file is a usage error")
    func noFile() {
        #expect(CLI.run(["verify"] + Fixture.testTrust).status == 64)
    }

    // MARK: - Real corpus

    @Test("the real signed files never verify with the system roots", arguments: CLI.realSignedFiles)
    func realSignedFilesAreNotValid(name: String) throws {
        let path = CLI.realSigned(name)
        let result = CLI.run(["verify", path])
        #expect(result.status != 0, "\(result)")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        expectDiagnostic(result.stderrLines.first, path: path, severity: "error")

        let json = CLI.run(["verify", path, "--format", "json"])
        #expect(json.status == 1)
        let report = try json.jsonObject()
        #expect(report["valid"] as? Bool == false)
        #expect((report["reason"] as? String)?.isEmpty == false)
    }

    // MARK: - Every problem of a chain, and the next step (issue #13)

    /// The artsy.net file of 2015: untrusted today, and its signer (2016) and intermediate
    /// (2022) have expired. verify used to say only "untrusted".
    @Test("corpus artsy 2015 file: every problem of the chain with its date, and the commands that check it as of 2015")
    func everyChainProblem() throws {
        let file = CLI.realSigned("artsy_artsy-eigen-web-association_aasa-20150915-a.p7m")
        let result = CLI.run(["verify", file])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        let intermediate = "C=US, O=GeoTrust Inc., CN=GeoTrust SSL CA - G3"
        let problems = try #require(lines.firstIndex(of: "  problems:"), "\(result)")
        #expect(
            Array(lines[(problems + 1)...].prefix(3)) == [
                "    untrusted: unable to get local issuer certificate (certificate at chain depth 1 \"\(intermediate)\")",
                "    expired: signer certificate \"C=US, ST=New York, L=New York, O=Artsy Inc., CN=*.artsy.net\" expired at 2016-02-15T23:59:59Z",
                "    expired: certificate at chain depth 1 \"\(intermediate)\" expired at 2022-05-20T21:36:50Z",
            ], "\(result)")
        #expect(lines.contains("    aasa inspect \(file) --format pem --certificate 1 > issuer-1.pem"), "\(result)")
        #expect(
            lines.contains(
                "    aasa verify \(file) --ca-file issuer-1.pem --no-system-roots --partial-chain --at 2015-04-08T00:00:00Z"
            ), "\(result)")
        #expect(
            result.stdoutText.contains(
                "07:45:41:EC:DF:88:ED:99:2E:D5:AD:E3:EC:DD:EF:27:A2:6B:A1:B4:44:80:A1:95:C0:A8:DA:DA:E2:52:1D:8E"),
            "the issuer's fingerprint, to compare: \(result)")

        let json = CLI.run(["verify", file, "--format", "json"])
        let problemsJSON = try #require(try json.jsonObject()["problems"] as? [[String: Any]])
        #expect(problemsJSON.map { $0["verdict"] as? String } == ["untrusted", "expired", "expired"], "\(json)")
    }

    @Test("a valid file has no problems and no next step; JSON has an empty problems array")
    func validHasNoProblems() throws {
        let file = Repository.examples.appendingPathComponent("apple-app-site-association.p7m").path
        let result = CLI.run(["verify", file] + Fixture.testTrust)
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdoutText.contains("problems:") && !result.stdoutText.contains("next step:"), "\(result)")
        let json = CLI.run(["verify", file, "--format", "json"] + Fixture.testTrust)
        #expect((try json.jsonObject()["problems"] as? [Any])?.isEmpty == true, "\(json)")
    }

    /// The next step's commands are complete: run as printed (in an empty directory), they
    /// take the embedded issuer out with inspect and verify the file as of its signing time.
    @Test(
        "corpus: the next step's commands, run as printed, verify the 2015 file as of its signing time",
        arguments: [
            "artsy_artsy-eigen-web-association_aasa-20150915-a.p7m",
            "artsy_artsy-eigen-web-association_aasa-20150915-b.p7m",
        ])
    func nextStepRuns(name: String) throws {
        let file = CLI.realSigned(name)
        let result = CLI.run(["verify", file])
        let commands = result.stdoutText.split(separator: "\n").filter { $0.hasPrefix("    aasa ") }.map {
            CLI.executable.path + $0.dropFirst("    aasa".count)
        }
        try #require(commands.count == 2, "\(result)")
        try withTemporaryDirectory { dir in
            let run = ProcessRunner.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", commands.joined(separator: " && ")], in: dir)
            #expect(run.status == 0, "\(commands)\n\(run)")
            #expect(run.stdoutText.hasPrefix("\(file): valid\n"), "\(run)")
        }
    }

    @Test("corpus Handbid file: it embeds no issuer, so the next step says which certificate to get")
    func nextStepWithoutIssuer() {
        let file = CLI.realSigned("Handbid_Handbid-WordPress_aasa-smime-format.p7m")
        let result = CLI.run(["verify", file])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stdoutText.contains(
                "  next step:  the file embeds no certificate of its issuer, \"C=US, O=GeoTrust Inc., CN=RapidSSL SHA256 CA - G3\""
            ), "\(result)")
        #expect(!result.stdoutText.contains("aasa inspect"), "\(result)")
    }

    @Test("inspect --format pem: every embedded certificate, or the one --certificate names; bad indexes refused")
    func inspectPEM() throws {
        let file = CLI.realSigned("artsy_artsy-eigen-web-association_aasa-20150915-a.p7m")
        let all = CLI.run(["inspect", file, "--format", "pem"])
        #expect(all.status == 0, "\(all)")
        #expect(all.stdoutText.components(separatedBy: "-----BEGIN CERTIFICATE-----\n").count - 1 == 2, "\(all)")
        let one = CLI.run(["inspect", file, "--format", "pem", "--certificate", "1"])
        let subject = CLI.openssl(["x509", "-noout", "-subject"], stdin: one.stdout)
        #expect(subject.stdoutText == "subject=C = US, O = GeoTrust Inc., CN = GeoTrust SSL CA - G3\n", "\(subject)")
        #expect(all.stdoutText.hasSuffix(one.stdoutText), "the second of the list")
        let beyond = CLI.run(["inspect", file, "--format", "pem", "--certificate", "2"])
        #expect(beyond.status == 2 && beyond.stderrLines.count == 1, "\(beyond)")
        #expect(CLI.run(["inspect", file, "--certificate", "1"]).status == 64)
        let plain = CLI.run(["inspect", CLI.realPlain("excharm_excharm_aasa.json"), "--format", "pem"])
        #expect(plain.status == 2, "\(plain)")
    }
}
