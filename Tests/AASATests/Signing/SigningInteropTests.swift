import AASA
// Our RSA signatures are byte-for-byte what `openssl smime -sign -noattr -nodetach` writes
// (RSA PKCS#1 v1.5 is deterministic and -noattr leaves out the signing time).
import Foundation
import Testing

@Suite("Signing: byte-identical to openssl smime -sign")
struct SigningInteropTests {
    /// Signs with leaf-rsa through the library.
    private func ourSignature(
        _ content: Data, withChain: Bool, options: SigningOptions
    ) throws -> Data {
        try PKI.identity("leaf-rsa", withChain: withChain).sign(content, options: options)
    }

    private func cliRequest(withChain: Bool, binary: Bool, md: String? = nil, outform: String? = "DER")
        -> OpenSSL.SignRequest
    {
        var request = OpenSSL.SignRequest()
        request.certfile = withChain ? Paths.cert("chain.pem") : nil
        request.binary = binary
        request.md = md
        request.outform = outform
        return request
    }

    // MARK: DER, every input, both modes, with and without the chain

    @Test("DER without chain matches openssl", arguments: Inputs.all, [false, true])
    func derWithoutChainMatchesOpenSSL(input: NamedInput, binary: Bool) throws {
        try withScratchDirectory { scratch in
            let ours = try ourSignature(input.bytes, withChain: false, options: SigningOptions(binary: binary))
            let theirs = try OpenSSL.sign(input.bytes, cliRequest(withChain: false, binary: binary), in: scratch)
            #expect(ours == theirs, "\(ours.count) B vs openssl \(theirs.count) B")
        }
    }

    @Test("DER with chain matches openssl -certfile", arguments: Inputs.all, [false, true])
    func derWithChainMatchesOpenSSL(input: NamedInput, binary: Bool) throws {
        try withScratchDirectory { scratch in
            let ours = try ourSignature(input.bytes, withChain: true, options: SigningOptions(binary: binary))
            let theirs = try OpenSSL.sign(input.bytes, cliRequest(withChain: true, binary: binary), in: scratch)
            #expect(ours == theirs, "\(ours.count) B vs openssl \(theirs.count) B")
        }
    }

    /// The embedded content is the input in binary mode, and OpenSSL's CRLF canonical form in
    /// text mode (checked against an independent model of SMIME_crlf_copy).
    @Test("embedded content is the input (binary) or its CRLF canonical form (text)", arguments: Inputs.all)
    func embeddedContentFollowsTheMode(input: NamedInput) throws {
        let identity = try PKI.identity("leaf-rsa")
        let binary = try SignedData(data: identity.sign(input.bytes, options: SigningOptions(binary: true)))
        #expect(try binary.unverifiedContent() == input.bytes)

        let text = try SignedData(data: identity.sign(input.bytes, options: SigningOptions(binary: false)))
        let canonical = try text.unverifiedContent()
        #expect(canonical == opensslCanonicalText(input.bytes))
        // Text mode leaves no bare LF behind (bare CRs inside a line survive).
        let bytes = [UInt8](canonical)
        #expect(bytes.indices.allSatisfy { bytes[$0] != 0x0A || ($0 > 0 && bytes[$0 - 1] == 0x0D) })
        if !input.bytes.contains(0x0D) {
            #expect([LineEndingStyle.crlf, .none].contains(LineEndingStyle.of(canonical)))
            // Without CRs in the input, text mode is exactly LF → CRLF, and crlfToLF undoes it.
            #expect(canonical == lfToCRLF(input.bytes))
            #expect(LineEndingStyle.crlfToLF(canonical) == input.bytes)
        }
    }

    @Test("a signature made here verifies as valid with the test root", arguments: [false, true])
    func ourSignatureVerifies(binary: Bool) throws {
        let input = Inputs.synthetic.first { $0.name == "LF text" }!.bytes
        let signed = try PKI.identity("leaf-rsa").sign(input, options: SigningOptions(binary: binary))
        let result = try PKI.verifier().verify(signed)
        result.expect("valid")
        #expect(result.content == (binary ? input : lfToCRLF(input)))
    }

    // MARK: Digests

