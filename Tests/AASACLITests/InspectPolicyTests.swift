// `aasa inspect` shows the verification policy's findings (issue #12) on each SignerInfo and
// certificate it prints: a `warning:` line for SHA-1 and RSA/DSA keys under 2048 bits, a
// `refused:` line for MD5 and keys under 1024 bits, and `policy` in --format json.
import Foundation
import Testing

/// One policy fixture and the one finding inspect must show for it.
struct InspectPolicyCase: Sendable, CustomTestStringConvertible {
    enum Place: Sendable {
        case signer(Int)
        case certificate(Int)
    }

    var file: String
    var place: Place
    var refused: Bool
    var subject: String
    var algorithm: String
    var bits: Int?
    var message: String
    var testDescription: String { "\(file) → \(refused ? "refused" : "warning") \(subject) \(algorithm)" }

    static let all: [InspectPolicyCase] = [
        InspectPolicyCase(
            file: "sha1-digest.p7m", place: .signer(0), refused: false, subject: "digest", algorithm: "SHA1", bits: nil,
            message: "SignerInfo 1 uses the digest SHA1, which is deprecated (collisions are practical)"),
        InspectPolicyCase(
            file: "sha1-cert.p7m", place: .certificate(0), refused: false, subject: "certificate-signature",
            algorithm: "SHA1", bits: nil,
            message: "certificate [0] of the file is signed with SHA1, which is deprecated (collisions are practical)"),
        InspectPolicyCase(
            file: "rsa1024.p7m", place: .certificate(0), refused: false, subject: "key-size", algorithm: "RSA",
            bits: 1024,
            message: "certificate [0] of the file has a 1024-bit RSA key, below the recommended 2048 bits"),
        InspectPolicyCase(
            file: "rsa2047.p7m", place: .certificate(0), refused: false, subject: "key-size", algorithm: "RSA",
            bits: 2047,
            message: "certificate [0] of the file has a 2047-bit RSA key, below the recommended 2048 bits"),
        InspectPolicyCase(
            file: "md5-digest.p7m", place: .signer(0), refused: true, subject: "digest", algorithm: "MD5", bits: nil,
            message: "SignerInfo 1 uses the digest MD5, which the verification policy forbids"),
        InspectPolicyCase(
            file: "md5-cert.p7m", place: .certificate(0), refused: true, subject: "certificate-signature",
            algorithm: "MD5", bits: nil,
            message: "certificate [0] of the file is signed with MD5, which the verification policy forbids"),
        InspectPolicyCase(
            file: "rsa512.p7m", place: .certificate(0), refused: true, subject: "key-size", algorithm: "RSA", bits: 512,
            message: "certificate [0] of the file has a 512-bit RSA key, below the minimum of 1024 bits"),
        InspectPolicyCase(
            file: "rsa1023.p7m", place: .certificate(0), refused: true, subject: "key-size", algorithm: "RSA",
            bits: 1023,
            message: "certificate [0] of the file has a 1023-bit RSA key, below the minimum of 1024 bits"),
    ]
}

/// The text lines of the block `header` opens ("  signer 0:", "    [1]"), up to the next header.
private func block(_ text: String, _ header: String) -> [String]? {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(of: header) else { return nil }
    let isHeader = { (line: String) in
        line.hasPrefix("  signer ") || line.hasPrefix("  certificates (") || line.hasPrefix("  content:")
            || (line.hasPrefix("    [") && line.hasSuffix("]"))
    }
    let end = lines[(start + 1)...].firstIndex(where: isHeader) ?? lines.endIndex
    return Array(lines[(start + 1)..<end])
}

/// The `warning:`/`refused:` lines of a text report.
private func policyLines(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init).filter {
        let trimmed = $0.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("warning:") || trimmed.hasPrefix("refused:")
    }
}

