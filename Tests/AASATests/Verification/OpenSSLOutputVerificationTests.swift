import AASA
// Whatever `openssl smime` or `openssl cms` writes, in any encoding, verifies with Verifier.
import Foundation
import Testing

/// One way of producing a signed file with the CLI.
struct CLIProducer: Sendable, CustomTestStringConvertible {
    var name: String
    var tool: OpenSSL.SignRequest.Tool
    var outform: String?
    var stream: Bool
    var expectedKind: FileKind
    var testDescription: String { name }

    static let all: [CLIProducer] = [
        CLIProducer(name: "smime DER", tool: .smime, outform: "DER", stream: false, expectedKind: .pkcs7DER),
        CLIProducer(name: "smime PEM", tool: .smime, outform: "PEM", stream: false, expectedKind: .pkcs7PEM),
        CLIProducer(name: "smime S/MIME", tool: .smime, outform: nil, stream: false, expectedKind: .pkcs7SMIME),
        CLIProducer(
            name: "smime -stream DER (BER)", tool: .smime, outform: "DER", stream: true, expectedKind: .pkcs7DER),
        CLIProducer(name: "smime -stream S/MIME", tool: .smime, outform: nil, stream: true, expectedKind: .pkcs7SMIME),
        CLIProducer(name: "cms DER", tool: .cms, outform: "DER", stream: false, expectedKind: .pkcs7DER),
        CLIProducer(name: "cms PEM (CMS label)", tool: .cms, outform: "PEM", stream: false, expectedKind: .pkcs7PEM),
        CLIProducer(name: "cms S/MIME", tool: .cms, outform: nil, stream: false, expectedKind: .pkcs7SMIME),
        CLIProducer(name: "cms -stream DER (BER)", tool: .cms, outform: "DER", stream: true, expectedKind: .pkcs7DER),
    ]

    func sign(_ content: Data, binary: Bool, signedAttributes: Bool, in scratch: ScratchDirectory) throws -> Data {
        var request = OpenSSL.SignRequest()
        request.tool = tool
        request.outform = outform
        request.stream = stream
        request.certfile = Paths.cert("chain.pem")
        request.binary = binary
        request.noattr = !signedAttributes
        return try OpenSSL.sign(content, request, in: scratch)
    }
}

@Suite("Verifying what openssl produces")
struct OpenSSLOutputVerificationTests {
    static let content = Data("{\n  \"applinks\": {\n    \"apps\": [],\n    \"details\": []\n  }\n}\n".utf8)

    @Test("openssl output verifies as valid", arguments: CLIProducer.all, [false, true])
    func verifiesOpenSSLOutput(producer: CLIProducer, signedAttributes: Bool) throws {
        try withScratchDirectory { scratch in
            for binary in [false, true] {
                let signed = try producer.sign(
                    Self.content, binary: binary, signedAttributes: signedAttributes, in: scratch)
                #expect(FileKindDetector.detect(signed).kind == producer.expectedKind)
                let result = try PKI.verifier().verify(signed)
                result.expect("valid")
                #expect(result.kind == producer.expectedKind)
                #expect(result.content == (binary ? Self.content : lfToCRLF(Self.content)), "binary \(binary)")
                #expect(result.signerInfos.first?.hasSignedAttributes == signedAttributes)
                #expect(result.signers.map(\.serialNumber) == ["3001"])
                #expect(result.chain.map(\.serialNumber) == ["3001", "2000", "1000"])
            }
        }
    }

    @Test(
        "stream output is BER with indefinite lengths",
        arguments: CLIProducer.all.filter { $0.stream && $0.outform == "DER" })
    func streamOutputIsIndefiniteLength(producer: CLIProducer) throws {
        try withScratchDirectory { scratch in
            let signed = try producer.sign(Self.content, binary: false, signedAttributes: true, in: scratch)
            #expect(Array(signed.prefix(2)) == [0x30, 0x80])
            let message = try SignedData(data: signed)
            #expect(message.encoding == .der)
            #expect(try message.unverifiedContent() == lfToCRLF(Self.content))
        }
    }