    @Test("-md digests match openssl", arguments: DigestAlgorithm.allCases, [false, true])
    func digestsMatchOpenSSL(digest: DigestAlgorithm, binary: Bool) throws {
        let names = ["LF text", "CR CR LF", "line longer than 3000 bytes", "UTF-8 non-ASCII"]
        let inputs = Inputs.synthetic.filter { names.contains($0.name) } + Inputs.corpusPlain.prefix(2)
        #expect(inputs.count == names.count + 2)
        try withScratchDirectory { scratch in
            for input in inputs {
                for withChain in [false, true] {
                    let ours = try ourSignature(
                        input.bytes, withChain: withChain, options: SigningOptions(digest: digest, binary: binary))
                    let theirs = try OpenSSL.sign(
                        input.bytes, cliRequest(withChain: withChain, binary: binary, md: digest.rawValue), in: scratch)
                    #expect(ours == theirs, "\(input.name), chain \(withChain)")
                    let info = try #require(try SignedData(data: ours).signerInfos.first)
                    #expect(info.digestAlgorithm == digest.rawValue.uppercased())
                    #expect(info.signatureAlgorithm == "rsaEncryption")
                    #expect(info.hasSignedAttributes == false)
                }
            }
        }
    }

    @Test("different digests give different signatures")
    func differentDigestsDiffer() throws {
        let identity = try PKI.identity("leaf-rsa")
        let content = Data("{}".utf8)
        let all = try DigestAlgorithm.allCases.map { try identity.sign(content, options: SigningOptions(digest: $0)) }
        #expect(Set(all).count == DigestAlgorithm.allCases.count)
    }

    // MARK: Other encodings

    @Test("PEM matches openssl -outform PEM", arguments: [false, true], [false, true])
    func pemMatchesOpenSSL(binary: Bool, withChain: Bool) throws {
        try withScratchDirectory { scratch in
            for input in Inputs.synthetic.prefix(6) + Inputs.corpusPlain.prefix(2) {
                let ours = try ourSignature(
                    input.bytes, withChain: withChain, options: SigningOptions(binary: binary, encoding: .pem))
                let theirs = try OpenSSL.sign(
                    input.bytes, cliRequest(withChain: withChain, binary: binary, outform: "PEM"), in: scratch)
                #expect(ours == theirs, "\(input.name)")
                #expect(String(decoding: ours, as: UTF8.self).hasPrefix("-----BEGIN PKCS7-----\n"))
            }
        }
    }

    @Test("S/MIME matches openssl without -outform", arguments: [false, true], [false, true])
    func smimeMatchesOpenSSL(binary: Bool, withChain: Bool) throws {
        try withScratchDirectory { scratch in
            for input in Inputs.synthetic.prefix(6) + Inputs.corpusPlain.prefix(2) {
                let ours = try ourSignature(
                    input.bytes, withChain: withChain, options: SigningOptions(binary: binary, encoding: .smime))
                let theirs = try OpenSSL.sign(
                    input.bytes, cliRequest(withChain: withChain, binary: binary, outform: nil), in: scratch)
                #expect(ours == theirs, "\(input.name)")
                #expect(String(decoding: ours, as: UTF8.self).hasPrefix("MIME-Version: 1.0"))
            }
        }
    }

    @Test("DER, PEM and S/MIME of one signature carry the same message")
    func encodingsCarryTheSameMessage() throws {
        let identity = try PKI.identity("leaf-rsa")
        let content = Data("{\n  \"a\": 1\n}\n".utf8)
        let der = try identity.sign(content)
        for encoding in [PKCS7Encoding.pem, .smime] {
            let other = try SignedData(data: identity.sign(content, options: SigningOptions(encoding: encoding)))
            #expect(other.encoding == encoding)
            #expect(try other.unverifiedContent() == SignedData(data: der).unverifiedContent())
            #expect(other.certificates.map(\.info) == (try SignedData(data: der).certificates.map(\.info)))
        }
    }

    // MARK: Layout

