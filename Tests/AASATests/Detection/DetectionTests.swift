import AASA
// FileKindDetector tells signed from plain by the bytes alone, and SignedData parses what
// it finds.
import Foundation
import Testing

@Suite("Detection and parsing")
struct DetectionTests {
    static let json = Data("{\n  \"applinks\": {\n    \"apps\": [],\n    \"details\": []\n  }\n}\n".utf8)

    private func cli(
        _ tool: OpenSSL.SignRequest.Tool = .smime, outform: String?, stream: Bool = false, nodetach: Bool = true,
        in scratch: ScratchDirectory
    ) throws -> Data {
        var request = OpenSSL.SignRequest(tool: tool, certfile: Paths.cert("chain.pem"))
        request.outform = outform
        request.stream = stream
        request.nodetach = nodetach
        return try OpenSSL.sign(Self.json, request, in: scratch)
    }

    private func expectSigned(
        _ data: Data, _ kind: FileKind, encoding: PKCS7Encoding, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let detection = FileKindDetector.detect(data)
        #expect(detection.kind == kind, "\(detection.detail ?? "")", sourceLocation: sourceLocation)
        #expect(detection.kind.isSigned, sourceLocation: sourceLocation)
        #expect(detection.damagedPKCS7Encoding == nil, sourceLocation: sourceLocation)
        #expect(detection.message?.isSignedData == true, sourceLocation: sourceLocation)
        #expect(detection.message?.encoding == encoding, sourceLocation: sourceLocation)
        #expect(FileKindDetector.pkcs7Encoding(of: data) == encoding, sourceLocation: sourceLocation)
    }

    // MARK: PKCS#7 encodings

    @Test("DER with definite lengths is pkcs7-der")
    func detectsDefiniteDER() throws {
        let data = try PKI.identity("leaf-rsa").sign(Self.json)
        #expect(Array(data.prefix(2)) == [0x30, 0x82])
        expectSigned(data, .pkcs7DER, encoding: .der)
        let detection = FileKindDetector.detect(data)
        #expect(detection.detail == nil)
        #expect(detection.hasByteOrderMark == false)
        #expect(detection.message?.hasContent == true)
    }

    @Test("BER with indefinite lengths is pkcs7-der", arguments: [OpenSSL.SignRequest.Tool.smime, .cms])
    func detectsIndefiniteBER(tool: OpenSSL.SignRequest.Tool) throws {
        try withScratchDirectory { scratch in
            let data = try cli(tool, outform: "DER", stream: true, in: scratch)
            #expect(Array(data.prefix(2)) == [0x30, 0x80])
            expectSigned(data, .pkcs7DER, encoding: .der)
            #expect(try SignedData(data: data).unverifiedContent() == lfToCRLF(Self.json))
        }
    }

    @Test("a small DER with a short-form length is recognised")
    func detectsShortFormDER() throws {
        try withScratchDirectory { scratch in
            let input = try scratch.write(Data("{}".utf8), to: "in")
            try OpenSSL.succeed(
                ["cms", "-data_create", "-binary", "-outform", "DER", "-in", input, "-out", "out"], in: scratch)
            let data = try scratch.read("out")
            #expect(data[data.startIndex + 1] < 0x80)
            #expect(FileKindDetector.pkcs7Encoding(of: data) == .der)
            let detection = FileKindDetector.detect(data)
            #expect(detection.kind == .pkcs7Other)
            #expect(detection.message?.contentInfoType == "pkcs7-data")
            #expect(throws: AASAError(.notSignedData, "")) { try detection.message?.unverifiedContent() }
        }
    }

    @Test("PEM with the PKCS7 label is pkcs7-pem")
    func detectsPKCS7PEM() throws {
        try withScratchDirectory { scratch in
            let data = try cli(outform: "PEM", in: scratch)
            #expect(String(decoding: data, as: UTF8.self).hasPrefix("-----BEGIN PKCS7-----"))
            expectSigned(data, .pkcs7PEM, encoding: .pem)
        }
    }

    @Test("PEM with the CMS label is pkcs7-pem")
    func detectsCMSPEM() throws {
        try withScratchDirectory { scratch in
            let data = try cli(.cms, outform: "PEM", in: scratch)
            #expect(String(decoding: data, as: UTF8.self).hasPrefix("-----BEGIN CMS-----"))
            expectSigned(data, .pkcs7PEM, encoding: .pem)
        }
    }

