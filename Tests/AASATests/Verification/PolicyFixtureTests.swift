import AASA
// The verification policy and the true reasons of GitHub issue #12, on the committed fixtures
// of Tests/Fixtures/policy (README.md there says how each file was made and why). Also the
// boundaries that a one-off change must break: key sizes, the expiry horizon, DER padding.
import Foundation
import Testing

/// The fixtures of Tests/Fixtures/policy. A missing file is an error (never a skipped test).
enum PolicyFixtures {
    static let folder = Paths.repositoryRoot.appendingPathComponent("Tests/Fixtures/policy", isDirectory: true)

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent("files/\(name)"))
    }

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Trust in pki/root.pem only, at 2025-01-01.
    static func verifier(
        allowWeak: Bool = false, purpose: CertificatePurpose = .sslServer, cache: ChainCache? = nil,
        anchor: String = "root", minimumDaysValid: Int? = nil
    ) throws -> Verifier {
        var options = VerificationOptions(purpose: purpose, time: Times.y2025, minimumDaysValid: minimumDaysValid)
        options.allowWeakCrypto = allowWeak
        let trust = try TrustStore(
            TrustConfiguration(useSystemRoots: false, anchorFiles: [path("pki/\(anchor).pem")]))
        return Verifier(trust: trust, options: options, chainCache: cache)
    }
}

/// One fixture and what verification must say about it.
struct PolicyCase: Sendable, CustomTestStringConvertible {
    var file: String
    var code: String
    var reason: String?
    var testDescription: String { "\(file) → \(code)" }

    init(_ file: String, _ code: String, _ reason: String? = nil) {
        self.file = file
        self.code = code
        self.reason = reason
    }

