import AASA
import AASATestSupport
// Real AASA files from public repositories (Tests/Fixtures/corpus/README.md): three signed
// in 2015 with commercial certificates, and twenty plain JSON files.
import Foundation
import Testing

enum Corpus {
    static let artsyA = "artsy_artsy-eigen-web-association_aasa-20150915-a.p7m"
    static let artsyB = "artsy_artsy-eigen-web-association_aasa-20150915-b.p7m"
    static let handbid = "Handbid_Handbid-WordPress_aasa-smime-format.p7m"

    static let signedNames = RealWorldCorpus.signedNames
    static let plainNames = RealWorldCorpus.plainNames

    static func signed(_ name: String) throws -> Data {
        try Data(contentsOf: Paths.realSigned.appendingPathComponent(name))
    }

    static func plain(_ name: String) throws -> Data {
        try Data(contentsOf: Paths.realPlain.appendingPathComponent(name))
    }

    /// The unsigned source of each artsy signed file, per the corpus README.
    static let sources: [(signed: String, source: String)] = [
        (artsyA, "artsy_force_aasa-json-2015.json"),
        (artsyB, "artsy_artsy-eigen-web-association_aasa-json-2015.json"),
    ]
}

@Suite("Real-world corpus")
struct CorpusTests {
    @Test("the corpus is where the README says")
    func corpusIsPresent() {
        #expect(Corpus.signedNames.count == 3)
        #expect(Corpus.plainNames.count == 20)
        #expect(Set([Corpus.artsyA, Corpus.artsyB, Corpus.handbid]).isSubset(of: Corpus.signedNames))
    }

    // MARK: Detection

    @Test(
        "signed files are detected by their bytes",
        arguments: [
            (Corpus.artsyA, FileKind.pkcs7DER), (Corpus.artsyB, .pkcs7DER), (Corpus.handbid, .pkcs7SMIME),
        ])
    func detectsSignedFiles(name: String, kind: FileKind) throws {
        let detection = FileKindDetector.detect(try Corpus.signed(name))
        #expect(detection.kind == kind)
        #expect(detection.kind.isSigned)
        #expect(detection.damagedPKCS7Encoding == nil)
        let message = try #require(detection.message)
        #expect(message.isSignedData)
        #expect(message.hasContent)
        #expect(message.encapsulatedContentType == "pkcs7-data")
        #expect(message.signerInfos.count == 1)
        #expect(message.signerInfos.first?.hasSignedAttributes == false)
        #expect(message.signerInfos.first?.signatureAlgorithm == "rsaEncryption")
    }

    @Test("every plain file is JSON, whatever its name", arguments: Corpus.plainNames)
    func detectsPlainFilesAsJSON(name: String) throws {
        let data = try Corpus.plain(name)
        let detection = FileKindDetector.detect(data)
        #expect(detection.kind == .json, "\(detection.detail ?? "")")
        #expect(detection.message == nil)
        #expect(detection.damagedPKCS7Encoding == nil)
        #expect(FileKindDetector.pkcs7Encoding(of: data) == nil)
        #expect(!detection.kind.isSigned)
    }

    @Test("plain files named .p7m/.p7c are still JSON")
    func misnamedPlainFilesAreJSON() throws {
        let misnamed = Corpus.plainNames.filter { $0.contains("p7m") || $0.contains("p7c") }
        #expect(misnamed.count == 2)
        for name in misnamed {
            #expect(FileKindDetector.detect(try Corpus.plain(name)).kind == .json)
        }
    }

    @Test("plain files verify as notSigned", arguments: Corpus.plainNames)
    func plainFilesAreNotSigned(name: String) throws {
        try PKI.verifier().verify(Corpus.plain(name)).expect("not-signed")
    }

    // MARK: Content

    @Test("the artsy content is the CRLF form of its unsigned source", arguments: Corpus.sources)
    func artsyContentIsCRLFOfSource(signed: String, source: String) throws {
        let content = try SignedData(data: Corpus.signed(signed)).unverifiedContent()
        let original = try Corpus.plain(source)
        #expect(LineEndingStyle.of(original) == .lf)
        #expect(LineEndingStyle.of(content) == .crlf)
        #expect(LineEndingStyle.crlfToLF(content) == original)
        #expect(content == lfToCRLF(original))
        // Signing the source in text mode would embed the same bytes.
        #expect(content == opensslCanonicalText(original))
    }

