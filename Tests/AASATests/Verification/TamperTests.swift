import Foundation
import Testing

@testable import AASA

/// Adversarial inputs for verification: whatever is changed, `verify` fails, or else the
/// verified content and signer are byte-identical to the original. Never a crash.
@Suite("Tamper and adversarial inputs")
struct TamperTests {
    static let content = Data(
        "{\n  \"applinks\": {\n    \"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/a/*\"}]}]\n  }\n}\n"
            .utf8)

    /// A signed fixture (RSA leaf + chain, the legacy recipe), the verifier, and its valid result.
    static func fixture() throws -> (signed: Data, verifier: Verifier, content: Data, signer: CertificateInfo) {
        let identity = try PKI.identity("leaf-rsa")
        let signed = try identity.sign(content)
        let verifier = try PKI.verifier()
        let result = verifier.verify(signed)
        try #require(result.isValid, "\(result.verdict)")
        return (signed, verifier, try #require(result.content), try #require(result.signers.first))
    }

    /// The property every mutation must keep.
    static func expectSafe(
        _ mutated: Data, _ f: (signed: Data, verifier: Verifier, content: Data, signer: CertificateInfo), _ what: String
    ) {
        let result = f.verifier.verify(mutated)
        if result.isValid {
            #expect(result.content == f.content, "\(what): valid with different content")
            #expect(result.signers.first == f.signer, "\(what): valid with a different signer")
        } else {
            #expect(result.content == nil, "\(what): content returned for an invalid file")
        }
    }

    @Test("every single-byte change (every position, three values) fails or changes nothing verified")
    func everyByteFlip() throws {
        let f = try Self.fixture()
        var validAfterChange = 0
        for position in 0..<f.signed.count {
            for value in [UInt8(0x00), 0xFF, f.signed[position] ^ 0x01] where value != f.signed[position] {
                var mutated = f.signed
                mutated[position] = value
                let result = f.verifier.verify(mutated)
                if result.isValid {
                    validAfterChange += 1
                    #expect(result.content == f.content, "byte \(position) = \(value): valid with different content")
                    #expect(
                        result.signers.first == f.signer, "byte \(position) = \(value): valid with a different signer")
                } else {
                    #expect(result.content == nil)
                }
            }
        }
        // Some bytes do not matter (e.g. inside the unsigned certificate of the intermediate's
        // extensions is still signed, but BER length forms and unused bits may be lenient):
        // whatever they are, they never changed the verified content or signer (checked above).
        #expect(
            validAfterChange < f.signed.count / 4, "suspiciously many changes left the file valid: \(validAfterChange)")
    }

    @Test("every truncation fails")
    func everyTruncation() throws {
        let f = try Self.fixture()
        for length in 0..<f.signed.count {
            let result = f.verifier.verify(f.signed.prefix(length))
            #expect(!result.isValid, "truncated to \(length) bytes is valid")
            #expect(result.content == nil)
        }
    }

    @Test("a signer certificate swapped for another with the same issuer and serial is not valid")
    func swappedSignerCertificate() throws {
        let f = try Self.fixture()
        let original = try PKI.certificate("leaf-rsa.pem").derRepresentation
        let twin = try PKI.certificate("leaf-rsa-twin.pem").derRepresentation
        try #require(original.count == twin.count, "the twin must have the same length to splice")
        let range = try #require(f.signed.firstRange(of: original))
        var swapped = f.signed
        swapped.replaceSubrange(range, with: twin)
        let result = f.verifier.verify(swapped)
        #expect(result.verdict.code == "tampered", "\(result.verdict)")
        #expect(result.content == nil)
    }

    @Test("an extra SignerInfo with a bad signature makes the file invalid")
    func extraBadSigner() throws {
        try withScratchDirectory { scratch in
            // Two signers (openssl cms), then break the second signature's last byte.
            let input = try scratch.write(Self.content, to: "in.json")
            try OpenSSL.succeed(
                [
                    "cms", "-sign", "-nodetach", "-noattr", "-outform", "DER", "-in", input, "-out",
                    scratch.file("two.p7m").path,
                    "-signer", Paths.cert("leaf-rsa.pem"), "-inkey", Paths.cert("leaf-rsa.key"),
                    "-signer", Paths.cert("leaf-ec.pem"), "-inkey", Paths.cert("leaf-ec.key"), "-certfile",
                    Paths.cert("chain.pem"),
                ],
                in: scratch)
            let two = try scratch.read("two.p7m")
            let verifier = try PKI.verifier()
            let good = verifier.verify(two)
            #expect(good.isValid, "\(good.verdict)")
            #expect(good.signerInfos.count == 2)
            // The ECDSA signature is the last OCTET STRING of the file: flip a byte inside it.
            var broken = two
            broken[broken.count - 3] ^= 0x01
            let result = verifier.verify(broken)
            #expect(!result.isValid, "one bad signer among two must fail")
            #expect(result.content == nil)
        }
    }

    @Test("a certificate chain that loops is untrusted, quickly")
    func loopingChain() throws {
        try withScratchDirectory { scratch in
            // CA "A" issued by "B" and "B" issued by "A": the chain builder must stop.
            func run(_ arguments: [String]) throws { try OpenSSL.succeed(arguments, in: scratch) }
            for name in ["a", "b", "leaf"] {
                try run([
                    "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out",
                    scratch.file("\(name).key").path,
                ])
            }
            let ext = try scratch.write(
                Data("basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n".utf8), to: "ca.ext")
            let leafExt = try scratch.write(
                Data("basicConstraints=CA:FALSE\nsubjectAltName=DNS:example.com\nextendedKeyUsage=serverAuth\n".utf8),
                to: "leaf.ext")
            for (subject, key) in [("a", "a"), ("b", "b"), ("leaf", "leaf")] {
                try run([
                    "req", "-new", "-key", scratch.file("\(key).key").path, "-subj",
                    "/CN=\(subject == "leaf" ? "example.com" : "Loop CA \(subject)")", "-out",
                    scratch.file("\(subject).csr").path,
                ])
            }
            // A signed by B's key, B signed by A's key, leaf signed by A's key.
            func issue(_ subject: String, by issuer: String, ext: String) throws {
                try run([
                    "x509", "-req", "-in", scratch.file("\(subject).csr").path, "-CA",
                    scratch.file("\(issuer)-self.pem").path,
                    "-CAkey", scratch.file("\(issuer).key").path, "-set_serial", "\(Int.random(in: 1000...9999))",
                    "-days", "3650",
                    "-extfile", ext, "-out", scratch.file("\(subject).pem").path,
                ])
            }
            for name in ["a", "b"] {  // temporary self-signed certificates give x509 -req its issuer names
                try run([
                    "req", "-x509", "-key", scratch.file("\(name).key").path, "-subj", "/CN=Loop CA \(name)", "-days",
                    "3650", "-out", scratch.file("\(name)-self.pem").path,
                ])
            }
            try issue("a", by: "b", ext: ext)
            try issue("b", by: "a", ext: ext)
            try issue("leaf", by: "a", ext: leafExt)
            let chain = try scratch.read("a.pem") + scratch.read("b.pem")
            let chainPath = try scratch.write(chain, to: "loop-chain.pem")
            let input = try scratch.write(Self.content, to: "in.json")
            try run([
                "smime", "-sign", "-nodetach", "-noattr", "-outform", "DER", "-in", input, "-signer",
                scratch.file("leaf.pem").path,
                "-inkey", scratch.file("leaf.key").path, "-certfile", chainPath, "-out", scratch.file("loop.p7m").path,
            ])
            let result = try PKI.verifier().verify(try scratch.read("loop.p7m"))
            #expect(result.verdict.code == "untrusted", "\(result.verdict)")
        }
    }

    @Test("more certificates than the limit is malformed, not slow")
    func enormousCertificateCount() throws {
        // A SignedData carrying 300 copies of the leaf: build it with openssl crl2pkcs7
        // (certificates only), which still parses as SignedData with no signer.
        try withScratchDirectory { scratch in
            let pem = try PKI.data("leaf-rsa.pem")
            let many = try scratch.write(
                Data(repeating: 0, count: 0) + Data((0..<300).flatMap { _ in pem }), to: "many.pem")
            try OpenSSL.succeed(
                ["crl2pkcs7", "-nocrl", "-certfile", many, "-outform", "DER", "-out", scratch.file("many.p7c").path],
                in: scratch)
            let data = try scratch.read("many.p7c")
            #expect(throws: AASAError.self) { try SignedData(data: data, encoding: .der) }
            let detection = FileKindDetector.detect(data)
            #expect(detection.kind == .unknown)
            #expect(
                detection.detail?.contains("more than the limit of 256") == true,
                "\(String(describing: detection.detail))")
            #expect(!(try PKI.verifier().verify(data).isValid))
            // With a higher limit it parses (and is certificates-only: not signed).
            let parsed = try SignedData(data: data, encoding: .der, maximumCertificates: 1000)
            #expect(parsed.certificates.count == 300)
        }
    }

    @Test("a content type other than data is refused even when the signature is good")
    func otherContentType() throws {
        try withScratchDirectory { scratch in
            let input = try scratch.write(Self.content, to: "in.json")
            try OpenSSL.succeed(
                [
                    "cms", "-sign", "-nodetach", "-noattr", "-econtent_type", "1.2.840.113549.1.9.16.1.4", "-outform",
                    "DER", "-in", input,
                    "-signer", Paths.cert("leaf-rsa.pem"), "-inkey", Paths.cert("leaf-rsa.key"), "-certfile",
                    Paths.cert("chain.pem"),
                    "-out", scratch.file("tst.p7m").path,
                ],
                in: scratch)
            let result = try PKI.verifier().verify(try scratch.read("tst.p7m"))
            #expect(!result.isValid)
            #expect(result.content == nil)
        }
    }

    @Test("a detached signature with no content is malformed")
    func detachedWithoutContent() throws {
        try withScratchDirectory { scratch in
            let input = try scratch.write(Self.content, to: "in.json")
            try OpenSSL.succeed(
                [
                    "smime", "-sign", "-noattr", "-outform", "DER", "-in", input, "-signer", Paths.cert("leaf-rsa.pem"),
                    "-inkey", Paths.cert("leaf-rsa.key"), "-out", scratch.file("detached.p7s").path,
                ],
                in: scratch)
            let result = try PKI.verifier().verify(try scratch.read("detached.p7s"))
            #expect(result.verdict.code == "malformed", "\(result.verdict)")
            #expect(result.content == nil)
        }
    }
}