    /// Every fixture with a verdict; the reason fragments name the rule, algorithm or type.
    static let all: [PolicyCase] = [
        PolicyCase("valid.p7m", "valid"),
        PolicyCase("valid-nul-padded.p7m", "valid"),
        PolicyCase("rsa512.p7m", "weak-algorithm", "512-bit RSA key, below the minimum of 1024 bits"),
        PolicyCase("rsa1023.p7m", "weak-algorithm", "1023-bit RSA key, below the minimum of 1024 bits"),
        PolicyCase("rsa1024.p7m", "valid"),
        PolicyCase("rsa2047.p7m", "valid"),
        PolicyCase(
            "md5-digest.p7m", "weak-algorithm",
            "SignerInfo 1 uses the digest MD5, which the verification policy forbids"),
        PolicyCase("md5-cert.p7m", "weak-algorithm", "the signer certificate is signed with MD5"),
        PolicyCase("sha1-digest.p7m", "valid"),
        PolicyCase("sha1-cert.p7m", "valid"),
        PolicyCase("keyenc-only.p7m", "wrong-purpose", "may not make digital signatures (keyUsage: keyEncipherment)"),
        PolicyCase("attrs-good.p7m", "valid"),
        PolicyCase("attrs-no-content-type.p7m", "malformed", "no contentType attribute; RFC 5652 §5.3 requires one"),
        PolicyCase(
            "attrs-two-content-type-values.p7m", "malformed", "contentType attribute has 2 values; RFC 5652 §11.1"),
        PolicyCase("attrs-two-content-type-attributes.p7m", "malformed", "2 contentType attributes; RFC 5652 §11"),
        PolicyCase("attrs-content-type-mismatch.p7m", "malformed", "RFC 5652 §5.3 requires them to be the same"),
        PolicyCase(
            "attrs-no-message-digest.p7m", "malformed", "no messageDigest attribute; RFC 5652 §5.3 requires one"),
        PolicyCase("attrs-bad-signing-time.p7m", "malformed", "signingTime attribute is not a valid UTCTime"),
        PolicyCase("attrs-signing-time-generalized-1999.p7m", "malformed", "which must be a UTCTime (RFC 5652 §11.3)"),
        PolicyCase(
            "attrs-two-message-digest-attributes.p7m", "malformed",
            "has 2 messageDigest attributes; RFC 5652 §11.2 allows only one"),
        PolicyCase(
            "attrs-two-signing-time-attributes.p7m", "malformed",
            "has 2 signingTime attributes; RFC 5652 §11.3 allows only one"),
        PolicyCase(
            "attrs-two-signing-time-values.p7m", "malformed",
            "signingTime attribute has 2 values; RFC 5652 §11.3 allows exactly one"),
        PolicyCase(
            "attrs-unsigned-signing-time.p7m", "malformed",
            "carries signingTime as an unsigned attribute; RFC 5652 §11.3 allows it only as a signed attribute"),
        PolicyCase(
            "attrs-unsigned-signing-time-beside-signed.p7m", "malformed",
            "carries signingTime as an unsigned attribute; RFC 5652 §11.3 allows it only as a signed attribute"),
        PolicyCase(
            "attrs-unsigned-content-type.p7m", "malformed",
            "carries contentType as an unsigned attribute; RFC 5652 §11.1 allows it only as a signed attribute"),
        PolicyCase(
            "attrs-unsigned-message-digest.p7m", "malformed",
            "carries messageDigest as an unsigned attribute; RFC 5652 §11.2 allows it only as a signed attribute"),
        PolicyCase(
            "attrs-signed-countersignature.p7m", "malformed",
            "carries countersignature as a signed attribute; RFC 5652 §11.4 allows it only as an unsigned attribute"),
        PolicyCase("attrs-unsigned-countersignature.p7m", "valid"),
        PolicyCase(
            "attrs-unsigned-signing-certificate.p7m", "malformed",
            "carries signingCertificate as an unsigned attribute; RFC 2634 §5.4 allows it only as a signed attribute"),
        PolicyCase(
            "attrs-two-signing-certificate-attributes.p7m", "malformed",
            "has 2 signingCertificate attributes; RFC 2634 §5.4 allows only one"),
        PolicyCase(
            "md4-digest.p7m", "unsupported-algorithm",
            "digest algorithm md4 (1.2.840.113549.2.4), which OpenSSL cannot compute"),
        PolicyCase("unknown-digest-algorithm.p7m", "unsupported-algorithm", "digest algorithm 1.3.6.1.4.1.32473.1.2"),
        PolicyCase(
            "unknown-signature-algorithm.p7m", "unsupported-algorithm", "signature algorithm 1.3.6.1.4.1.32473.1.1"),
        PolicyCase("ed25519-noattr.p7m", "unsupported-algorithm", "signature algorithm ED25519 (1.3.101.112)"),
        PolicyCase(
            "dsa-inherited-parameters.p7m", "unsupported-algorithm",
            "key without parameters (inherited from its issuer)"),
        PolicyCase("certs-extra-integer.p7m", "malformed"),
        PolicyCase("certs-extra-empty-sequence.p7m", "malformed"),
        PolicyCase("certs-extra-copy.p7m", "valid"),
        PolicyCase("authenticode.p7m", "malformed", "the signed content is Microsoft Authenticode"),
        PolicyCase("catalog.p7m", "malformed", "the signed content is a Microsoft catalog"),
        PolicyCase("digested-data.p7m", "malformed", "the signed content is DigestedData"),
        PolicyCase("signed-data-without-content.der", "malformed", "the [0] field is missing"),
        PolicyCase("cms-compressed.der", "not-signed", "id-smime-ct-compressedData"),
        PolicyCase("cms-compressed.pem", "not-signed", "id-smime-ct-compressedData"),
        PolicyCase("cms-auth-enveloped.der", "not-signed", "id-smime-ct-authEnvelopedData"),
        PolicyCase("cms-auth-enveloped.pem", "not-signed", "id-smime-ct-authEnvelopedData"),
        PolicyCase("cms-keyid-signer.p7m", "unsupported-cms", "signer identified by subjectKeyIdentifier"),
        PolicyCase("valid.pem", "valid"),
        PolicyCase("valid-padded.pem", "valid"),
        PolicyCase("two-messages.pem", "malformed", "after the PEM block (a second message or other text)"),
        PolicyCase("trailing-text.pem", "malformed", "37 bytes after the PEM block"),
        PolicyCase("valid.smime", "valid"),
        PolicyCase("two-messages.smime", "malformed", "after the S/MIME message's base64 body"),
        PolicyCase("trailing-text.smime", "malformed", "37 bytes after the S/MIME message's base64 body"),
        PolicyCase("multipart.smime", "valid"),
        PolicyCase("multipart-tampered.smime", "tampered", "the signature does not match the content"),
        PolicyCase(
            "multipart-trailing.smime", "malformed", "after the closing boundary of the multipart/signed message"),
        PolicyCase("multipart-rsa512.smime", "weak-algorithm", "512-bit RSA key"),
    ]
}