    @Test("PEM with the PKCS #7 SIGNED DATA label is pkcs7-pem")
    func detectsSignedDataLabelPEM() throws {
        let pem = try PKI.identity("leaf-rsa").sign(Self.json, options: SigningOptions(encoding: .pem))
        let relabelled = String(decoding: pem, as: UTF8.self).replacingOccurrences(
            of: "PKCS7", with: "PKCS #7 SIGNED DATA")
        expectSigned(Data(relabelled.utf8), .pkcs7PEM, encoding: .pem)
    }

    @Test("PEM after leading LF blank lines is still pkcs7-pem")
    func detectsPEMAfterWhitespace() throws {
        let pem = try PKI.identity("leaf-rsa").sign(Self.json, options: SigningOptions(encoding: .pem))
        expectSigned(Data("\n\n  \t\n".utf8) + pem, .pkcs7PEM, encoding: .pem)
    }

    @Test("an indented BEGIN line is damaged PEM (RFC 7468 boundaries start a line)")
    func indentedPEMIsDamaged() throws {
        let pem = try PKI.identity("leaf-rsa").sign(Self.json, options: SigningOptions(encoding: .pem))
        let detection = FileKindDetector.detect(Data("  ".utf8) + pem)
        #expect(detection.kind == .unknown)
        #expect(detection.damagedPKCS7Encoding == .pem)
    }

    /// A CRLF blank line before the PEM armour (a file saved on Windows). The C parser reads it
    /// fine; detection must not give up on it.
    @Test("PEM after a CRLF blank line is still pkcs7-pem")
    func detectsPEMAfterCRLFBlankLine() throws {
        let pem = try PKI.identity("leaf-rsa").sign(Self.json, options: SigningOptions(encoding: .pem))
        let data = Data("\r\n".utf8) + pem
        #expect(try SignedData(data: data, encoding: .pem).isSignedData)
        expectSigned(data, .pkcs7PEM, encoding: .pem)
    }

    @Test("a PEM block of another kind is not PKCS#7")
    func certificatePEMIsNotPKCS7() throws {
        let data = try PKI.data("leaf-rsa.pem")
        #expect(FileKindDetector.pkcs7Encoding(of: data) == nil)
        let detection = FileKindDetector.detect(data)
        #expect(detection.kind == .unknown)
        #expect(detection.damagedPKCS7Encoding == nil)
    }

    @Test("S/MIME application/x-pkcs7-mime (openssl smime) is pkcs7-smime")
    func detectsOldSMIME() throws {
        try withScratchDirectory { scratch in
            let data = try cli(outform: nil, in: scratch)
            #expect(String(decoding: data, as: UTF8.self).contains("application/x-pkcs7-mime"))
            expectSigned(data, .pkcs7SMIME, encoding: .smime)
            #expect(try SignedData(data: data).unverifiedContent() == lfToCRLF(Self.json))
        }
    }

    @Test("S/MIME application/pkcs7-mime (openssl cms) is pkcs7-smime")
    func detectsNewSMIME() throws {
        try withScratchDirectory { scratch in
            let data = try cli(.cms, outform: nil, in: scratch)
            #expect(String(decoding: data, as: UTF8.self).contains("application/pkcs7-mime"))
            expectSigned(data, .pkcs7SMIME, encoding: .smime)
        }
    }

    @Test("S/MIME header names and media types are case-insensitive")
    func detectsCapitalisedSMIME() throws {
        let smime = try PKI.identity("leaf-rsa").sign(Self.json, options: SigningOptions(encoding: .smime))
        let text = String(decoding: smime, as: UTF8.self)
            .replacingOccurrences(
                of: "Content-Type: application/x-pkcs7-mime", with: "content-type: Application/X-PKCS7-MIME")
        #expect(text != String(decoding: smime, as: UTF8.self))
        expectSigned(Data(text.utf8), .pkcs7SMIME, encoding: .smime)
    }

