import AASA
// Every VerificationVerdict, reached on purpose, with its reason checked. Trust is the test
// root only (no system roots), and the time is fixed wherever validity matters.
import Foundation
import Testing

@Suite("Verifier verdicts")
struct VerifierVerdictTests {
    static let content = Data("{\n  \"applinks\": {\n    \"apps\": [],\n    \"details\": []\n  }\n}\n".utf8)

    /// Signs `content` (binary) with `<leaf>.key`/`.pem` through the library.
    func signed(by leaf: String, withChain: Bool = true, binary: Bool = true) throws -> Data {
        try PKI.identity(leaf, withChain: withChain).sign(Self.content, options: SigningOptions(binary: binary))
    }

    func verifier(_ options: VerificationOptions = VerificationOptions(time: Times.y2025)) throws -> Verifier {
        try PKI.verifier(options)
    }

    // MARK: valid

    @Test("a file signed by leaf-rsa with its chain is valid, with content, signers and chain")
    func validFile() throws {
        let result = try verifier().verify(signed(by: "leaf-rsa"))
        result.expect("valid")
        #expect(result.isValid)
        #expect(result.content == Self.content)
        #expect(result.kind == .pkcs7DER)
        #expect(result.checkedAt == Times.y2025)
        #expect(result.signerInfos.count == 1)
        #expect(result.signers.map(\.subject) == ["CN=example.com"])
        #expect(result.chain.map(\.serialNumber) == ["3001", "2000", "1000"])
        #expect(result.chain.last?.isSelfSigned == true)
    }

    @Test("text-mode content is returned exactly as embedded (CRLF), not converted back")
    func validTextModeReturnsEmbeddedBytes() throws {
        let result = try verifier().verify(signed(by: "leaf-rsa", binary: false))
        result.expect("valid")
        #expect(result.content == lfToCRLF(Self.content))
        #expect(result.content != Self.content)
    }

    @Test("the SignedData overload gives the same verdict")
    func verifyParsedMessage() throws {
        let message = try SignedData(data: signed(by: "leaf-rsa"))
        let result = try verifier().verify(message)
        result.expect("valid")
        #expect(result.kind == .pkcs7DER)
        #expect(result.content == Self.content)
    }

    @Test("a trailing newline after the DER is tolerated")
    func trailingWhitespaceIsTolerated() throws {
        var data = try signed(by: "leaf-rsa")
        data.append(contentsOf: [0x0A])
        try verifier().verify(data).expect("valid")
    }

    @Test("no time given means now: a long-validity leaf is valid")
    func defaultTimeIsNow() throws {
        let before = Date()
        let result = try verifier(VerificationOptions()).verify(signed(by: "leaf-rsa"))
        result.expect("valid")
        #expect(result.checkedAt >= before)
        #expect(result.checkedAt <= Date())
    }

    // MARK: notSigned

    @Test("plain JSON is notSigned")
    func plainJSONIsNotSigned() throws {
        let result = try verifier().verify(Self.content)
        result.expect("not-signed", reasonContains: "plain JSON")
        #expect(result.kind == .json)
        #expect(result.signerInfos.isEmpty)
    }

    @Test("a certificates-only PKCS#7 (crl2pkcs7) is notSigned")
    func certificatesOnlyIsNotSigned() throws {
        try withScratchDirectory { scratch in
            for outform in ["DER", "PEM"] {
                let output = scratch.file("certs.\(outform)").path
                try OpenSSL.succeed(
                    [
                        "crl2pkcs7", "-nocrl", "-certfile", Paths.cert("leaf-rsa.pem"), "-certfile",
                        Paths.cert("chain.pem"),
                        "-outform", outform, "-out", output,
                    ], in: scratch)
                let result = try verifier().verify(Data(contentsOf: URL(fileURLWithPath: output)))
                result.expect("not-signed", reasonContains: "no signer")
            }
        }
    }

    /// A CLI call that makes PKCS#7 other than SignedData: options, then -in/-out, then recipients.
    struct OtherPKCS7Command: Sendable, CustomTestStringConvertible {
        var options: [String]
        var recipients: [String] = []
        var testDescription: String {
            (options + recipients.map { ($0 as NSString).lastPathComponent }).joined(separator: " ")
        }
    }