    @Test("every signed file embeds CRLF JSON", arguments: Corpus.signedNames)
    func signedContentIsCRLFJSON(name: String) throws {
        let content = try SignedData(data: Corpus.signed(name)).unverifiedContent()
        #expect(LineEndingStyle.of(content) == .crlf)
        #expect(FileKindDetector.detect(content).kind == .json)
        #expect(content.suffix(2) == Data([0x0D, 0x0A]))
        #expect(FileKindDetector.detect(LineEndingStyle.crlfToLF(content)).kind == .json)
    }

    @Test(
        "content sizes match the README",
        arguments: [(Corpus.artsyA, 357), (Corpus.artsyB, 703), (Corpus.handbid, 409)])
    func contentSizes(name: String, size: Int) throws {
        #expect(try SignedData(data: Corpus.signed(name)).unverifiedContent().count == size)
    }

    @Test("unverifiedContent agrees with openssl smime -verify -noverify", arguments: Corpus.signedNames)
    func contentAgreesWithOpenSSL(name: String) throws {
        let data = try Corpus.signed(name)
        let inform = name == Corpus.handbid ? "SMIME" : "DER"
        try withScratchDirectory { scratch in
            let input = try scratch.write(data, to: "in")
            let output = scratch.file("out").path
            try OpenSSL.succeed(
                ["smime", "-verify", "-noverify", "-binary", "-inform", inform, "-in", input, "-out", output],
                in: scratch)
            #expect(try SignedData(data: data).unverifiedContent() == scratch.read("out"))
        }
    }

    // MARK: Structure

    @Test("Handbid carries the same leaf twice and no intermediate")
    func handbidHasDuplicateLeaf() throws {
        let message = try SignedData(data: Corpus.signed(Corpus.handbid))
        #expect(message.encoding == .smime)
        #expect(message.certificates.count == 2)
        #expect(message.certificates[0].info == message.certificates[1].info)
        #expect(try message.certificates[0].derRepresentation == message.certificates[1].derRepresentation)
        #expect(message.certificates[0].info.subject.hasSuffix("CN=*.hand.bid"))
        #expect(message.certificates.allSatisfy { !$0.info.isCertificateAuthority })
        #expect(message.signerInfos.first?.digestAlgorithm == "SHA256")
    }

    @Test("artsy files use SHA-1 and put the leaf before the intermediate", arguments: [Corpus.artsyA, Corpus.artsyB])
    func artsyUsesSHA1LeafFirst(name: String) throws {
        let message = try SignedData(data: Corpus.signed(name))
        #expect(message.encoding == .der)
        #expect(message.signerInfos.first?.digestAlgorithm == "SHA1")
        #expect(message.certificates.count == 2)
        let leaf = message.certificates[0].info
        let intermediate = message.certificates[1].info
        #expect(leaf.subject == "C=US, ST=New York, L=New York, O=Artsy Inc., CN=*.artsy.net")
        #expect(leaf.issuer == "C=US, O=GeoTrust Inc., CN=GeoTrust SSL CA - G3")
        #expect(leaf.extendedKeyUsage.map(Set.init) == ["serverAuth", "clientAuth"])
        #expect(leaf.dnsNames.contains("*.artsy.net"))
        #expect(!leaf.isCertificateAuthority)
        #expect(intermediate.subject == leaf.issuer)
        #expect(intermediate.isCertificateAuthority)
        #expect(!intermediate.isSelfSigned)
        #expect(message.signerInfos.first?.issuer == leaf.issuer)
        #expect(message.signerInfos.first?.serialNumber == leaf.serialNumber)
        // notBefore 2015-04-07T00:00:00Z, notAfter 2016-02-15T23:59:59Z.
        #expect(leaf.notBefore == Date(timeIntervalSince1970: 1_428_364_800))
        #expect(leaf.notAfter == Date(timeIntervalSince1970: 1_455_580_799))
    }

    // MARK: Verification

    private func verifier(anchors: [X509Certificate], partial: Bool = true) throws -> Verifier {
        let trust = try TrustStore(TrustConfiguration(useSystemRoots: false, anchors: anchors))
        return Verifier(
            trust: trust,
            options: VerificationOptions(purpose: .sslServer, time: Times.september2015, allowPartialChain: partial))
    }