/// Every `policy` array of an inspect JSON report: the SignerInfos', then the certificates'.
private func policies(_ report: [String: Any]) throws -> (signers: [[[String: Any]]], certificates: [[[String: Any]]]) {
    let signers = try #require(report["signerInfos"] as? [[String: Any]])
    let certificates = try #require(report["certificates"] as? [[String: Any]])
    return (
        try signers.map { try #require($0["policy"] as? [[String: Any]], "signerInfo without policy: \($0)") },
        try certificates.map { try #require($0["policy"] as? [[String: Any]], "certificate without policy: \($0)") }
    )
}

@Suite("aasa inspect shows the verification policy (issue #12)")
struct InspectPolicyTests {
    @Test(
        "text: one warning:/refused: line in the block of the SignerInfo or certificate",
        arguments: InspectPolicyCase.all)
    func text(_ fixture: InspectPolicyCase) throws {
        let result = CLI.run(["inspect", PolicyFiles.file(fixture.file)])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let label = fixture.refused ? "refused:" : "warning:"
        let line: String
        let lines: [String]
        switch fixture.place {
        case .signer(let index):
            // Aligned with "signed attributes: " (19 columns).
            line = "    " + label.padding(toLength: 19, withPad: " ", startingAt: 0) + fixture.message
            lines = try #require(block(result.stdoutText, "  signer \(index):"), "\(result)")
        case .certificate(let index):
            // Aligned with "subject:  " (10 columns).
            line = "      " + label.padding(toLength: 10, withPad: " ", startingAt: 0) + fixture.message
            lines = try #require(block(result.stdoutText, "    [\(index)]"), "\(result)")
        }
        #expect(lines.contains(line), "\(result)")
        #expect(policyLines(result.stdoutText) == [line], "\(result)")
    }

    @Test(
        "--format json: the finding in the policy array of its SignerInfo or certificate",
        arguments: InspectPolicyCase.all)
    func json(_ fixture: InspectPolicyCase) throws {
        let result = CLI.run(["inspect", "--format", "json", PolicyFiles.file(fixture.file)])
        #expect(result.status == 0, "\(result)")
        let all = try policies(try result.jsonObject())
        var found: [[String: Any]] = []
        switch fixture.place {
        case .signer(let index):
            found = all.signers[index]
            #expect(all.certificates.allSatisfy { $0.isEmpty }, "\(result)")
            #expect(all.signers.enumerated().allSatisfy { $0.offset == index || $0.element.isEmpty })
        case .certificate(let index):
            found = all.certificates[index]
            #expect(all.signers.allSatisfy { $0.isEmpty }, "\(result)")
            #expect(all.certificates.enumerated().allSatisfy { $0.offset == index || $0.element.isEmpty })
        }
        #expect(found.count == 1, "\(result)")
        let finding = try #require(found.first)
        #expect(Set(finding.keys) == ["subject", "algorithm", "bits", "refused", "message"], "\(finding)")
        #expect(finding["subject"] as? String == fixture.subject)
        #expect(finding["algorithm"] as? String == fixture.algorithm)
        if let bits = fixture.bits {
            #expect(finding["bits"] as? Int == bits, "\(finding)")
        } else {
            #expect(finding["bits"] is NSNull, "\(finding)")  // explicit null
        }
        #expect(finding["refused"] as? Bool == fixture.refused)
        #expect(finding["message"] as? String == fixture.message)
    }

    @Test("verify names the same problems: inspect's refusal is verify's reason, its warning verify's warning")
    func sameAsVerify() throws {
        for fixture in InspectPolicyCase.all
        where fixture.subject != "certificate-signature" && fixture.subject != "key-size" {
            let verify = CLI.run(["verify", PolicyFiles.file(fixture.file)] + PolicyFiles.trust)
            let label = fixture.refused ? "  reason:     " : "  warning:    "
            #expect(verify.stdoutText.contains(label + fixture.message), "\(verify)")
        }
        // Certificates are named by chain depth in verify and by file index in inspect.
        let verify = CLI.run(["verify", PolicyFiles.file("rsa2047.p7m")] + PolicyFiles.trust)
        #expect(
            verify.stdoutText.contains(
                "  warning:    the signer certificate has a 2047-bit RSA key, below the recommended 2048 bits"))
    }

    @Test("a file within the policy: no warning or refused line, every policy array empty")
    func cleanFile() throws {
        for name in ["valid.p7m", "attrs-good.p7m", "valid.smime"] {
            let text = CLI.run(["inspect", PolicyFiles.file(name)])
            #expect(text.status == 0, "\(text)")
            #expect(policyLines(text.stdoutText).isEmpty, "\(text)")
            let json = CLI.run(["inspect", "--format", "json", PolicyFiles.file(name)])
            let all = try policies(try json.jsonObject())
            #expect(!all.signers.isEmpty && !all.certificates.isEmpty)
            #expect((all.signers + all.certificates).allSatisfy { $0.isEmpty }, "\(json)")
        }
    }

    static let artsy = "artsy_artsy-eigen-web-association_aasa-20150915-a.p7m"
    static let artsyWarning = "SignerInfo 1 uses the digest SHA1, which is deprecated (collisions are practical)"

    @Test("corpus artsy file (SHA-1, 2015): the SHA-1 warning on its own line in the signer block")
    func artsyText() throws {
        let path = CLI.realSigned(Self.artsy)
        let result = CLI.run(["inspect", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let signer = try #require(block(result.stdoutText, "  signer 0:"), "\(result)")
        #expect(
            signer == [
                "    digest:            SHA1",
                "    signature:         rsaEncryption",
                "    signed attributes: none",
                "    certificate:       issuer C=US, O=GeoTrust Inc., CN=GeoTrust SSL CA - G3, serial 0424C5F9F437E09045DD26EC2D628DD2",
                "    warning:           \(Self.artsyWarning)",
            ], "\(result)")
        // Both certificates are signed with SHA-256 and have 2048-bit keys: nothing else.
        #expect(policyLines(result.stdoutText) == ["    warning:           \(Self.artsyWarning)"], "\(result)")
        // verify, whatever its verdict (GeoTrust is not trusted here), gives the same sentence.
        let verify = CLI.run([
            "verify", path, "--ca-file", CLI.cert("ca-bundle.pem"), "--no-system-roots", "--at", "2015-10-01",
        ])
        #expect(verify.stdoutText.contains("  warning:    \(Self.artsyWarning)"), "\(verify)")
    }

    @Test("corpus artsy file, --format json: the SHA-1 finding in signerInfos[0].policy")
    func artsyJSON() throws {
        let result = CLI.run(["inspect", "--format", "json", CLI.realSigned(Self.artsy)])
        #expect(result.status == 0, "\(result)")
        let all = try policies(try result.jsonObject())
        #expect(all.signers.count == 1 && all.certificates.count == 2)
        let finding = try #require(all.signers.first?.first)
        #expect(all.signers[0].count == 1)
        #expect(finding["subject"] as? String == "digest")
        #expect(finding["algorithm"] as? String == "SHA1")
        #expect(finding["refused"] as? Bool == false)
        #expect(finding["bits"] is NSNull)
        #expect(finding["message"] as? String == Self.artsyWarning)
        #expect(all.certificates.allSatisfy { $0.isEmpty })
    }
}