@Suite("Verification policy fixtures (issue #12)")
struct PolicyFixtureTests {
    @Test("each fixture gets its verdict and reason; content only when valid", arguments: PolicyCase.all)
    func verdict(_ fixture: PolicyCase) throws {
        let result = try PolicyFixtures.verifier().verify(PolicyFixtures.data(fixture.file))
        result.expect(fixture.code, reasonContains: fixture.reason)
        if fixture.code != "tampered" {
            #expect(!(result.verdict.reason ?? "").contains("tampered"), "only a mismatch is tampered")
        }
    }

    /// The files the boundary tests below read with their own anchor or options.
    static let boundaryFiles = [
        "md5-anchor.p7m", "sha1-anchor.p7m", "nonrepudiation-only.p7m", "short-intermediate.p7m",
    ]

    @Test("every fixture file has its case or boundary test, and every case its file")
    func everyFileHasACase() throws {
        let files = try FileManager.default.contentsOfDirectory(
            atPath: PolicyFixtures.folder.appendingPathComponent("files").path
        ).filter { $0 != "content.json" }
        let covered = PolicyCase.all.map(\.file) + Self.boundaryFiles
        #expect(Set(files) == Set(covered))
        #expect(files.count == covered.count)
    }

    // MARK: boundaries a one-line bug in the chain policy would cross (issue #24)

    @Test("an anchor self-signed with MD5 or SHA-1 above a SHA-256 leaf is valid, without a warning")
    func weakAnchorSelfSignature() throws {
        for weak in ["md5", "sha1"] {
            let result = try PolicyFixtures.verifier(anchor: "\(weak)root").verify(
                PolicyFixtures.data("\(weak)-anchor.p7m"))
            result.expect("valid")
            #expect(result.warnings.isEmpty, "\(weak): \(result.warnings)")
        }
    }

    @Test(
        "a signer whose keyUsage is only nonRepudiation is wrong-purpose whatever the purpose",
        arguments: CertificatePurpose.allCases)
    func nonRepudiationIsNoSigningBit(purpose: CertificatePurpose) throws {
        let result = try PolicyFixtures.verifier(purpose: purpose).verify(
            PolicyFixtures.data("nonrepudiation-only.p7m"))
        result.expect("wrong-purpose")
        // sslserver and smimesign fail earlier, on OpenSSL's purpose checks; `any` reaches ours.
        if purpose == .any {
            guard case .signerKeyUsage(let certificate, let usage) = result.verdict else {
                Issue.record("verdict \(result.verdict)")
                return
            }
            #expect(certificate.subject.contains("CN=nonrepudiation"))
            #expect(usage == ["nonRepudiation"])
        }
    }

    @Test("minimumDaysValid judges every certificate: an intermediate expiring before its leaf is the one named")
    func minimumDaysValidNamesTheIntermediate() throws {
        let data = try PolicyFixtures.data("short-intermediate.p7m")
        // 2025-01-01 to the intermediate's notAfter, 2030-01-01, is 1,826 days; the leaf has 2099.
        try PolicyFixtures.verifier(minimumDaysValid: 1826).verify(data).expect("valid")
        let result = try PolicyFixtures.verifier(minimumDaysValid: 1827).verify(data)
        result.expect("expiring-soon", reasonContains: "2030-01-01T00:00:00Z")
        guard case .expiringSoon(_, let certificate) = result.verdict else {
            Issue.record("verdict \(result.verdict)")
            return
        }
        #expect(certificate.subject.contains("CN=short-intermediate"), "\(certificate.subject)")
        try PolicyFixtures.verifier().verify(data).expect("valid")
    }