    @Test(
        "PKCS#7 that is not SignedData is notSigned",
        arguments: [
            OtherPKCS7Command(
                options: ["cms", "-encrypt", "-aes256", "-outform", "DER"], recipients: [Paths.cert("leaf-rsa.pem")]),
            OtherPKCS7Command(options: ["cms", "-data_create", "-outform", "DER"]),
            OtherPKCS7Command(options: ["cms", "-digest_create", "-outform", "DER"]),
            OtherPKCS7Command(
                options: ["smime", "-encrypt", "-aes256", "-outform", "DER"], recipients: [Paths.cert("leaf-rsa.pem")]),
            OtherPKCS7Command(
                options: ["smime", "-encrypt", "-aes256", "-outform", "PEM"], recipients: [Paths.cert("leaf-rsa.pem")]),
            OtherPKCS7Command(options: ["smime", "-encrypt", "-aes256"], recipients: [Paths.cert("leaf-rsa.pem")]),
        ])
    func otherPKCS7IsNotSigned(command: OtherPKCS7Command) throws {
        try withScratchDirectory { scratch in
            let input = try scratch.write(Self.content, to: "in.json")
            let output = scratch.file("out").path
            try OpenSSL.succeed(command.options + ["-in", input, "-out", output] + command.recipients, in: scratch)
            let data = try scratch.read("out")
            let detection = FileKindDetector.detect(data)
            #expect(detection.kind == .pkcs7Other, "\(detection.detail ?? "")")
            #expect(detection.kind.isSigned == false)
            let result = try verifier().verify(data)
            result.expect("not-signed", reasonContains: "not SignedData")
            #expect(result.kind == .pkcs7Other)
        }
    }

    @Test("random bytes are notSigned, never valid")
    func randomBytesAreNotSigned() throws {
        var generator = SplitMix64(seed: 7)
        for length in [1, 5, 64, 1000] {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let result = try verifier().verify(bytes)
            #expect(["not-signed", "malformed"].contains(result.verdict.code))
            #expect(result.content == nil)
        }
    }

    // MARK: malformed

    @Test("truncated DER is malformed at every offset")
    func truncatedDERIsMalformed() throws {
        let data = try signed(by: "leaf-rsa")
        let verifier = try verifier()
        // From 16 bytes on, the prefix announces PKCS#7 (SEQUENCE + the 1.2.840.113549.1.7 OID).
        var offsets = Array(stride(from: 16, to: data.count, by: 37))
        offsets += [data.count - 1, data.count - 2, data.count - 256, data.count / 2]
        for offset in offsets {
            let result = verifier.verify(data.prefix(offset))
            result.expect("malformed")
            #expect(result.kind == .unknown, "offset \(offset)")
        }
    }

    @Test("truncated DER shorter than the PKCS#7 header is never valid")
    func veryShortTruncationIsNotValid() throws {
        let data = try signed(by: "leaf-rsa")
        let verifier = try verifier()
        for offset in 1..<16 {
            let result = verifier.verify(data.prefix(offset))
            #expect(!result.isValid)
            #expect(result.content == nil)
        }
    }

    @Test("bytes after the DER structure make it malformed", arguments: ["garbage", "\u{0}X", "{}", "0"])
    func trailingGarbageIsMalformed(suffix: String) throws {
        var data = try signed(by: "leaf-rsa")
        data.append(Data(suffix.utf8))
        let result = try verifier().verify(data)
        result.expect("malformed", reasonContains: "after")
    }

    @Test("a second signed file appended makes it malformed")
    func concatenatedSignaturesAreMalformed() throws {
        let one = try signed(by: "leaf-rsa")
        try verifier().verify(one + one).expect("malformed")
    }

    // Without -outform, `openssl smime -sign` writes multipart/signed, whose first MIME part is
    // the content: that one verifies (issue #12; PolicyFixtureTests).
    @Test(
        "a detached signature (openssl smime -sign without -nodetach) is malformed",
        arguments: ["DER", "PEM"] as [String?])
    func detachedSignatureIsMalformed(outform: String?) throws {
        try withScratchDirectory { scratch in
            var request = OpenSSL.SignRequest(certfile: Paths.cert("chain.pem"))
            request.nodetach = false
            request.outform = outform
            let detached = try OpenSSL.sign(Self.content, request, in: scratch)
            let result = try verifier().verify(detached)
            result.expect("malformed", reasonContains: "detached")
        }
    }