    @Test("the chain comes before the signer certificate, as with -certfile")
    func chainPrecedesSigner() throws {
        let message = try SignedData(data: PKI.identity("leaf-rsa").sign(Data("{}".utf8)))
        #expect(
            message.certificates.map(\.info.subject) == [
                try PKI.certificate("intermediate-ca.pem").info.subject, "CN=example.com",
            ])
        #expect(message.certificates[1].info.serialNumber == "3001")
        let signer = try #require(message.signerInfos.first)
        #expect(signer.serialNumber == "3001")
        #expect(signer.issuer == message.certificates[0].info.subject)
    }

    @Test("without a chain only the signer certificate is embedded")
    func noChainEmbedsOnlyTheSigner() throws {
        let message = try SignedData(data: PKI.identity("leaf-rsa", withChain: false).sign(Data("{}".utf8)))
        #expect(message.certificates.count == 1)
        #expect(message.certificates.first?.info.serialNumber == "3001")
    }

    @Test("signed attributes are added only when asked for")
    func signedAttributesOnlyWhenAsked() throws {
        let identity = try PKI.identity("leaf-rsa")
        let with = try SignedData(data: identity.sign(Data("{}".utf8), options: SigningOptions(signedAttributes: true)))
        let without = try SignedData(data: identity.sign(Data("{}".utf8)))
        #expect(with.signerInfos.first?.hasSignedAttributes == true)
        #expect(without.signerInfos.first?.hasSignedAttributes == false)
        try PKI.verifier().verify(with).expect("valid")
    }

    // MARK: Key and certificate formats

    @Test(
        "every encoding of the leaf-rsa key signs the same bytes as openssl",
        arguments: ["leaf-rsa.key", "leaf-rsa.pkcs1.key", "leaf-rsa.key.der", "leaf-rsa.enc.key"])
    func keyFormatsGiveTheSameBytes(keyFile: String) throws {
        let passphrase = keyFile.contains(".enc.") ? try PKI.passphrase() : nil
        let identity = try SigningIdentity(
            key: PKI.key(keyFile, passphrase: passphrase), certificate: PKI.certificate("leaf-rsa.pem"),
            chain: PKI.certificates("chain.pem"))
        try withScratchDirectory { scratch in
            for input in Inputs.synthetic.prefix(5) {
                for binary in [false, true] {
                    let ours = try identity.sign(input.bytes, options: SigningOptions(binary: binary))
                    var request = cliRequest(withChain: true, binary: binary)
                    request.key = Paths.cert(keyFile)
                    if keyFile.hasSuffix(".der") {
                        request.key = Paths.cert("leaf-rsa.key")  // the CLI's -keyform default is PEM
                    }
                    if passphrase != nil { request.passin = "file:\(Paths.cert("passphrase.txt"))" }
                    let theirs = try OpenSSL.sign(input.bytes, request, in: scratch)
                    #expect(ours == theirs, "\(input.name), binary \(binary)")
                }
            }
        }
    }

    @Test("PKCS#12 gives the same bytes as key + certificate + -certfile chain.pem", arguments: [false, true])
    func pkcs12GivesTheSameBytesAsKeyAndChain(binary: Bool) throws {
        let bundle = try PKCS12Bundle(data: PKI.data("leaf-rsa.p12"), passphrase: PKI.passphrase())
        let identity = try SigningIdentity(bundle: bundle)
        #expect(identity.chain.count == 1)
        try withScratchDirectory { scratch in
            for input in Inputs.synthetic.prefix(5) + Inputs.corpusPlain.prefix(1) {
                let ours = try identity.sign(input.bytes, options: SigningOptions(binary: binary))
                let theirs = try OpenSSL.sign(input.bytes, cliRequest(withChain: true, binary: binary), in: scratch)
                #expect(ours == theirs, "\(input.name)")
                #expect(
                    ours == (try PKI.identity("leaf-rsa").sign(input.bytes, options: SigningOptions(binary: binary))))
            }
        }
    }

    @Test("a DER certificate signs the same bytes as its PEM form")
    func derCertificateWorks() throws {
        let derCertificate = try #require(try X509Certificate.load(from: PKI.data("leaf-rsa.der")).first)
        let identity = try SigningIdentity(
            key: PKI.key("leaf-rsa.key"), certificate: derCertificate, chain: PKI.certificates("chain.pem"))
        try withScratchDirectory { scratch in
            let content = Data("{\n  \"applinks\": {}\n}\n".utf8)
            let theirs = try OpenSSL.sign(content, cliRequest(withChain: true, binary: false), in: scratch)
            #expect(try identity.sign(content) == theirs)
        }
    }

    // MARK: Refusals

    @Test("signing with another certificate's key throws keyMismatch")
    func signingRefusesAMismatchedKey() throws {
        #expect(throws: AASAError(.keyMismatch, "")) {
            try SigningIdentity(key: PKI.key("leaf-rsa-twin.key"), certificate: PKI.certificate("leaf-rsa.pem"))
        }
    }
}