    /// `openssl smime -sign -crlfeol` writes CRLF line ends, as does any S/MIME that went
    /// through mail. OpenSSL itself reads it (`smime -verify` succeeds).
    @Test("S/MIME with CRLF line ends (openssl smime -crlfeol) is pkcs7-smime")
    func detectsCRLFSMIME() throws {
        try withScratchDirectory { scratch in
            let input = try scratch.write(Self.json, to: "in.json")
            try OpenSSL.succeed(
                [
                    "smime", "-sign", "-nodetach", "-noattr", "-crlfeol", "-inkey", Paths.cert("leaf-rsa.key"),
                    "-signer",
                    Paths.cert("leaf-rsa.pem"), "-certfile", Paths.cert("chain.pem"), "-in", input, "-out",
                    "crlf.smime",
                ], in: scratch)
            let data = try scratch.read("crlf.smime")
            #expect(data.offset(of: Data("1.0\r\n".utf8)) != nil)
            #expect(try SignedData(data: data, encoding: .smime).isSignedData)
            expectSigned(data, .pkcs7SMIME, encoding: .smime)
            try PKI.verifier().verify(data).expect("valid")
        }
    }

    @Test(
        "S/MIME multipart/signed is pkcs7-smime whose content is the first MIME part (CRLF, as S/MIME canonicalises it)"
    )
    func detectsMultipartSigned() throws {
        try withScratchDirectory { scratch in
            let data = try cli(outform: nil, nodetach: false, in: scratch)
            #expect(String(decoding: data, as: UTF8.self).contains("multipart/signed"))
            expectSigned(data, .pkcs7SMIME, encoding: .smime)
            let detection = FileKindDetector.detect(data)
            #expect(detection.message?.hasContent == true)
            #expect(detection.detail == nil)
            #expect(try detection.message?.unverifiedContent() == lfToCRLF(Self.json))
        }
    }

    @Test("a certificates-only bundle is SignedData with no signer")
    func detectsCertificatesOnly() throws {
        try withScratchDirectory { scratch in
            try OpenSSL.succeed(
                ["crl2pkcs7", "-nocrl", "-certfile", Paths.cert("full-chain.pem"), "-outform", "DER", "-out", "out"],
                in: scratch)
            let detection = FileKindDetector.detect(try scratch.read("out"))
            #expect(detection.kind == .pkcs7DER)
            #expect(detection.message?.signerInfos.isEmpty == true)
            #expect(detection.message?.certificates.count == 2)
            #expect(detection.detail?.contains("no signer") == true)
        }
    }

    // MARK: JSON

    @Test("JSON without a byte-order mark is json")
    func detectsJSON() {
        let detection = FileKindDetector.detect(Self.json)
        #expect(detection.kind == .json)
        #expect(detection.hasByteOrderMark == false)
        #expect(detection.message == nil)
        #expect(detection.damagedPKCS7Encoding == nil)
        #expect(!detection.kind.isSigned)
    }

    @Test("JSON with a UTF-8 byte-order mark is json and says so")
    func detectsJSONWithBOM() {
        let detection = FileKindDetector.detect(Data([0xEF, 0xBB, 0xBF]) + Self.json)
        #expect(detection.kind == .json)
        #expect(detection.hasByteOrderMark)
        #expect(detection.detail?.contains("byte-order mark") == true)
    }

    @Test(
        "minified JSON, leading white space and non-ASCII are json",
        arguments: [
            "{\"applinks\":{\"apps\":[],\"details\":[]}}", "\n\n  {\"a\": 1}", "{\"name\": \"Café 🚀\"}", "[]",
        ])
    func detectsJSONVariants(text: String) {
        #expect(FileKindDetector.detect(Data(text.utf8)).kind == .json)
    }

    @Test(
        "UTF-16 and UTF-32 JSON are unknown",
        arguments: [
            String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf16, .utf32LittleEndian, .utf32BigEndian,
        ])
    func rejectsWideJSON(encoding: String.Encoding) throws {
        let data = try #require("{\"applinks\": {\"apps\": []}}".data(using: encoding))
        let detection = FileKindDetector.detect(data)
        #expect(detection.kind == .unknown)
        #expect(detection.detail?.contains("UTF-16") == true)
    }