    @Test(
        "artsy files are valid in 2015 when their embedded intermediate is trusted (partial chain)",
        arguments: [Corpus.artsyA, Corpus.artsyB])
    func artsyVerifiesWithEmbeddedIntermediate(name: String) throws {
        let data = try Corpus.signed(name)
        let message = try SignedData(data: data)
        let intermediate = try #require(message.certificates.first { $0.info.isCertificateAuthority })
        let result = try verifier(anchors: [intermediate]).verify(data)
        result.expect("valid")
        #expect(result.content == (try message.unverifiedContent()))
        #expect(result.chain.count == 2)
        #expect(result.signers.first?.subject.hasSuffix("CN=*.artsy.net") == true)

        // The same anchor without partial chains is not enough: the GeoTrust root is missing.
        try verifier(anchors: [intermediate], partial: false).verify(data).expect("untrusted")
        // ... and the signer expired in February 2016.
        var later = try verifier(anchors: [intermediate])
        later.options.time = Times.y2025
        later.verify(data).expect("expired")
    }

    @Test(
        "artsy files are valid for artsy.net and one-label subdomains only", arguments: [Corpus.artsyA, Corpus.artsyB])
    func artsyHostCheck(name: String) throws {
        let data = try Corpus.signed(name)
        let intermediate = try #require(
            try SignedData(data: data).certificates.first { $0.info.isCertificateAuthority })
        var verifier = try verifier(anchors: [intermediate])
        for host in ["www.artsy.net", "artsy.net"] {
            verifier.options.hostname = host
            verifier.verify(data).expect("valid")
        }
        for host in ["a.b.artsy.net", "example.com", "artsy.net.example.com"] {
            verifier.options.hostname = host
            verifier.verify(data).expect("host-mismatch")
        }
    }

    @Test("Handbid lacks its intermediate: untrusted, unless the leaf itself is trusted with partial chain")
    func handbidNeedsItsLeafTrusted() throws {
        let data = try Corpus.signed(Corpus.handbid)
        let message = try SignedData(data: data)
        let leaf = try #require(message.certificates.first)
        try verifier(anchors: []).verify(data).expect("untrusted")
        try verifier(anchors: [], partial: false).verify(data).expect("untrusted")
        let trusted = try verifier(anchors: [leaf]).verify(data)
        trusted.expect("valid")
        #expect(trusted.kind == .pkcs7SMIME)
        #expect(trusted.content == (try message.unverifiedContent()))
    }

    @Test("with the system roots, no real signed file is valid in 2015", arguments: Corpus.signedNames)
    func systemRootsDoNotTrustTheCorpus(name: String) throws {
        let trust = try TrustStore(TrustConfiguration(useSystemRoots: true))
        let result = Verifier(trust: trust, options: VerificationOptions(time: Times.september2015)).verify(
            try Corpus.signed(name))
        result.expect("untrusted", reasonContains: "issuer")
    }

    @Test("with the system roots, no real signed file is valid now", arguments: Corpus.signedNames)
    func systemRootsNowNeverValid(name: String) throws {
        let trust = try TrustStore(TrustConfiguration(useSystemRoots: true))
        let result = Verifier(trust: trust).verify(try Corpus.signed(name))
        #expect(["untrusted", "expired"].contains(result.verdict.code), "\(result.verdict)")
        #expect(result.content == nil)
    }

    @Test("the test root does not make a real file valid", arguments: Corpus.signedNames)
    func testRootDoesNotTrustTheCorpus(name: String) throws {
        var options = VerificationOptions(time: Times.september2015)
        options.allowPartialChain = true
        try PKI.verifier(options).verify(Corpus.signed(name)).expect("untrusted")
    }

    @Test("a flipped byte in a real file's content is tampered", arguments: [Corpus.artsyA, Corpus.artsyB])
    func rejectsTamperedRealFile(name: String) throws {
        let data = try Corpus.signed(name)
        let message = try SignedData(data: data)
        let content = try message.unverifiedContent()
        let offset = try #require(data.offset(of: content))
        let intermediate = try #require(message.certificates.first { $0.info.isCertificateAuthority })
        try verifier(anchors: [intermediate]).verify(data.flippingByte(at: offset + 20)).expect("tampered")
    }
}