    @Test("the chain cache gives exactly the uncached verdict, reason and warnings", arguments: PolicyCase.all)
    func cachedAgrees(_ fixture: PolicyCase) throws {
        let data = try PolicyFixtures.data(fixture.file)
        let plain = try PolicyFixtures.verifier().verify(data)
        let cached = try PolicyFixtures.verifier(cache: ChainCache())
        for _ in 0..<2 {
            let result = cached.verify(data)
            #expect(result.verdict == plain.verdict)
            #expect(result.warnings == plain.warnings)
            #expect(result.content == plain.content)
        }
    }

    // MARK: key sizes: 1023/1024 refused/accepted, 2047/2048 warned/not

    @Test("RSA key size boundaries: 1023 refused, 1024 and 2047 warned, 2048 silent")
    func keySizeBoundaries() throws {
        let verifier = try PolicyFixtures.verifier()
        let r1023 = verifier.verify(try PolicyFixtures.data("rsa1023.p7m"))
        r1023.expect("weak-algorithm", reasonContains: "1023-bit RSA key")
        for bits in [1024, 2047] {
            let result = verifier.verify(try PolicyFixtures.data("rsa\(bits).p7m"))
            result.expect("valid")
            #expect(result.warnings.count == 1)
            let warning = try #require(result.warnings.first)
            #expect(
                warning.subject == .keySize && warning.bits == bits && warning.algorithm == "RSA" && !warning.refused)
            #expect(warning.depth == 0 && !warning.weak)
            #expect(
                warning.message == "the signer certificate has a \(bits)-bit RSA key, below the recommended 2048 bits")
        }
        let r2048 = verifier.verify(try PolicyFixtures.data("valid.p7m"))
        r2048.expect("valid")
        #expect(r2048.warnings.isEmpty, "\(r2048.warnings)")
    }

    @Test("SHA-1 is accepted with a warning: in the SignerInfo and in the signer certificate's signature")
    func sha1Warnings() throws {
        let verifier = try PolicyFixtures.verifier()
        let digest = verifier.verify(try PolicyFixtures.data("sha1-digest.p7m"))
        digest.expect("valid")
        #expect(digest.warnings.map(\.subject) == [.digest])
        #expect(digest.warnings.first?.message.contains("SignerInfo 1 uses the digest SHA1") == true)
        let certificate = verifier.verify(try PolicyFixtures.data("sha1-cert.p7m"))
        certificate.expect("valid")
        #expect(certificate.warnings.map(\.subject) == [.certificateSignature])
        #expect(certificate.warnings.first?.message.contains("the signer certificate is signed with SHA1") == true)
    }

    @Test("the root's own SHA-256 self-signature and key raise nothing; a weak leaf is named at depth 0")
    func findingsNameTheCertificate() throws {
        let result = try PolicyFixtures.verifier().verify(PolicyFixtures.data("md5-cert.p7m"))
        result.expect("weak-algorithm", reasonContains: "CN=md5cert")
    }

    // MARK: --allow-weak-crypto

    @Test(
        "allowWeakCrypto turns policy refusals into warnings, nothing else",
        arguments: ["rsa512.p7m", "rsa1023.p7m", "md5-digest.p7m", "md5-cert.p7m", "multipart-rsa512.smime"])
    func allowWeakCrypto(file: String) throws {
        let result = try PolicyFixtures.verifier(allowWeak: true).verify(PolicyFixtures.data(file))
        result.expect("valid")
        let weak = result.warnings.filter(\.weak)
        #expect(!weak.isEmpty, "\(result.warnings)")
        #expect(
            weak.allSatisfy { !$0.refused && $0.message.contains("accepted only because weak algorithms were allowed") }
        )
    }

    @Test(
        "allowWeakCrypto changes nothing else: unsupported, malformed and keyUsage verdicts stay",
        arguments: [
            PolicyCase("md4-digest.p7m", "unsupported-algorithm"), PolicyCase("keyenc-only.p7m", "wrong-purpose"),
            PolicyCase("attrs-no-message-digest.p7m", "malformed"), PolicyCase("multipart-tampered.smime", "tampered"),
        ])
    func allowWeakKeepsTheRest(_ fixture: PolicyCase) throws {
        try PolicyFixtures.verifier(allowWeak: true).verify(PolicyFixtures.data(fixture.file)).expect(fixture.code)
    }

    @Test("allowWeakCrypto is off by default")
    func allowWeakIsOffByDefault() {
        #expect(VerificationOptions().allowWeakCrypto == false)
    }

    // MARK: keyUsage

    @Test(
        "a signer whose keyUsage lacks digitalSignature is wrong-purpose whatever the purpose",
        arguments: CertificatePurpose.allCases)
    func keyUsageWhateverThePurpose(purpose: CertificatePurpose) throws {
        let result = try PolicyFixtures.verifier(purpose: purpose).verify(PolicyFixtures.data("keyenc-only.p7m"))
        result.expect("wrong-purpose")
        if purpose != .smimeSign {  // smimesign fails earlier, on the extendedKeyUsage
            guard case .signerKeyUsage(let certificate, let usage) = result.verdict else {
                Issue.record("verdict \(result.verdict)")
                return
            }
            #expect(certificate.subject.contains("CN=keyenc"))
            #expect(usage == ["keyEncipherment"])
        }
    }

    // MARK: detection agrees with verification

    @Test(
        "CMS content types are pkcs7-other in DER and in PEM alike",
        arguments: ["cms-compressed", "cms-auth-enveloped"])
    func cmsContentTypesAgree(name: String) throws {
        let der = FileKindDetector.detect(try PolicyFixtures.data("\(name).der"))
        let pem = FileKindDetector.detect(try PolicyFixtures.data("\(name).pem"))
        #expect(der.kind == .pkcs7Other, "\(der.detail ?? "")")
        #expect(pem.kind == .pkcs7Other, "\(pem.detail ?? "")")
        #expect(der.detail == pem.detail)
    }

    @Test(
        "non-data content is named in detection, never called detached",
        arguments: ["authenticode.p7m", "catalog.p7m", "digested-data.p7m"])
    func nonDataIsNotDetached(file: String) throws {
        let detection = FileKindDetector.detect(try PolicyFixtures.data(file))
        #expect(detection.kind == .pkcs7DER)
        #expect(detection.message?.hasContent == true)
        #expect(detection.detail?.contains("not data") == true, "\(detection.detail ?? "nil")")
        #expect(detection.detail?.contains("detached") == false)
    }

    @Test("a SignedData without its content field is damaged, not pkcs7-other")
    func missingContentFieldIsDamaged() throws {
        let detection = FileKindDetector.detect(try PolicyFixtures.data("signed-data-without-content.der"))
        #expect(detection.kind == .unknown)
        #expect(detection.damagedPKCS7Encoding == .der)
        #expect(detection.detail?.contains("the [0] field is missing") == true)
    }

    @Test("valid CMS with a keyid signer says it is not supported, not corrupt")
    func keyidSignerIsUnsupported() throws {
        let detection = FileKindDetector.detect(try PolicyFixtures.data("cms-keyid-signer.p7m"))
        #expect(detection.unsupportedCMS?.contains("subjectKeyIdentifier") == true)
        #expect(detection.damagedPKCS7Encoding == nil)
        #expect(detection.detail?.contains("corrupt") == false)
    }

    // MARK: multipart/signed

    @Test("multipart/signed: the content is exactly what openssl smime -verify writes")
    func multipartContentMatchesOpenSSL() throws {
        let data = try PolicyFixtures.data("multipart.smime")
        let result = try PolicyFixtures.verifier().verify(data)
        result.expect("valid")
        #expect(result.kind == .pkcs7SMIME)
        try withScratchDirectory { scratch in
            let openssl = try OpenSSL.smimeVerify(
                data, inform: "SMIME", caFile: PolicyFixtures.path("pki/root.pem"), in: scratch)
            #expect(openssl.result.succeeded, "\(openssl.result.stderrText)")
            #expect(!openssl.content.isEmpty)
            #expect(result.content == openssl.content)
        }
        let source = try PolicyFixtures.data("content.json")
        #expect(result.content == lfToCRLF(source))
    }

    // MARK: boundaries

    @Test("padding after DER (NUL bytes, CR LF, space, tab) is tolerated and changes nothing")
    func nulPaddingAfterDERIsTolerated() throws {
        let verifier = try PolicyFixtures.verifier()
        let plain = try PolicyFixtures.data("valid.p7m")
        let padded = try PolicyFixtures.data("valid-nul-padded.p7m")
        #expect(padded.starts(with: plain) && padded.count > plain.count)
        #expect(padded.dropFirst(plain.count).contains(0), "the padding must include NUL bytes")
        let result = verifier.verify(padded)
        result.expect("valid")
        #expect(result.content == verifier.verify(plain).content)
        for padding: [UInt8] in [[0], [0, 0, 0, 0], [0x0A], [0x00, 0x0D, 0x0A]] {
            verifier.verify(plain + Data(padding)).expect("valid")
        }
    }

    @Test(
        "the expiry horizon is exact: 31 days left passes --min-days-valid 31, fails 32, and fails 31 a second later",
        arguments: [(31, 0, true), (32, 0, false), (31, 1, false), (30, 0, true)])
    func expiryHorizonIsExact(days: Int, secondsLater: Int, valid: Bool) throws {
        let at = Times.december2029.addingTimeInterval(TimeInterval(secondsLater))
        let options = VerificationOptions(time: at, minimumDaysValid: days)
        let signed = try PKI.identity("leaf-short-lived").sign(
            Data("{}".utf8), options: SigningOptions(binary: true))
        try PKI.verifier(options).verify(signed).expect(valid ? "valid" : "expiring-soon")
    }

    @Test(
        "verifyChain applies the expiry horizon too, exactly",
        arguments: [(31, true), (32, false)])
    func verifyChainExpiryHorizon(days: Int, valid: Bool) throws {
        let certificates = try PKI.certificates("leaf-short-lived.pem") + PKI.certificates("chain.pem")
        let verifier = try PKI.verifier(VerificationOptions(time: Times.december2029, minimumDaysValid: days))
        let result = verifier.verifyChain(certificates)
        #expect(result.verdict.code == (valid ? "valid" : "expiring-soon"), "\(result.verdict)")
        if !valid {
            guard case .expiringSoon(let required, let certificate) = result.verdict else {
                Issue.record("unexpected verdict \(result.verdict)")
                return
            }
            #expect(required == days)
            #expect(certificate.notAfter == Times.january2030)
        }
    }

    @Test("verifyChain applies the key-size policy to a TLS chain, without the keyUsage rule")
    func verifyChainPolicy() throws {
        let trust = try TrustStore(
            TrustConfiguration(useSystemRoots: false, anchorFiles: [PolicyFixtures.path("pki/root.pem")]))
        let verifier = Verifier(trust: trust, options: VerificationOptions(time: Times.y2025))
        let weak = verifier.verifyChain(
            try X509Certificate.load(
                from: Data(contentsOf: URL(fileURLWithPath: PolicyFixtures.path("pki/rsa512.pem")))))
        #expect(weak.verdict.code == "weak-algorithm", "\(weak.verdict)")
        // keyEncipherment-only is a fine TLS server certificate (RSA key exchange).
        let keyenc = verifier.verifyChain(
            try X509Certificate.load(
                from: Data(contentsOf: URL(fileURLWithPath: PolicyFixtures.path("pki/keyenc.pem")))))
        #expect(keyenc.verdict.code == "valid", "\(keyenc.verdict)")
        let warned = verifier.verifyChain(
            try X509Certificate.load(
                from: Data(contentsOf: URL(fileURLWithPath: PolicyFixtures.path("pki/rsa1024.pem")))))
        #expect(warned.verdict.code == "valid")
        #expect(warned.warnings.map(\.bits) == [1024])
    }
}
