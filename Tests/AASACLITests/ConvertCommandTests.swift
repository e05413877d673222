import Foundation
import Testing

/// `aasa convert`: signed files to plain JSON (verified first), batches, in-place replacement.
@Suite("aasa convert")
struct ConvertCommandTests {
    /// The unsigned source of each real signed file (corpus README), and whether the bytes
    /// match exactly once CRLF is LF (Handbid's committed source lacks the final newline).
    static let sources: [(signed: String, source: String, exactBytes: Bool)] = [
        ("artsy_artsy-eigen-web-association_aasa-20150915-a.p7m", "artsy_force_aasa-json-2015.json", true),
        (
            "artsy_artsy-eigen-web-association_aasa-20150915-b.p7m",
            "artsy_artsy-eigen-web-association_aasa-json-2015.json", true
        ),
        ("Handbid_Handbid-WordPress_aasa-smime-format.p7m", "Handbid_Handbid-WordPress_aasa-unsigned.json", false),
    ]

    static var signedNames: [String] { sources.map(\.signed) }

    private static func source(of signed: String) -> (path: String, exactBytes: Bool) {
        let entry = sources.first { $0.signed == signed }!
        return (CLI.realPlain(entry.source), entry.exactBytes)
    }

    /// Both texts parsed by Foundation and compared as trees.
    private func jsonEqual(_ a: Data, _ b: Data) throws -> Bool {
        let left = try JSONSerialization.jsonObject(with: a) as? NSObject
        let right = try JSONSerialization.jsonObject(with: b) as? NSObject
        return left != nil && left == right
    }

    /// The certificates embedded in a signed file, as PEM (the trust anchor for --partial-chain).
    private func embeddedCertificates(_ signed: String, in dir: URL) throws -> URL {
        let isSMIME = signed.hasPrefix("Handbid")
        let pkcs7: Data
        if isSMIME {
            pkcs7 = try CLI.requireOpenSSL(["smime", "-pk7out", "-in", CLI.realSigned(signed)]).stdout
        } else {
            pkcs7 = try CLI.requireOpenSSL(["pkcs7", "-inform", "DER", "-in", CLI.realSigned(signed)]).stdout
        }
        let certificates = try CLI.requireOpenSSL(["pkcs7", "-print_certs"], stdin: pkcs7).stdout
        let url = dir.child("embedded.pem")
        try certificates.write(to: url)
        return url
    }

    // MARK: - Corpus round trips

    @Test(
        "--no-verify: the real signed files convert to the JSON of their unsigned sources, marked unverified",
        arguments: signedNames)
    func corpusRoundTripUnverified(_ name: String) throws {
        let source = Self.source(of: name)
        let expected = try contents(URL(fileURLWithPath: source.path))
        let pretty = CLI.run(["convert", CLI.realSigned(name), "--no-verify"])
        #expect(pretty.status == 0, "\(pretty)")
        #expect(pretty.stderr.lowercased().contains("unverified"), "\(pretty)")
        #expect(try jsonEqual(pretty.stdout, expected))
        #expect(!pretty.stdout.contains(0x0D))
        // --preserve-format: the source's bytes exactly, once CRLF is LF.
        let preserved = CLI.run(["convert", CLI.realSigned(name), "--no-verify", "--preserve-format"])
        #expect(preserved.status == 0, "\(preserved)")
        if source.exactBytes {
            #expect(preserved.stdout == expected)
        } else {
            #expect(preserved.stdout == expected + Data("\n".utf8))
        }
    }

    @Test(
        "trusting the embedded certificates at the signing date: verified, no unverified mark", arguments: signedNames)
    func corpusRoundTripVerified(_ name: String) throws {
        try withTemporaryDirectory { dir in
            let anchors = try embeddedCertificates(name, in: dir)
            let output = dir.child("out.json")
            let result = CLI.run([
                "convert", CLI.realSigned(name), "-o", output.path, "--ca-file", anchors.path, "--no-system-roots",
                "--partial-chain", "--at", "2015-09-15",
            ])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(try jsonEqual(try contents(output), try contents(URL(fileURLWithPath: Self.source(of: name).path))))
        }
    }

