import AASA
// ECDSA signatures are randomised, so interop is checked both ways instead of byte for byte:
// openssl verifies ours, and we verify openssl's.
import Foundation
import Testing

@Suite("ECDSA: interoperable with openssl in both directions")
struct ECDSAInteropTests {
    static let leaves = ["leaf-ec", "leaf-ec384"]
    static let contents: [NamedInput] = Inputs.synthetic.filter {
        [
            "{}", "LF text", "CRLF text", "no final newline", "stray CR mid-line", "line longer than 3000 bytes",
            "UTF-8 non-ASCII",
        ].contains($0.name)
    }

    @Test("openssl smime -verify accepts our ECDSA signature", arguments: leaves, [false, true])
    func opensslVerifiesOurSignature(leaf: String, binary: Bool) throws {
        let identity = try PKI.identity(leaf)
        try withScratchDirectory { scratch in
            for input in Self.contents {
                let signed = try identity.sign(input.bytes, options: SigningOptions(binary: binary))
                let (result, content) = try OpenSSL.smimeVerify(signed, in: scratch)
                #expect(result.succeeded, "\(input.name): \(result.stderrText)")
                #expect(result.stderrText.contains("Verification successful"))
                #expect(content == (binary ? input.bytes : opensslCanonicalText(input.bytes)), "\(input.name)")
            }
        }
    }

    @Test("openssl needs the intermediate for our ECDSA signature without an embedded chain", arguments: leaves)
    func opensslNeedsTheIntermediate(leaf: String) throws {
        let identity = try PKI.identity(leaf, withChain: false)
        try withScratchDirectory { scratch in
            let content = Data("{\n  \"applinks\": {}\n}\n".utf8)
            let signed = try identity.sign(content)
            let bare = try OpenSSL.smimeVerify(signed, in: scratch)
            #expect(!bare.result.succeeded, "without the intermediate openssl must not find a chain")
            let helped = try OpenSSL.smimeVerify(signed, caFile: Paths.cert("full-chain.pem"), in: scratch)
            #expect(helped.result.succeeded, "\(helped.result.stderrText)")
            #expect(helped.content == lfToCRLF(content))
        }
    }

    @Test(
        "our ECDSA SignerInfo names the curve's signature algorithm and digest", arguments: leaves,
        DigestAlgorithm.allCases)
    func signerInfoNamesECDSA(leaf: String, digest: DigestAlgorithm) throws {
        let signed = try PKI.identity(leaf).sign(Data("{}".utf8), options: SigningOptions(digest: digest))
        let info = try #require(try SignedData(data: signed).signerInfos.first)
        #expect(info.digestAlgorithm == digest.rawValue.uppercased())
        #expect(info.signatureAlgorithm == "ecdsa-with-\(digest.rawValue.uppercased())")
        try PKI.verifier().verify(signed).expect("valid")
    }

    @Test("two ECDSA signatures of the same content differ but both verify", arguments: leaves)
    func ecdsaSignaturesAreRandomised(leaf: String) throws {
        let identity = try PKI.identity(leaf)
        let content = Data("{}".utf8)
        let first = try identity.sign(content)
        let second = try identity.sign(content)
        #expect(first != second)
        let verifier = try PKI.verifier()
        verifier.verify(first).expect("valid")
        verifier.verify(second).expect("valid")
    }

    @Test("we verify openssl's ECDSA signatures", arguments: leaves, [false, true])
    func weVerifyOpenSSLSignature(leaf: String, binary: Bool) throws {
        let verifier = try PKI.verifier()
        try withScratchDirectory { scratch in
            for input in Self.contents {
                var request = OpenSSL.SignRequest()
                request.key = Paths.cert("\(leaf).key")
                request.signer = Paths.cert("\(leaf).pem")
                request.certfile = Paths.cert("chain.pem")
                request.binary = binary
                let signed = try OpenSSL.sign(input.bytes, request, in: scratch)
                let result = verifier.verify(signed)
                result.expect("valid")
                #expect(result.content == (binary ? input.bytes : opensslCanonicalText(input.bytes)), "\(input.name)")
                #expect(result.signers.first?.keyType == "EC")
                #expect(result.chain.count == 3)
            }
        }
    }

    @Test("a damaged ECDSA signature is rejected by openssl and by us", arguments: leaves)
    func rejectsDamagedECDSASignature(leaf: String) throws {
        let content = Data("{\n  \"a\": 1\n}\n".utf8)
        let signed = try PKI.identity(leaf).sign(content, options: SigningOptions(binary: true))
        // The ECDSA-Sig-Value SEQUENCE is the last thing in the file: flip a byte of s.
        let damaged = signed.flippingByte(at: signed.count - 2)
        try withScratchDirectory { scratch in
            let (result, _) = try OpenSSL.smimeVerify(damaged, in: scratch)
            #expect(!result.succeeded)
        }
        try PKI.verifier().verify(damaged).expect("tampered")
    }

    @Test("tampered content under an ECDSA signature is rejected by openssl and by us", arguments: leaves)
    func rejectsTamperedContentUnderECDSA(leaf: String) throws {
        let content = Data("{\"applinks\":{\"apps\":[]}}".utf8)
        let signed = try PKI.identity(leaf).sign(content, options: SigningOptions(binary: true))
        let offset = try #require(signed.offset(of: content))
        let tampered = signed.flippingByte(at: offset + 3)
        try withScratchDirectory { scratch in
            let (result, _) = try OpenSSL.smimeVerify(tampered, in: scratch)
            #expect(!result.succeeded)
        }
        try PKI.verifier().verify(tampered).expect("tampered")
    }
}