    @Test(
        "openssl output with content changed after signing is tampered",
        arguments: CLIProducer.all.filter { $0.outform == "DER" }, [false, true])
    func rejectsTamperedOpenSSLOutput(producer: CLIProducer, signedAttributes: Bool) throws {
        try withScratchDirectory { scratch in
            let signed = try producer.sign(Self.content, binary: true, signedAttributes: signedAttributes, in: scratch)
            let offset = try #require(signed.offset(of: Data("applinks".utf8)))
            let result = try PKI.verifier().verify(signed.flippingByte(at: offset))
            result.expect("tampered")
        }
    }

    @Test("signed attributes are reported and verified")
    func signedAttributesArePresent() throws {
        try withScratchDirectory { scratch in
            var request = OpenSSL.SignRequest()
            request.noattr = false
            request.certfile = Paths.cert("chain.pem")
            let signed = try OpenSSL.sign(Self.content, request, in: scratch)
            let message = try SignedData(data: signed)
            #expect(message.signerInfos.count == 1)
            #expect(message.signerInfos.first?.hasSignedAttributes == true)
            #expect(message.signerInfos.first?.digestAlgorithm == "SHA256")
            try PKI.verifier().verify(signed).expect("valid")
        }
    }

    /// `openssl cms -sign` with two -signer/-inkey pairs (leaf-rsa first).
    private func signTwice(second: String, in scratch: ScratchDirectory) throws -> Data {
        let input = try scratch.write(Self.content, to: "two-\(second).json")
        let output = scratch.file("two-\(second).der").path
        try OpenSSL.succeed(
            [
                "cms", "-sign", "-nodetach", "-noattr", "-binary", "-in", input, "-signer", Paths.cert("leaf-rsa.pem"),
                "-inkey", Paths.cert("leaf-rsa.key"), "-signer", Paths.cert("\(second).pem"), "-inkey",
                Paths.cert("\(second).key"), "-certfile", Paths.cert("chain.pem"), "-outform", "DER", "-out", output,
            ], in: scratch)
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    @Test("two signers that both chain to the root are valid")
    func twoSignersVerify() throws {
        try withScratchDirectory { scratch in
            let both = try signTwice(second: "leaf-ec", in: scratch)
            let message = try SignedData(data: both)
            #expect(message.signerInfos.count == 2)
            let result = try PKI.verifier().verify(both)
            result.expect("valid")
            // One signer certificate per SignerInfo, in SignerInfo order (CMS sorts the SET).
            #expect(result.signers.map(\.serialNumber) == message.signerInfos.map(\.serialNumber))
            #expect(Set(result.signers.map(\.serialNumber)) == ["3001", "3002"])
            #expect(result.content == Self.content)
        }
    }

    @Test("a second signer that does not chain to the root makes the file untrusted")
    func secondSignerMustBeTrusted() throws {
        try withScratchDirectory { scratch in
            let both = try signTwice(second: "leaf-untrusted", in: scratch)
            let result = try PKI.verifier().verify(both)
            result.expect("untrusted")
            guard case .untrusted(_, let certificate, _) = result.verdict else {
                Issue.record("unexpected verdict \(result.verdict)")
                return
            }
            #expect(certificate?.serialNumber == "9001")
        }
    }

    @Test("a damaged second signature makes the file tampered")
    func secondSignatureIsChecked() throws {
        try withScratchDirectory { scratch in
            let both = try signTwice(second: "leaf-wildcard", in: scratch)
            try PKI.verifier().verify(both).expect("valid")
            // The second SignerInfo is last, and its RSA signature is the last 256 bytes.
            try PKI.verifier().verify(both.flippingByte(at: both.count - 10)).expect("tampered")
        }
    }
}