    @Test("UTF-16 JSON with a byte-order mark is unknown")
    func rejectsUTF16WithBOM() {
        let body = Array("{\"a\":1}".utf16)
        var little: [UInt8] = [0xFF, 0xFE]
        var big: [UInt8] = [0xFE, 0xFF]
        for unit in body {
            little += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            big += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        #expect(FileKindDetector.detect(Data(little)).kind == .unknown)
        #expect(FileKindDetector.detect(Data(big)).kind == .unknown)
    }

    @Test(
        "JSON-looking text that does not parse is unknown",
        arguments: [
            "{\"applinks\": ", "{'applinks': {}}", "[1, 2", "{\"a\": 1}}", "{a: 1}", "{\"a\": NaN}",
        ])
    func rejectsBrokenJSON(text: String) {
        let detection = FileKindDetector.detect(Data(text.utf8))
        #expect(detection.kind == .unknown)
        #expect(detection.detail?.hasPrefix("looks like JSON but does not parse: 1:") == true)
        #expect(detection.damagedPKCS7Encoding == nil)
    }

    /// RFC 8259 has no trailing commas, and Apple's parser rejects them; Foundation's
    /// JSONSerialization on Linux accepts them.
    @Test(
        "JSON with a trailing comma is not JSON",
        arguments: ["{\"a\": 1,}", "[1, 2,]", "{\"applinks\": {\"apps\": [],}}"])
    func rejectsTrailingComma(text: String) {
        let detection = FileKindDetector.detect(Data(text.utf8))
        #expect(detection.kind == .unknown)
        #expect(detection.detail?.hasPrefix("looks like JSON but does not parse: 1:") == true)
        #expect(detection.detail?.contains("trailing comma") == true)
    }

    @Test("other text is unknown", arguments: ["hello", "<html></html>", "applinks: {}"])
    func rejectsOtherText(text: String) {
        let detection = FileKindDetector.detect(Data(text.utf8))
        #expect(detection.kind == .unknown)
        #expect(detection.detail?.hasPrefix("neither JSON (1:1: unexpected") == true)
        #expect(detection.detail?.hasSuffix("nor PKCS#7") == true)
    }

    @Test("invalid UTF-8 is unknown")
    func rejectsInvalidUTF8() {
        let detection = FileKindDetector.detect(Data("{\"a\": \"".utf8) + Data([0xC3, 0x28]) + Data("\"}".utf8))
        #expect(detection.kind == .unknown)
        #expect(detection.detail == "not UTF-8 text")
    }

    @Test("an empty file is unknown")
    func rejectsEmpty() {
        let detection = FileKindDetector.detect(Data())
        #expect(detection.kind == .unknown)
        #expect(detection.detail == "empty file")
        #expect(detection.damagedPKCS7Encoding == nil)
    }

    @Test("white space only is unknown", arguments: [" ", "\n", "\r\n\t  \n"])
    func rejectsWhitespace(text: String) {
        let detection = FileKindDetector.detect(Data(text.utf8))
        #expect(detection.kind == .unknown)
        #expect(detection.detail == "only white space")
    }

    @Test("random bytes are unknown", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func rejectsRandomBytes(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var bytes = (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[0] = 0x8F  // neither a SEQUENCE, a BOM, '{' nor white space
        let detection = FileKindDetector.detect(Data(bytes))
        #expect(detection.kind == .unknown)
        #expect(detection.damagedPKCS7Encoding == nil)
        #expect(detection.message == nil)
    }

    @Test("a DER SEQUENCE that is not PKCS#7 is unknown")
    func rejectsOtherDER() throws {
        let certificate = try PKI.data("leaf-rsa.der")
        #expect(FileKindDetector.pkcs7Encoding(of: certificate) == nil)
        #expect(FileKindDetector.detect(certificate).kind == .unknown)
    }

    // MARK: Damaged PKCS#7

    @Test("truncated DER is unknown and reported as damaged DER")
    func truncatedDERIsDamaged() throws {
        let data = try PKI.identity("leaf-rsa").sign(Self.json)
        for length in [16, 40, 100, data.count / 2, data.count - 1] {
            let detection = FileKindDetector.detect(data.prefix(length))
            #expect(detection.kind == .unknown, "length \(length)")
            #expect(detection.damagedPKCS7Encoding == .der, "length \(length)")
            #expect(detection.message == nil)
            #expect(detection.detail?.contains("damaged PKCS#7 DER") == true)
        }
    }

    @Test("DER followed by garbage is damaged DER, and SignedData refuses it")
    func trailingGarbageIsDamaged() throws {
        let data = try PKI.identity("leaf-rsa").sign(Self.json) + Data("trailing".utf8)
        #expect(FileKindDetector.detect(data).damagedPKCS7Encoding == .der)
        #expect(throws: AASAError(.malformedMessage, "")) { try SignedData(data: data, encoding: .der) }
    }

    @Test("PEM without its END line is damaged PEM")
    func truncatedPEMIsDamaged() throws {
        let pem = String(
            decoding: try PKI.identity("leaf-rsa").sign(Self.json, options: SigningOptions(encoding: .pem)),
            as: UTF8.self)
        let cut = pem.replacingOccurrences(of: "-----END PKCS7-----\n", with: "")
        let detection = FileKindDetector.detect(Data(cut.utf8))
        #expect(detection.kind == .unknown)
        #expect(detection.damagedPKCS7Encoding == .pem)
    }

    @Test("PEM whose base64 body is cut short is damaged PEM")
    func shortenedPEMIsDamaged() throws {
        let pem = String(
            decoding: try PKI.identity("leaf-rsa").sign(Self.json, options: SigningOptions(encoding: .pem)),
            as: UTF8.self)
        var lines = pem.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeSubrange(3..<8)
        let detection = FileKindDetector.detect(Data(lines.joined(separator: "\n").utf8))
        #expect(detection.kind == .unknown)
        #expect(detection.damagedPKCS7Encoding == .pem)
    }

    @Test("S/MIME with its body cut short is damaged S/MIME")
    func truncatedSMIMEIsDamaged() throws {
        let smime = try PKI.identity("leaf-rsa").sign(Self.json, options: SigningOptions(encoding: .smime))
        let detection = FileKindDetector.detect(smime.prefix(smime.count / 2))
        #expect(detection.kind == .unknown)
        #expect(detection.damagedPKCS7Encoding == .smime)
    }

    @Test("S/MIME headers with no body are damaged S/MIME")
    func headersOnlySMIMEIsDamaged() {
        let headers = "MIME-Version: 1.0\nContent-Type: application/pkcs7-mime; smime-type=signed-data\n\n"
        let detection = FileKindDetector.detect(Data(headers.utf8))
        #expect(detection.damagedPKCS7Encoding == .smime)
        #expect(detection.kind == .unknown)
    }

    @Test("MIME headers of another type are not S/MIME")
    func otherMIMEIsNotSMIME() {
        let text = "MIME-Version: 1.0\nContent-Type: text/plain\n\n{\"a\": 1}\n"
        #expect(FileKindDetector.pkcs7Encoding(of: Data(text.utf8)) == nil)
        #expect(FileKindDetector.detect(Data(text.utf8)).kind == .unknown)
    }

    // MARK: SignedData

    @Test("SignedData(data:) refuses input that is not PKCS#7")
    func signedDataRefusesJSON() {
        #expect(throws: AASAError(.notSignedData, "")) { try SignedData(data: Self.json) }
        #expect(throws: AASAError(.notSignedData, "")) { try SignedData(data: Data()) }
    }

    @Test("SignedData(data:encoding:) refuses the wrong encoding")
    func signedDataRefusesWrongEncoding() throws {
        let der = try PKI.identity("leaf-rsa").sign(Self.json)
        #expect(throws: AASAError(.malformedMessage, "")) { try SignedData(data: der, encoding: .pem) }
        #expect(throws: AASAError(.malformedMessage, "")) { try SignedData(data: der, encoding: .smime) }
        #expect(throws: AASAError(.malformedMessage, "")) { try SignedData(data: Self.json, encoding: .der) }
        #expect(throws: AASAError(.malformedMessage, "")) { try SignedData(data: Data(), encoding: .der) }
    }

    @Test("SignedData describes its message")
    func signedDataOutline() throws {
        let message = try SignedData(
            data: PKI.identity("leaf-rsa").sign(Self.json, options: SigningOptions(digest: .sha384)))
        #expect(message.contentInfoType == "pkcs7-signedData")
        #expect(message.isSignedData)
        #expect(message.encapsulatedContentType == "pkcs7-data")
        #expect(message.hasContent)
        #expect(message.certificates.count == 2)
        let signer = try #require(message.signerInfos.first)
        #expect(signer.digestAlgorithm == "SHA384")
        #expect(signer.signatureAlgorithm == "rsaEncryption")
        #expect(signer.hasSignedAttributes == false)
        #expect(signer.issuer == "O=aasa test PKI, CN=AASA Test Intermediate CA")
        #expect(signer.serialNumber == "3001")
    }

    @Test("FileKind raw values are the documented names")
    func fileKindNames() {
        #expect(
            FileKind.allCases.map(\.rawValue) == [
                "pkcs7-der", "pkcs7-pem", "pkcs7-smime", "pkcs7-other", "json", "unknown",
            ])
        #expect(FileKind.allCases.filter(\.isSigned) == [.pkcs7DER, .pkcs7PEM, .pkcs7SMIME])
    }
}
