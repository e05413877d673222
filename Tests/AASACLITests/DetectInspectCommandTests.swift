import AASATestSupport
import Foundation
import Testing

/// `aasa detect` and `aasa inspect`: what a file is and what is inside, without verifying.
@Suite("aasa detect")
struct DetectCommandTests {
    /// Every corpus file with the kind its bytes are (the names and extensions are misleading on purpose).
    static var corpusKinds: [(String, String)] {
        let plain = RealWorldCorpus.plainNames
        return [
            ("real-signed/artsy_artsy-eigen-web-association_aasa-20150915-a.p7m", "pkcs7-der"),
            ("real-signed/artsy_artsy-eigen-web-association_aasa-20150915-b.p7m", "pkcs7-der"),
            ("real-signed/Handbid_Handbid-WordPress_aasa-smime-format.p7m", "pkcs7-smime"),
        ] + plain.map { ("real-plain/\($0)", "json") }
    }

    @Test("each corpus file's kind, as text", arguments: corpusKinds)
    func corpusKind(file: String, kind: String) {
        let path = RealWorldCorpus.folder.appendingPathComponent(file).path
        let result = CLI.run(["detect", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText == "\(path): \(kind)\n", "\(result)")
        #expect(result.stderr.isEmpty)
    }

    @Test("the corpus has the expected files")
    func corpusIsComplete() {
        #expect(Self.corpusKinds.count == 23)
    }

    @Test(
        "the encodings the CLI writes",
        arguments: [("der", "pkcs7-der"), ("pem", "pkcs7-pem"), ("smime", "pkcs7-smime")])
    func signedEncodings(outform: String, kind: String) throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir)
            let output = dir.child("signed.\(outform)")
            let sign = CLI.run([
                "sign", input.path, "-o", output.path, "--outform", outform, "--key", CLI.cert("leaf-rsa.key"),
                "--cert", CLI.cert("leaf-rsa.pem"),
            ])
            try #require(sign.status == 0, "\(sign)")
            let result = CLI.run(["detect", output.path])
            #expect(result.stdoutText == "\(output.path): \(kind)\n", "\(result)")
        }
    }

    @Test("unknown bytes are 'unknown' with a reason; stdin is <stdin>")
    func unknownAndStdin() throws {
        let result = CLI.run(["detect", "-"], stdin: Data([0x00, 0xFF, 0xFE, 0x01, 0x02]))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.hasPrefix("<stdin>: unknown"), "\(result)")
    }

    @Test("--format json for one file is a single object")
    func jsonSingleObject() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let result = CLI.run(["detect", "--format", "json", signed.path])
            #expect(result.status == 0, "\(result)")
            let object = try result.jsonObject()
            #expect(object["path"] as? String == signed.path)
            #expect(object["kind"] as? String == "pkcs7-der")
            #expect(object["byteOrderMark"] as? Bool == false)
        }
    }

    @Test("--format json for several files is an array in argument order")
    func jsonArray() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let plain = try Fixture.write(to: dir, as: "plain.json")
            let result = CLI.run(["detect", "--format", "json", signed.path, plain.path])
            #expect(result.status == 0, "\(result)")
            let array = try #require(try result.json() as? [[String: Any]])
            #expect(array.map { $0["path"] as? String } == [signed.path, plain.path])
            #expect(array.map { $0["kind"] as? String } == ["pkcs7-der", "json"])
        }
    }

    @Test("a byte-order mark is reported")
    func byteOrderMark() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(Data([0xEF, 0xBB, 0xBF]) + Fixture.json, to: dir, as: "bom.json")
            let result = CLI.run(["detect", "--format", "json", file.path])
            let object = try result.jsonObject()
            #expect(object["kind"] as? String == "json")
            #expect(object["byteOrderMark"] as? Bool == true)
        }
    }

    @Test("a missing file among several: the others are still printed, exit 2", arguments: ["text", "json"])
    func missingAmongSeveral(format: String) throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let plain = try Fixture.write(to: dir, as: "plain.json")
            let missing = dir.child("missing.p7m")
            let result = CLI.run(["detect", "--format", format, signed.path, missing.path, plain.path])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: missing.path, severity: "error")
            if format == "text" {
                #expect(result.stdoutText == "\(signed.path): pkcs7-der\n\(plain.path): json\n", "\(result)")
            } else {
                let array = try #require(try result.json() as? [[String: Any]])
                #expect(array.map { $0["path"] as? String } == [signed.path, plain.path])
            }
        }
    }

    /// One unreadable file with `--format json`: nothing on stdout (not an empty array: the
    /// one-file shape is an object), the error on stderr, exit 2.
    @Test("--format json for one unreadable file prints nothing on stdout")
    func jsonSingleMissingFile() throws {
        try withTemporaryDirectory { dir in
            let missing = dir.child("missing.p7m")
            let result = CLI.run(["detect", "--format", "json", missing.path])
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: missing.path, severity: "error")
        }
    }

    @Test("no file is a usage error")
    func noFiles() {
        #expect(CLI.run(["detect"]).status == 64)
    }
}

