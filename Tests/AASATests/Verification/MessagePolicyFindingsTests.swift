import AASA
// SignedData.policyFindings: the verification policy on a message read as it is (no trust
// store), as `aasa inspect` shows it. It must find what the Verifier finds on the same file.
import Foundation
import Testing

@Suite("SignedData.policyFindings: the policy without a trust store (issue #12)")
struct MessagePolicyFindingsTests {
    /// What a finding says, without the way it names the certificate (file index or chain depth).
    struct Essence: Hashable {
        var subject: PolicyFinding.Subject
        var algorithm: String
        var bits: Int?
        var weak: Bool
        var depth: Int

        init(_ finding: PolicyFinding) {
            subject = finding.subject
            algorithm = finding.algorithm
            bits = finding.bits
            weak = finding.weak
            depth = finding.depth
        }
    }

    @Test(
        "the same findings as the Verifier (with allowWeakCrypto, so that it reports every one)",
        arguments: [
            "sha1-digest.p7m", "sha1-cert.p7m", "rsa1024.p7m", "rsa2047.p7m", "rsa512.p7m", "rsa1023.p7m",
            "md5-digest.p7m",
            "md5-cert.p7m", "valid.p7m", "multipart-rsa512.smime",
        ])
    func sameAsVerifier(file: String) throws {
        let data = try PolicyFixtures.data(file)
        let verified = try PolicyFixtures.verifier(allowWeak: true).verify(data)
        verified.expect("valid")
        // Each fixture's signer is the only certificate in the file and sits at chain depth 0.
        let message = try SignedData(data: data)
        #expect(message.certificates.count == 1)
        let weak = message.policyFindings(allowWeakCrypto: true)
        #expect(weak.all.map(Essence.init) == verified.warnings.map(Essence.init))
        #expect(weak.all.allSatisfy { !$0.refused })

        // Without allowWeakCrypto: the same findings, refused exactly when weak.
        let strict = message.policyFindings()
        #expect(strict.all.map(Essence.init) == weak.all.map(Essence.init))
        #expect(strict.all.allSatisfy { $0.refused == $0.weak })
        #expect(strict.signerInfos.count == message.signerInfos.count)
        #expect(strict.certificates.count == message.certificates.count)
        #expect(
            strict.signerInfos.joined().allSatisfy {
                [.digest, .signatureDigest].contains($0.subject) && $0.fileIndex == nil
            })
        #expect(
            strict.certificates.joined().allSatisfy {
                [.keySize, .certificateSignature].contains($0.subject) && $0.fileIndex == 0
            })
    }

    @Test("certificates are named by their place in the file, SignerInfos by their number")
    func messages() throws {
        let sha1 = try SignedData(data: PolicyFixtures.data("sha1-cert.p7m")).policyFindings()
        #expect(
            sha1.certificates.joined().map(\.message) == [
                "certificate [0] of the file is signed with SHA1, which is deprecated (collisions are practical)"
            ])
        let md5 = try SignedData(data: PolicyFixtures.data("md5-digest.p7m")).policyFindings()
        #expect(
            md5.signerInfos.joined().map(\.message) == [
                "SignerInfo 1 uses the digest MD5, which the verification policy forbids"
            ])
        #expect(md5.certificates.joined().isEmpty)
    }

    @Test("the corpus artsy file of 2015: SHA-1 in its SignerInfo, nothing on its SHA-256 certificates")
    func artsy() throws {
        let artsy = try SignedData(
            data: Data(
                contentsOf: Paths.realSigned.appendingPathComponent(
                    "artsy_artsy-eigen-web-association_aasa-20150915-a.p7m")))
        let findings = artsy.policyFindings()
        #expect(findings.signerInfos.map { $0.map(\.algorithm) } == [["SHA1"]])
        #expect(findings.certificates.allSatisfy { $0.isEmpty })
    }
}