    @Test("SignedData whose content type is not data is malformed")
    func nonDataContentTypeIsMalformed() throws {
        try withScratchDirectory { scratch in
            let input = try scratch.write(Self.content, to: "in.json")
            let output = scratch.file("out.der").path
            try OpenSSL.succeed(
                [
                    "cms", "-sign", "-nodetach", "-binary", "-in", input, "-inkey", Paths.cert("leaf-rsa.key"),
                    "-signer",
                    Paths.cert("leaf-rsa.pem"), "-certfile", Paths.cert("chain.pem"), "-econtent_type", "1.2.3.4.5",
                    "-outform", "DER", "-out", output,
                ], in: scratch)
            try verifier().verify(scratch.read("out.der")).expect("malformed", reasonContains: "1.2.3.4.5")
        }
    }

    // MARK: tampered

    @Test("rejectsTamperedContent: a flipped content byte is tampered", arguments: [false, true])
    func rejectsTamperedContent(signedAttributes: Bool) throws {
        let data = try PKI.identity("leaf-rsa").sign(
            Self.content, options: SigningOptions(binary: true, signedAttributes: signedAttributes))
        let offset = try #require(data.offset(of: Self.content))
        let verifier = try verifier()
        for delta in [0, 5, Self.content.count / 2, Self.content.count - 1] {
            let result = verifier.verify(data.flippingByte(at: offset + delta))
            result.expect("tampered")
        }
    }

    /// With signed attributes the content is covered by the messageDigest attribute, so a
    /// changed content is a digest mismatch, not a broken signature.
    @Test("rejectsTamperedContent with signed attributes gives the digest reason")
    func tamperedContentWithAttributesNamesTheDigest() throws {
        let data = try PKI.identity("leaf-rsa").sign(
            Self.content, options: SigningOptions(binary: true, signedAttributes: true))
        let offset = try #require(data.offset(of: Self.content))
        let result = try verifier().verify(data.flippingByte(at: offset + 10))
        result.expect("tampered", reasonContains: "digest")
    }

    @Test("rejectsTamperedSignature: a flipped signature byte is tampered")
    func rejectsTamperedSignature() throws {
        let data = try signed(by: "leaf-rsa")
        let verifier = try verifier()
        // -noattr, no unsigned attributes: the RSA-2048 signature is the last 256 bytes.
        for fromEnd in [1, 2, 100, 255, 256] {
            let result = verifier.verify(data.flippingByte(at: data.count - fromEnd))
            result.expect("tampered", reasonContains: "signature")
        }
    }