@Suite("aasa inspect")
struct InspectCommandTests {
    static let handbid = "Handbid_Handbid-WordPress_aasa-smime-format.p7m"

    @Test("corpus Handbid file: 2 certificates and CRLF-canonical content")
    func handbidText() {
        let path = CLI.realSigned(Self.handbid)
        let result = CLI.run(["inspect", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        let text = result.stdoutText
        #expect(text.hasPrefix("\(path): pkcs7-smime, 4585 bytes\n"), "\(result)")
        #expect(text.contains("certificates (2"), "\(result)")
        #expect(text.contains("CRLF"), "\(result)")
        #expect(text.contains("SHA256"))
        #expect(text.contains("CN=*.hand.bid"))
    }

    @Test("corpus Handbid file, --format json")
    func handbidJSON() throws {
        let path = CLI.realSigned(Self.handbid)
        let result = CLI.run(["inspect", "--format", "json", path])
        #expect(result.status == 0, "\(result)")
        let report = try result.jsonObject()
        #expect(report["kind"] as? String == "pkcs7-smime")
        #expect(report["size"] as? Int == 4585)
        let infos = try #require(report["signerInfos"] as? [[String: Any]])
        #expect(infos.count == 1)
        #expect(infos.first?["digestAlgorithm"] as? String == "SHA256")
        #expect(infos.first?["hasSignedAttributes"] as? Bool == false)
        let certificates = try #require(report["certificates"] as? [[String: Any]])
        #expect(certificates.count == 2)
        #expect(certificates.allSatisfy { ($0["subject"] as? String)?.hasSuffix("CN=*.hand.bid") == true })
        let content = try #require(report["content"] as? [String: Any])
        #expect(content["crlfCanonical"] as? Bool == true)
        #expect(content["json"] as? Bool == true)
        #expect(content["size"] as? Int == 409)
    }

    /// The Handbid file's certificate set holds its leaf twice, the same DER (`openssl smime -pk7out
    /// -in FILE | openssl pkcs7 -print_certs` lists it twice; its -certfile named the leaf itself).
    @Test("corpus Handbid file: the leaf included twice gets a warning naming it and its places, text")
    func duplicateCertificateText() throws {
        let path = CLI.realSigned(Self.handbid)
        let result = CLI.run(["inspect", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "a finding of the report, not a diagnostic: \(result)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        let subject =
            "OU=GT13007547, OU=See www.rapidssl.com/resources/cps (c)14, OU=Domain Control Validated - RapidSSL(R), CN=*.hand.bid"
        let first = try #require(lines.firstIndex(of: "    [0]"), "\(result)")
        let second = try #require(lines.firstIndex(of: "    [1]"), "\(result)")
        let repeated =
            "      warning:  certificate \"\(subject)\" appears 2 times in the file ([0], [1]): the same DER, included more than once"
        #expect(lines[first..<second].contains(repeated), "in the block of [0]: \(result)")
        #expect(
            lines[second...].contains("      warning:  the same certificate (the same DER) as [0], included again"),
            "in the block of [1]: \(result)")
        #expect(lines.filter { $0.contains("warning:") }.count == 2, "\(result)")
    }

    @Test("corpus Handbid file: each certificate entry of --format json has occurrences 2")
    func duplicateCertificateJSON() throws {
        let result = CLI.run(["inspect", "--format", "json", CLI.realSigned(Self.handbid)])
        #expect(result.status == 0, "\(result)")
        let certificates = try #require(try result.jsonObject()["certificates"] as? [[String: Any]])
        #expect(certificates.map { $0["occurrences"] as? Int } == [2, 2], "\(result)")
        #expect(Set(certificates.compactMap { $0["sha256Fingerprint"] as? String }).count == 1, "the same certificate")
        // SignerInfos have no occurrences.
        let infos = try #require(try result.jsonObject()["signerInfos"] as? [[String: Any]])
        try #require(infos.count == 1, "\(result)")
        #expect(infos.allSatisfy { $0["occurrences"] == nil }, "\(result)")
    }

    @Test(
        "corpus artsy files (leaf and intermediate, no repeat): no repeat warning, occurrences 1",
        arguments: CLI.realSignedFiles.filter { $0.hasPrefix("artsy") })
    func noDuplicateCertificate(name: String) throws {
        let text = CLI.run(["inspect", CLI.realSigned(name)])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdoutText.contains("certificates (2, in file order)"), "\(text)")
        #expect(!text.stdoutText.contains("times in the file"), "\(text)")
        #expect(!text.stdoutText.contains("included again"), "\(text)")
        let json = CLI.run(["inspect", "--format", "json", CLI.realSigned(name)])
        let certificates = try #require(try json.jsonObject()["certificates"] as? [[String: Any]])
        #expect(certificates.map { $0["occurrences"] as? Int } == [1, 1], "\(json)")
    }

    @Test("corpus artsy files: SHA-1, leaf first", arguments: CLI.realSignedFiles.filter { $0.hasPrefix("artsy") })
    func artsyJSON(name: String) throws {
        let result = CLI.run(["inspect", "--format", "json", CLI.realSigned(name)])
        #expect(result.status == 0, "\(result)")
        let report = try result.jsonObject()
        let infos = try #require(report["signerInfos"] as? [[String: Any]])
        #expect(infos.first?["digestAlgorithm"] as? String == "SHA1")
        let certificates = try #require(report["certificates"] as? [[String: Any]])
        #expect(
            certificates.first?["subject"] as? String == "C=US, ST=New York, L=New York, O=Artsy Inc., CN=*.artsy.net")
        #expect((report["content"] as? [String: Any])?["crlfCanonical"] as? Bool == true)
    }

    @Test("a file signed by the CLI: certificates in openssl order (chain first)")
    func signedByCLI() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let result = CLI.run(["inspect", "--format", "json", signed.path])
            #expect(result.status == 0, "\(result)")
            let report = try result.jsonObject()
            let certificates = try #require(report["certificates"] as? [[String: Any]])
            #expect(
                certificates.map { $0["subject"] as? String } == [
                    "O=aasa test PKI, CN=AASA Test Intermediate CA", "CN=example.com",
                ])
            #expect(report["detached"] as? Bool == false)
            #expect((report["content"] as? [String: Any])?["size"] as? Int == Fixture.jsonCRLF.count)
        }
    }

    @Test("plain JSON is described, exit 0")
    func plainJSON() throws {
        try withTemporaryDirectory { dir in
            let plain = try Fixture.write(to: dir)
            let result = CLI.run(["inspect", plain.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutText.hasPrefix("\(plain.path): json, \(Fixture.json.count) bytes"), "\(result)")
            let json = CLI.run(["inspect", "--format", "json", plain.path])
            #expect(json.status == 0)
            let report = try json.jsonObject()
            #expect(report["kind"] as? String == "json")
            #expect((report["content"] as? [String: Any])?["crlfCanonical"] as? Bool == false)
        }
    }

    @Test("garbage exits 2 with one line naming the file")
    func garbage() throws {
        try withTemporaryDirectory { dir in
            let garbage = try Fixture.write(
                Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 91) }), to: dir, as: "garbage.bin")
            let result = CLI.run(["inspect", garbage.path])
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines.count == 1, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: garbage.path, severity: "error")
        }
    }

    @Test("an empty file exits 2")
    func empty() throws {
        try withTemporaryDirectory { dir in
            let empty = try Fixture.write(Data(), to: dir, as: "empty")
            let result = CLI.run(["inspect", empty.path])
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty)
            expectDiagnostic(result.stderrLines.first, path: empty.path, severity: "error")
        }
    }

    @Test("a missing file exits 2")
    func missing() throws {
        try withTemporaryDirectory { dir in
            let result = CLI.run(["inspect", dir.child("nope").path])
            #expect(result.status == 2, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: dir.child("nope").path, severity: "error")
        }
    }
}