    @Test("without trust the real files fail verification: exit 1, nothing written")
    func corpusUntrusted() throws {
        try withTemporaryDirectory { dir in
            let output = dir.child("out.json")
            let result = CLI.run(["convert", CLI.realSigned(Self.signedNames[0]), "-o", output.path])
            #expect(result.status == 1, "\(result)")
            expectDiagnostic(
                result.stderrLines.first, path: CLI.realSigned(Self.signedNames[0]), severity: "error",
                code: "untrusted", contains: ["nothing written"])
            #expect(!fileExists(output))
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    // MARK: - Fresh signed files

    @Test("a file signed with the test PKI: verified, pretty JSON, the source bytes with --preserve-format")
    func freshSignedFile() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let pretty = CLI.run(["convert", signed.path] + Fixture.testTrust)
            #expect(pretty.status == 0, "\(pretty)")
            #expect(pretty.stderr.isEmpty, "\(pretty)")
            #expect(
                pretty.stdoutText == """
                    {
                      "applinks": {
                        "apps": [],
                        "details": [
                          {
                            "appID": "ABCDE12345.com.example.app",
                            "paths": [
                              "/buy/*",
                              "NOT /buy/admin"
                            ]
                          }
                        ]
                      }
                    }

                    """)
            let preserved = CLI.run(["convert", signed.path, "--preserve-format"] + Fixture.testTrust)
            #expect(preserved.stdout == Fixture.json)
            let compact = CLI.run(["convert", signed.path, "--compact"] + Fixture.testTrust)
            #expect(
                compact.stdoutText
                    == #"{"applinks":{"apps":[],"details":[{"appID":"ABCDE12345.com.example.app","paths":["/buy/*","NOT /buy/admin"]}]}}"#
                    + "\n")
        }
    }

    @Test("plain input passes through the same checks: CRLF JSON comes out as LF, duplicate keys resolved and reported")
    func plainInput() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(
                Data("{\r\n  \"a\": 1,\r\n  \"a\": 2\r\n}\r\n".utf8), to: dir, as: "plain.json")
            let result = CLI.run(["convert", input.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutText == "{\n  \"a\": 2\n}\n")
            expectDiagnostic(
                result.stderrLines.first, path: input.path, severity: "warning",
                contains: ["duplicate key", "the last one is kept"])
            // Not JSON: exit 2.
            let broken = try Fixture.write(Data("{\"a\": 1,}".utf8), to: dir, as: "broken.json")
            let failed = CLI.run(["convert", broken.path])
            #expect(failed.status == 2, "\(failed)")
            #expect(failed.stdout.isEmpty)
        }
    }

    @Test("standard input to standard output")
    func stdin() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let result = CLI.run(
                ["convert", "-", "--preserve-format"] + Fixture.testTrust, stdin: try contents(signed))
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == Fixture.json)
        }
    }

    // MARK: - Batches

    @Test("a directory to --out-dir: relative names kept (.well-known too), non-AASA files skipped, a summary")
    func batchFromDirectory() throws {
        try withTemporaryDirectory { dir in
            let site = dir.child("site")
            try FileManager.default.createDirectory(at: site.child(".well-known"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: site.child("sub/deeper"), withIntermediateDirectories: true)
            _ = try Fixture.signedFile(in: dir, name: "signed.p7m")
            try FileManager.default.copyItem(
                at: dir.child("signed.p7m"), to: site.child(".well-known/apple-app-site-association"))
            try Fixture.write(to: site.child("sub/deeper"), as: "aasa.json")
            try Fixture.write(Data("<html></html>\n".utf8), to: site, as: "index.html")
            try Fixture.write(Data("{\"name\": \"not an AASA file\"}".utf8), to: site, as: "manifest.json")
            let out = dir.child("out")
            let result = CLI.run(["convert", site.path, "--out-dir", out.path] + Fixture.testTrust)
            #expect(result.status == 0, "\(result)")
            let converted = try contents(out.child(".well-known/apple-app-site-association"))
            #expect(try jsonEqual(converted, Fixture.json))
            #expect(try contents(out.child("sub/deeper/aasa.json")) == converted)
            #expect(!fileExists(out.child("index.html")))
            #expect(!fileExists(out.child("manifest.json")))
            #expect(result.stderrLines.last == "convert: 2 of 2 files converted; 2 skipped (not AASA files)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("one bad file among good ones: the others are written, nothing for the bad one, no partial file, exit 1")
    func oneBadFile() throws {
        try withTemporaryDirectory { dir in
            let good1 = try Fixture.signedFile(in: dir, name: "good1.p7m")
            let bad = try Fixture.signedFile(in: dir, leaf: "leaf-untrusted", name: "bad.p7m")
            let good2 = try Fixture.write(to: dir, as: "good2.json")
            let out = dir.child("out")
            let result = CLI.run(
                ["convert", good1.path, bad.path, good2.path, "--out-dir", out.path] + Fixture.testTrust)
            #expect(result.status == 1, "\(result)")
            // A .p7m name loses its extension: what is written is JSON.
            #expect(fileExists(out.child("good1")) && !fileExists(out.child("good1.p7m")))
            #expect(fileExists(out.child("good2.json")))
            #expect(!fileExists(out.child("bad")) && !fileExists(out.child("bad.p7m")))
            #expect(leftoverTemporaries(in: out).isEmpty)
            #expect(result.stderrLines.contains { $0.hasPrefix("\(bad.path): error: [untrusted]") }, "\(result)")
            #expect(
                result.stderrLines.last
                    == "convert: 2 of 3 files converted; 1 failed verification (nothing written for it)")
        }
    }

    @Test(
        "a .p7m name loses its extension under --out-dir; a name it would then share with another input is refused (64), nothing written"
    )
    func p7mExtensionDropped() throws {
        try withTemporaryDirectory { dir in
            let site = dir.child("site")
            try FileManager.default.createDirectory(at: site.child("sub"), withIntermediateDirectories: true)
            _ = try Fixture.signedFile(in: site, name: "apple-app-site-association.p7m")
            _ = try Fixture.signedFile(in: site.child("sub"), name: "x.P7M")
            _ = try Fixture.write(to: site, as: "plain.json")
            let out = dir.child("out")
            let result = CLI.run(["convert", site.path, "--out-dir", out.path] + Fixture.testTrust)
            #expect(result.status == 0, "\(result)")
            #expect(fileExists(out.child("apple-app-site-association")) && fileExists(out.child("sub/x")), "\(result)")
            #expect(fileExists(out.child("plain.json")))
            #expect(try jsonEqual(contents(out.child("apple-app-site-association")), Fixture.json))
            // a and a.p7m would both become a: refused before anything is written.
            _ = try Fixture.write(to: site, as: "apple-app-site-association")
            let clash = CLI.run(["convert", site.path, "--out-dir", dir.child("out2").path] + Fixture.testTrust)
            #expect(clash.status == 64 && !fileExists(dir.child("out2")), "\(clash)")
        }
    }

    @Test("an unreadable input or an unwritable output: exit 2, the other files still converted")
    func unreadableAndUnwritable() throws {
        try withTemporaryDirectory { dir in
            let good = try Fixture.write(to: dir, as: "good.json")
            let missing = dir.child("missing.json")
            let out = dir.child("out")
            let result = CLI.run(["convert", good.path, missing.path, "--out-dir", out.path])
            #expect(result.status == 2, "\(result)")
            #expect(fileExists(out.child("good.json")))
            // A sub-directory that cannot be made: a file stands where it should be.
            let site = dir.child("site")
            try FileManager.default.createDirectory(at: site.child("sub"), withIntermediateDirectories: true)
            try Fixture.write(to: site.child("sub"), as: "aasa.json")
            try Fixture.write(to: site, as: "top.json")
            let blocked = dir.child("blocked")
            try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: blocked.child("sub"))
            let second = CLI.run(["convert", site.path, "--out-dir", blocked.path])
            #expect(second.status == 2, "\(second)")
            #expect(fileExists(blocked.child("top.json")))
            #expect(leftoverTemporaries(in: blocked).isEmpty)
        }
    }

    @Test("--in-place replaces the input only once the new file is complete; a failure leaves it byte-identical")
    func inPlace() throws {
        try withTemporaryDirectory { dir in
            let good = try Fixture.signedFile(in: dir, name: "good.p7m")
            let bad = try Fixture.signedFile(in: dir, leaf: "leaf-untrusted", name: "bad.p7m")
            let badBefore = try contents(bad)
            let result = CLI.run(["convert", good.path, bad.path, "--in-place"] + Fixture.testTrust)
            #expect(result.status == 1, "\(result)")
            #expect(try jsonEqual(try contents(good), Fixture.json))
            #expect(try contents(bad) == badBefore)
            #expect(leftoverTemporaries(in: dir).isEmpty)
            // A second run: the converted file is already in this format and is left alone.
            let again = CLI.run(["convert", good.path, "--in-place"])
            #expect(again.status == 0, "\(again)")
            #expect(again.stderr.contains("unchanged"))
        }
    }

    @Test("the input is never overwritten without --in-place")
    func refusesToOverwriteInput() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir, as: "aasa.json")
            let before = try contents(input)
            let sameFile = CLI.run(["convert", input.path, "-o", input.path])
            #expect(sameFile.status == 64, "\(sameFile)")
            #expect(sameFile.stderr.contains("refusing to overwrite"))
            let sameDirectory = CLI.run(["convert", input.path, "--out-dir", dir.path])
            #expect(sameDirectory.status == 64, "\(sameDirectory)")
            #expect(try contents(input) == before)
        }
    }

    @Test(
        "usage errors",
        arguments: [
            ["convert"],
            ["convert", "a.json", "b.json"],
            ["convert", "a.json", "-o", "x", "--in-place"],
            ["convert", "a.json", "--compact", "--preserve-format"],
            ["convert", "-", "--in-place"],
            ["convert", "-", "-"],
        ])
    func usageErrors(_ args: [String]) throws {
        let result = CLI.run(args)
        #expect(result.status == 64, "\(result)")
    }

    @Test("-o with a directory is a usage error")
    func outputWithDirectory() throws {
        try withTemporaryDirectory { dir in
            let result = CLI.run(["convert", dir.path, "-o", dir.child("x.json").path])
            #expect(result.status == 64, "\(result)")
        }
    }

    @Test("two inputs that would be written to the same place: a usage error, nothing written")
    func outputCollision() throws {
        try withTemporaryDirectory { dir in
            try FileManager.default.createDirectory(at: dir.child("a"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: dir.child("b"), withIntermediateDirectories: true)
            let a = try Fixture.write(to: dir.child("a"), as: "aasa.json")
            let b = try Fixture.write(to: dir.child("b"), as: "aasa.json")
            let out = dir.child("out")
            let result = CLI.run(["convert", a.path, b.path, "--out-dir", out.path])
            #expect(result.status == 64, "\(result)")
            #expect(!fileExists(out.child("aasa.json")))
        }
    }
}
