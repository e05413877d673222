// The quick signature check (quickverify.c) against PKCS7_verify alone: on every signed fixture
// and on corrupted copies, the two give the same result; the quick check verifies the shape it
// is for and leaves every other shape to PKCS7_verify.
import Foundation
import Testing

@testable import AASA

@Suite("Quick signature check")
struct QuickSignatureCheckTests {
    /// The result with the quick check, the result without it, and whether the quick check
    /// verified the signature. Synchronous, so that both run on one thread (the switch and the
    /// counter are per thread).
    static func bothWays(_ verifier: Verifier, _ data: Data) -> (
        quick: VerificationResult, plain: VerificationResult, usedQuick: Bool
    ) {
        let before = QuickSignatureCheck.verifiedOnThisThread
        let quick = verifier.verify(data)
        let usedQuick = QuickSignatureCheck.verifiedOnThisThread > before
        let plainBefore = QuickSignatureCheck.verifiedOnThisThread
        let plain = QuickSignatureCheck.disabled { verifier.verify(data) }
        #expect(QuickSignatureCheck.verifiedOnThisThread == plainBefore, "the quick check ran while disabled")
        return (quick, plain, usedQuick)
    }

    static func expectSame(_ quick: VerificationResult, _ plain: VerificationResult, _ what: String) {
        #expect(
            quick.verdict == plain.verdict, "\(what): \(quick.verdict) with the quick check, \(plain.verdict) without")
        #expect(quick.content == plain.content, "\(what): different content")
        #expect(quick.signers == plain.signers, "\(what): different signers")
        #expect(quick.chain == plain.chain, "\(what): different chains")
        #expect(quick.warnings == plain.warnings, "\(what): different warnings")
    }

    static let content = Data(
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "paths": ["/a/*"]}]}}"#.utf8)

    @Test(
        "the -noattr shape with RSA, P-256 and P-384 signers is verified by the quick check, as PKCS7_verify verifies it"
    )
    func signedShapes() throws {
        let verifier = try PKI.verifier()
        for leaf in ["leaf-rsa", "leaf-ec", "leaf-ec384"] {
            let signed = try PKI.identity(leaf).sign(Self.content)
            let (quick, plain, usedQuick) = Self.bothWays(verifier, signed)
            #expect(quick.isValid, "\(leaf): \(quick.verdict)")
            #expect(usedQuick, "\(leaf): the quick check did not verify it")
            Self.expectSame(quick, plain, leaf)
        }
        // With signed attributes (and with two digests listed, or SHA-512/224), PKCS7_verify alone.
        let withAttributes = try PKI.identity("leaf-rsa").sign(
            Self.content, options: SigningOptions(signedAttributes: true))
        let (quick, plain, usedQuick) = Self.bothWays(verifier, withAttributes)
        #expect(quick.isValid && !usedQuick, "\(quick.verdict)")
        Self.expectSame(quick, plain, "signed attributes")
    }

    @Test("every committed signed fixture gives the same result both ways")
    func everyFixture() throws {
        let folders = ["Tests/Fixtures/policy/files", "Tests/Fixtures/corpus/real-signed"]
        var files: [URL] = []
        for folder in folders {
            let url = Paths.repositoryRoot.appendingPathComponent(folder, isDirectory: true)
            files += try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
                .filter { ["p7m", "der", "pem", "smime"].contains($0.pathExtension) }
        }
        #expect(files.count >= 50, "the fixture folders hold \(files.count) signed files")
        let verifiers = [
            try PolicyFixtures.verifier(), try PolicyFixtures.verifier(allowWeak: true), try PKI.verifier(),
        ]
        var quickCount = 0
        var shapes: Set<String> = []
        for file in files {
            let data = try Data(contentsOf: file)
            for verifier in verifiers {
                let (quick, plain, usedQuick) = Self.bothWays(verifier, data)
                Self.expectSame(quick, plain, file.lastPathComponent)
                if usedQuick {
                    quickCount += 1
                    shapes.insert(file.lastPathComponent)
                }
                // Signed attributes are PKCS7_verify's to check (the messageDigest among them).
                if plain.signerInfos.contains(where: \.hasSignedAttributes) {
                    #expect(!usedQuick, "\(file.lastPathComponent)")
                }
            }
        }
        // The quick check verified the -noattr fixtures (valid.p7m, the key sizes, sha1-digest, …)
        // and the real 2015 files; it was not merely never used.
        #expect(shapes.contains("valid.p7m"))
        #expect(shapes.contains("sha1-digest.p7m"))
        #expect(shapes.contains("artsy_artsy-eigen-web-association_aasa-20150915-a.p7m"))
        #expect(quickCount >= 20, "the quick check verified \(quickCount) fixture runs")
    }

    @Test(
        "every single-bit change of a signed file gives the same verdict both ways, and none valid with other content")
    func everyBitFlipAgrees() throws {
        for leaf in ["leaf-rsa", "leaf-ec"] {
            let signed = try PKI.identity(leaf).sign(Self.content)
            let verifier = try PKI.verifier()
            let original = verifier.verify(signed)
            try #require(original.isValid)
            var quickValidOnChange = 0
            for position in 0..<signed.count {
                var mutated = signed
                mutated[position] ^= 0x01
                let (quick, plain, usedQuick) = Self.bothWays(verifier, mutated)
                Self.expectSame(quick, plain, "\(leaf) byte \(position)")
                // A change in a certificate can leave the signature good (the chain then fails);
                // a file the quick check verified and that is valid is the original's content.
                if usedQuick && quick.isValid {
                    quickValidOnChange += 1
                    #expect(quick.content == original.content && quick.signers == original.signers)
                }
            }
            // A bit in the content or the signature: never verified by either path.
            let contentRange = try #require(signed.firstRange(of: Self.content))
            for position in [contentRange.lowerBound, contentRange.upperBound - 1, signed.count - 1] {
                var mutated = signed
                mutated[position] ^= 0x01
                let (quick, _, usedQuick) = Self.bothWays(verifier, mutated)
                #expect(!quick.isValid && !usedQuick, "\(leaf) byte \(position) (content or signature)")
            }
            #expect(quickValidOnChange < signed.count / 10, "\(leaf): \(quickValidOnChange) changed files still valid")
        }
    }
}