    @Test("rejectsSwappedSignerCertificate: leaf-rsa-twin in place of leaf-rsa (spliced) is tampered")
    func rejectsSplicedTwinCertificate() throws {
        let leafSigned = try signed(by: "leaf-rsa")
        let twinSigned = try signed(by: "leaf-rsa-twin")
        #expect(leafSigned.count == twinSigned.count)
        // The files differ only in the signer certificate and the 256-byte signature at the end:
        // keep the twin's certificate but put leaf-rsa's signature in.
        let spliced = twinSigned.prefix(twinSigned.count - 256) + leafSigned.suffix(256)
        #expect(spliced != twinSigned && spliced != leafSigned)
        let message = try SignedData(data: spliced)
        #expect(
            message.certificates.last?.info.sha256Fingerprint
                == (try PKI.certificate("leaf-rsa-twin.pem").info.sha256Fingerprint))
        let result = try verifier().verify(spliced)
        result.expect("tampered")
        // Both originals are fine on their own.
        try verifier().verify(leafSigned).expect("valid")
        try verifier().verify(twinSigned).expect("valid")
    }

    @Test("rejectsSwappedSignerCertificate: leaf-rsa-twin supplied as an intermediate for a -nocerts file is tampered")
    func rejectsTwinSuppliedAsIntermediate() throws {
        try withScratchDirectory { scratch in
            var request = OpenSSL.SignRequest()
            request.nocerts = true
            request.binary = true
            let noCerts = try OpenSSL.sign(Self.content, request, in: scratch)
            var options = VerificationOptions(time: Times.y2025)
            options.intermediates = try PKI.certificates("leaf-rsa-twin.pem") + PKI.certificates("chain.pem")
            try verifier(options).verify(noCerts).expect("tampered")

            options.intermediates = try PKI.certificates("leaf-rsa.pem") + PKI.certificates("chain.pem")
            try verifier(options).verify(noCerts).expect("valid")
        }
    }

    @Test("a file's own certificate wins over a twin given as an intermediate")
    func embeddedSignerWinsOverIntermediates() throws {
        var options = VerificationOptions(time: Times.y2025)
        options.intermediates = try PKI.certificates("leaf-rsa-twin.pem")
        try verifier(options).verify(signed(by: "leaf-rsa")).expect("valid")
    }

    // MARK: signerNotFound

    @Test("rejectsMissingSigner: -nocerts without intermediates is signerNotFound")
    func signerNotFoundWithoutCertificates() throws {
        try withScratchDirectory { scratch in
            var request = OpenSSL.SignRequest()
            request.nocerts = true
            let noCerts = try OpenSSL.sign(Self.content, request, in: scratch)
            #expect(try SignedData(data: noCerts).certificates.isEmpty)
            let result = try verifier().verify(noCerts)
            result.expect("signer-not-found", reasonContains: "3001")

            // Intermediates that hold only the chain (not the signer) do not help.
            var options = VerificationOptions(time: Times.y2025)
            options.intermediates = try PKI.certificates("chain.pem")
            try verifier(options).verify(noCerts).expect("signer-not-found")

            // Another certificate with a different serial does not help either.
            options.intermediates = try PKI.certificates("leaf-ec.pem")
            try verifier(options).verify(noCerts).expect("signer-not-found")
        }
    }

    @Test("intermediates complete a -nocerts file: signer plus chain makes it valid")
    func intermediatesCompleteTheFile() throws {
        try withScratchDirectory { scratch in
            var request = OpenSSL.SignRequest()
            request.nocerts = true
            request.binary = true
            let noCerts = try OpenSSL.sign(Self.content, request, in: scratch)
            var options = VerificationOptions(time: Times.y2025)
            options.intermediates = try PKI.certificates("leaf-rsa.pem")
            try verifier(options).verify(noCerts).expect("untrusted")  // signer found, chain incomplete
            options.intermediates = try PKI.certificates("leaf-rsa.pem") + PKI.certificates("chain.pem")
            let result = try verifier(options).verify(noCerts)
            result.expect("valid")
            #expect(result.content == Self.content)
        }
    }

    @Test("intermediates complete a file that embeds only the signer")
    func intermediatesCompleteTheChain() throws {
        let data = try signed(by: "leaf-rsa", withChain: false)
        try verifier().verify(data).expect("untrusted")
        var options = VerificationOptions(time: Times.y2025)
        options.intermediates = try PKI.certificates("chain.pem")
        try verifier(options).verify(data).expect("valid")
    }

    // MARK: untrusted

    @Test("rejectsUntrustedRoot: leaf-untrusted chains to another root")
    func rejectsUntrustedRoot() throws {
        let result = try verifier().verify(signed(by: "leaf-untrusted", withChain: false))
        result.expect("untrusted")
        guard case .untrusted(_, let certificate, let depth) = result.verdict else {
            Issue.record("unexpected verdict \(result.verdict)")
            return
        }
        #expect(depth == 0)
        #expect(certificate?.serialNumber == "9001")
        #expect(result.signers.first?.serialNumber == "9001")
    }

    @Test("rejectsUntrustedRoot even when the untrusted root is embedded")
    func rejectsEmbeddedUntrustedRoot() throws {
        let identity = try SigningIdentity(
            key: PKI.key("leaf-untrusted.key"), certificate: PKI.certificate("leaf-untrusted.pem"),
            chain: PKI.certificates("untrusted-root-ca.pem"))
        let result = try verifier().verify(identity.sign(Self.content))
        result.expect("untrusted", reasonContains: "self-signed")
    }

    @Test("a chain missing the intermediate is untrusted without system roots")
    func rejectsMissingIntermediate() throws {
        let result = try verifier().verify(signed(by: "leaf-rsa", withChain: false))
        result.expect("untrusted", reasonContains: "issuer")
        guard case .untrusted(_, let certificate, let depth) = result.verdict else {
            Issue.record("unexpected verdict \(result.verdict)")
            return
        }
        #expect(depth == 0)
        #expect(certificate?.serialNumber == "3001")
    }

    @Test("a self-signed signer not in the trust store is untrusted")
    func rejectsSelfSignedSigner() throws {
        let result = try verifier().verify(signed(by: "self-signed", withChain: false))
        result.expect("untrusted", reasonContains: "self-signed")
        #expect(result.signers.first?.isSelfSigned == true)
    }

    @Test("a self-signed signer trusted explicitly is valid")
    func acceptsTrustedSelfSignedSigner() throws {
        let trust = try TrustStore(
            TrustConfiguration(useSystemRoots: false, anchorFiles: [Paths.cert("self-signed.pem")]))
        let result = Verifier(trust: trust, options: VerificationOptions(time: Times.y2025))
            .verify(try signed(by: "self-signed", withChain: false))
        result.expect("valid")
    }

    @Test("an empty trust store trusts nothing")
    func emptyTrustStoreTrustsNothing() throws {
        let trust = try TrustStore(TrustConfiguration(useSystemRoots: false))
        let result = Verifier(trust: trust, options: VerificationOptions(time: Times.y2025)).verify(
            try signed(by: "leaf-rsa"))
        result.expect("untrusted")
    }

    @Test("the test root is not a system root: with system roots only, leaf-rsa is untrusted")
    func systemRootsDoNotTrustTheTestPKI() throws {
        let trust = try TrustStore(TrustConfiguration(useSystemRoots: true))
        let result = Verifier(trust: trust, options: VerificationOptions(time: Times.y2025)).verify(
            try signed(by: "leaf-rsa"))
        result.expect("untrusted")
    }

    @Test("anchors given as certificates work like anchor files")
    func anchorsAsCertificates() throws {
        let trust = try TrustStore(TrustConfiguration(useSystemRoots: false, anchors: PKI.certificates("root-ca.pem")))
        Verifier(trust: trust, options: VerificationOptions(time: Times.y2025)).verify(try signed(by: "leaf-rsa"))
            .expect("valid")
    }

    @Test("an anchor directory (openssl rehash) works")
    func anchorDirectory() throws {
        try withScratchDirectory { scratch in
            let folder = scratch.file("anchors")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try PKI.data("root-ca.pem").write(to: folder.appendingPathComponent("root.pem"))
            try OpenSSL.succeed(["rehash", folder.path], in: scratch)
            let trust = try TrustStore(TrustConfiguration(useSystemRoots: false, anchorDirectories: [folder.path]))
            Verifier(trust: trust, options: VerificationOptions(time: Times.y2025)).verify(try signed(by: "leaf-rsa"))
                .expect("valid")
        }
    }

    @Test("unreadable trust inputs throw")
    func unreadableTrustInputsThrow() throws {
        #expect(throws: AASAError(.unreadableFile, "")) {
            try TrustStore(TrustConfiguration(useSystemRoots: false, anchorFiles: ["/nonexistent/ca.pem"]))
        }
        #expect(throws: AASAError(.noCertificate, "")) {
            try TrustStore(TrustConfiguration(useSystemRoots: false, anchorFiles: [Paths.cert("leaf-rsa.key")]))
        }
        #expect(throws: AASAError(.unreadableFile, "")) {
            try TrustStore(TrustConfiguration(useSystemRoots: false, anchorDirectories: [Paths.cert("ca-bundle.pem")]))
        }
    }

    // MARK: partial chains

    @Test("trusting only the intermediate fails without allowPartialChain and passes with it")
    func partialChain() throws {
        let trust = try TrustStore(
            TrustConfiguration(useSystemRoots: false, anchorFiles: [Paths.cert("intermediate-ca.pem")]))
        let data = try signed(by: "leaf-rsa")
        let strict = Verifier(trust: trust, options: VerificationOptions(time: Times.y2025)).verify(data)
        strict.expect("untrusted")
        let partial = Verifier(trust: trust, options: VerificationOptions(time: Times.y2025, allowPartialChain: true))
            .verify(data)
        partial.expect("valid")
        #expect(partial.chain.map(\.serialNumber) == ["3001", "2000"])
    }

    @Test("allowPartialChain does not trust a chain that reaches no anchor")
    func partialChainStillNeedsAnAnchor() throws {
        let options = VerificationOptions(time: Times.y2025, allowPartialChain: true)
        try verifier(options).verify(signed(by: "leaf-untrusted", withChain: false)).expect("untrusted")
    }

    // MARK: expired / notYetValid

    @Test("rejectsExpiredSigner: leaf-expired is expired in 2025 and now")
    func rejectsExpiredSigner() throws {
        for time in [Times.y2025, nil] as [Date?] {
            let result = try verifier(VerificationOptions(time: time)).verify(signed(by: "leaf-expired"))
            result.expect("expired", reasonContains: "2016-01-01T00:00:00Z")
            guard case .expired(let certificate, let depth) = result.verdict else {
                Issue.record("unexpected verdict \(result.verdict)")
                continue
            }
            #expect(depth == 0)
            #expect(certificate.serialNumber == "3005")
        }
    }

    @Test("leaf-expired is valid at 2015-06-01 (--at 1433116800)")
    func expiredSignerWasValidBefore() throws {
        let result = try verifier(VerificationOptions(time: Times.june2015)).verify(signed(by: "leaf-expired"))
        result.expect("valid")
        #expect(result.checkedAt == Times.june2015)
    }

    @Test("rejectsNotYetValidSigner: leaf-not-yet-valid")
    func rejectsNotYetValidSigner() throws {
        let result = try verifier().verify(signed(by: "leaf-not-yet-valid"))
        result.expect("not-yet-valid", reasonContains: "2090-01-01T00:00:00Z")
        guard case .notYetValid(let certificate, let depth) = result.verdict else {
            Issue.record("unexpected verdict \(result.verdict)")
            return
        }
        #expect(depth == 0)
        #expect(certificate.serialNumber == "3006")
        // ...and valid once its time has come.
        let later = Date(timeIntervalSince1970: 3_786_912_000)  // 2090-01-02
        try verifier(VerificationOptions(time: later)).verify(signed(by: "leaf-not-yet-valid")).expect("valid")
    }

    @Test("every leaf is not yet valid before the CAs exist (2009)")
    func rejectsBeforeTheCAsExist() throws {
        let time = Date(timeIntervalSince1970: 1_230_768_000)  // 2009-01-01
        try verifier(VerificationOptions(time: time)).verify(signed(by: "leaf-rsa")).expect("not-yet-valid")
    }

    // MARK: wrongPurpose

    @Test("rejectsWrongPurpose: leaf-client-auth with the default sslServer purpose")
    func rejectsClientAuthForServer() throws {
        let result = try verifier().verify(signed(by: "leaf-client-auth"))
        result.expect("wrong-purpose", reasonContains: "clientAuth")
        guard case .wrongPurpose(let purpose, let certificate, let depth) = result.verdict else {
            Issue.record("unexpected verdict \(result.verdict)")
            return
        }
        #expect(purpose == .sslServer)
        #expect(certificate.serialNumber == "3008")
        #expect(depth == 0)
    }

    @Test("rejectsWrongPurpose: leaf-rsa for smimeSign")
    func rejectsServerCertificateForSMIME() throws {
        let result = try verifier(VerificationOptions(purpose: .smimeSign, time: Times.y2025)).verify(
            signed(by: "leaf-rsa"))
        result.expect("wrong-purpose", reasonContains: "smimesign")
        guard case .wrongPurpose(let purpose, _, _) = result.verdict else {
            Issue.record("unexpected verdict \(result.verdict)")
            return
        }
        #expect(purpose == .smimeSign)
    }

    @Test("purpose any accepts leaf-client-auth")
    func anyPurposeAcceptsClientAuth() throws {
        try verifier(VerificationOptions(purpose: .any, time: Times.y2025)).verify(signed(by: "leaf-client-auth"))
            .expect("valid")
    }

    @Test("sslServer is the default purpose")
    func defaultPurposeIsSSLServer() {
        #expect(VerificationOptions().purpose == .sslServer)
        #expect(VerificationOptions().allowPartialChain == false)
        #expect(VerificationOptions().hostname == nil)
    }

    // MARK: hostMismatch

    @Test("rejectsHostMismatch: other.example.net is not leaf-rsa's host")
    func rejectsHostMismatch() throws {
        let options = VerificationOptions(time: Times.y2025, hostname: "other.example.net")
        let result = try verifier(options).verify(signed(by: "leaf-rsa"))
        result.expect("host-mismatch", reasonContains: "other.example.net")
        guard case .hostMismatch(let host, let certificate) = result.verdict else {
            Issue.record("unexpected verdict \(result.verdict)")
            return
        }
        #expect(host == "other.example.net")
        #expect(certificate.serialNumber == "3001")
    }

    @Test("leaf-rsa is valid for its own hosts", arguments: ["example.com", "www.example.com", "EXAMPLE.com"])
    func acceptsMatchingHost(host: String) throws {
        try verifier(VerificationOptions(time: Times.y2025, hostname: host)).verify(signed(by: "leaf-rsa"))
            .expect("valid")
    }

    @Test(
        "the wildcard leaf matches one label only",
        arguments: [
            ("a.example.com", true), ("www.example.com", true), ("a.b.example.com", false), ("example.com", false),
            ("aexample.com", false), ("a.example.org", false),
        ])
    func wildcardHost(host: String, matches: Bool) throws {
        let result = try verifier(VerificationOptions(time: Times.y2025, hostname: host)).verify(
            signed(by: "leaf-wildcard"))
        result.expect(matches ? "valid" : "host-mismatch")
    }

    @Test("leaf-other-domain does not match example.com but matches its own name")
    func otherDomain() throws {
        let data = try signed(by: "leaf-other-domain")
        try verifier(VerificationOptions(time: Times.y2025, hostname: "example.com")).verify(data).expect(
            "host-mismatch")
        try verifier(VerificationOptions(time: Times.y2025, hostname: "other.example.org")).verify(data).expect("valid")
    }

    // MARK: expiringSoon

    @Test("expiringSoon: leaf-short-lived 31 days before expiry with 60 required days")
    func expiringSoon() throws {
        let options = VerificationOptions(time: Times.december2029, minimumDaysValid: 60)
        let result = try verifier(options).verify(signed(by: "leaf-short-lived"))
        result.expect("expiring-soon", reasonContains: "2030-01-01T00:00:00Z")
        guard case .expiringSoon(let days, let certificate) = result.verdict else {
            Issue.record("unexpected verdict \(result.verdict)")
            return
        }
        #expect(days == 60)
        #expect(certificate.serialNumber == "3007")
        #expect(certificate.notAfter == Times.january2030)
    }

    @Test(
        "leaf-short-lived (31 days left) is valid with 10 or 30 required days, expiring with 32",
        arguments: [(10, true), (30, true), (32, false)])
    func expiringSoonThreshold(days: Int, valid: Bool) throws {
        let options = VerificationOptions(time: Times.december2029, minimumDaysValid: days)
        try verifier(options).verify(signed(by: "leaf-short-lived")).expect(valid ? "valid" : "expiring-soon")
    }

    @Test("minimumDaysValid checks the whole chain, not only the leaf")
    func expiringSoonLooksAtTheChain() throws {
        // Everything in the test chain expires 2099-12-31, about 75 years after 2025-01-01.
        let options = VerificationOptions(time: Times.y2025, minimumDaysValid: 365 * 74)
        try verifier(options).verify(signed(by: "leaf-rsa")).expect("valid")
        let tooMany = VerificationOptions(time: Times.y2025, minimumDaysValid: 365 * 76)
        try verifier(tooMany).verify(signed(by: "leaf-rsa")).expect("expiring-soon")
    }

    // MARK: Verdict order

    @Test("a tampered file is tampered even when its signer is also untrusted")
    func tamperingIsReportedBeforeTrust() throws {
        let data = try signed(by: "leaf-untrusted", withChain: false)
        try verifier().verify(data.flippingByte(at: data.count - 5)).expect("tampered")
    }

    @Test("verdict codes are the documented strings")
    func verdictCodes() {
        #expect(VerificationVerdict.valid.code == "valid")
        #expect(VerificationVerdict.notSigned("x").code == "not-signed")
        #expect(VerificationVerdict.malformed("x").code == "malformed")
        #expect(VerificationVerdict.tampered("x").code == "tampered")
        #expect(VerificationVerdict.signerNotFound("x").code == "signer-not-found")
        #expect(VerificationVerdict.untrusted("x", certificate: nil, depth: 0).code == "untrusted")
        #expect(VerificationVerdict.valid.reason == nil)
        #expect(VerificationVerdict.tampered("why").reason == "why")
        #expect(!VerificationVerdict.tampered("why").isValid)
    }
}

/// A small deterministic random generator, so "random" inputs are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
