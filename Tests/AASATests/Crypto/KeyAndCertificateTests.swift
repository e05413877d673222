import AASA
// Loading private keys, certificates and PKCS#12 bundles, and what CertificateInfo reports.
import Foundation
import Testing

@Suite("Keys, certificates and PKCS#12")
struct KeyAndCertificateTests {
    // MARK: Private keys

    struct KeyCase: Sendable, CustomTestStringConvertible {
        var file: String
        var certificate: String
        var algorithm: String
        var bits: Int
        var encrypted = false
        var testDescription: String { file }
    }

    static let keyCases: [KeyCase] = [
        KeyCase(file: "leaf-rsa.key", certificate: "leaf-rsa.pem", algorithm: "RSA", bits: 2048),
        KeyCase(file: "leaf-rsa.pkcs1.key", certificate: "leaf-rsa.pem", algorithm: "RSA", bits: 2048),
        KeyCase(file: "leaf-rsa.key.der", certificate: "leaf-rsa.pem", algorithm: "RSA", bits: 2048),
        KeyCase(file: "leaf-rsa.enc.key", certificate: "leaf-rsa.pem", algorithm: "RSA", bits: 2048, encrypted: true),
        KeyCase(file: "leaf-ec.key", certificate: "leaf-ec.pem", algorithm: "EC", bits: 256),
        KeyCase(file: "leaf-ec384.key", certificate: "leaf-ec384.pem", algorithm: "EC", bits: 384),
        KeyCase(file: "root-ca.key", certificate: "root-ca.pem", algorithm: "RSA", bits: 2048),
    ]

    @Test("every key file loads and matches its certificate", arguments: keyCases)
    func loadsKey(case keyCase: KeyCase) throws {
        let key = try PKI.key(keyCase.file, passphrase: keyCase.encrypted ? PKI.passphrase() : nil)
        #expect(key.algorithm == keyCase.algorithm)
        #expect(key.bits == keyCase.bits)
        #expect(try PKI.certificate(keyCase.certificate).matches(key))
        #expect(try !PKI.certificate("leaf-rsa-twin.pem").matches(key))
    }

    @Test("a passphrase for an unencrypted key is ignored")
    func passphraseIgnoredForPlainKey() throws {
        let key = try PKI.key("leaf-rsa.key", passphrase: Passphrase("unused"))
        #expect(try PKI.certificate("leaf-rsa.pem").matches(key))
    }

    /// Keys converted by the CLI into the formats the fixtures lack.
    @Test(
        "CLI-converted key encodings load",
        arguments: [
            ["pkey", "-in", Paths.cert("leaf-ec.key"), "-traditional"],  // SEC1 PEM (BEGIN EC PRIVATE KEY)
            ["pkey", "-in", Paths.cert("leaf-ec.key"), "-outform", "DER"],  // PKCS#8 DER (EC)
            ["rsa", "-in", Paths.cert("leaf-rsa.key"), "-traditional", "-outform", "DER"],  // PKCS#1 DER
            ["pkey", "-in", Paths.cert("leaf-ec.key"), "-traditional", "-outform", "DER"],  // SEC1 DER
        ])
    func loadsConvertedKeys(arguments: [String]) throws {
        try withScratchDirectory { scratch in
            let converted = try OpenSSL.succeed(arguments + ["-out", "key"], in: scratch)
            #expect(converted.succeeded)
            let key = try PrivateKey(data: scratch.read("key"))
            let certificate = arguments.contains(Paths.cert("leaf-ec.key")) ? "leaf-ec.pem" : "leaf-rsa.pem"
            #expect(try PKI.certificate(certificate).matches(key))
        }
    }

    @Test("an encrypted PKCS#8 DER key loads with its passphrase only")
    func encryptedDERKey() throws {
        try withScratchDirectory { scratch in
            try OpenSSL.succeed(
                [
                    "pkcs8", "-topk8", "-in", Paths.cert("leaf-rsa.key"), "-outform", "DER", "-v2", "aes-256-cbc",
                    "-passout",
                    "pass:\(try PKI.passphraseString())", "-out", "key.der",
                ], in: scratch)
            let data = try scratch.read("key.der")
            let key = try PrivateKey(data: data, passphrase: PKI.passphrase())
            #expect(try PKI.certificate("leaf-rsa.pem").matches(key))
            #expect(throws: AASAError(.passphraseRequired, "")) { try PrivateKey(data: data) }
            #expect(throws: AASAError(.wrongPassphrase, "")) {
                try PrivateKey(data: data, passphrase: Passphrase("wrong"))
            }
        }
    }

    @Test("an encrypted key without a passphrase throws passphraseRequired")
    func encryptedKeyNeedsPassphrase() throws {
        #expect(throws: AASAError(.passphraseRequired, "")) { try PKI.key("leaf-rsa.enc.key") }
    }

    @Test(
        "an encrypted key with the wrong passphrase throws wrongPassphrase",
        arguments: ["wrong", "", "correct horse battery staple\n", "Correct horse battery staple"])
    func encryptedKeyWrongPassphrase(passphrase: String) throws {
        #expect(throws: AASAError(.wrongPassphrase, "")) {
            try PKI.key("leaf-rsa.enc.key", passphrase: Passphrase(passphrase))
        }
    }

    @Test("a passphrase given as raw bytes works like the string")
    func passphraseFromBytes() throws {
        let line = try PKI.data("passphrase.txt").prefix { $0 != 0x0A }
        let passphrase = Passphrase(bytes: line)
        #expect(passphrase.count == 28)
        let key = try PKI.key("leaf-rsa.enc.key", passphrase: passphrase)
        #expect(try PKI.certificate("leaf-rsa.pem").matches(key))
    }

    @Test(
        "things that are not private keys throw unreadableKey",
        arguments: [
            NamedInput("garbage", "this is not a key"),
            NamedInput("empty", Data()),
            NamedInput("binary garbage", Data([0x30, 0x82, 0x01, 0x00, 0xFF, 0xFE, 0x00, 0x01])),
            NamedInput(
                "truncated PEM",
                "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n"),
            NamedInput("JSON", "{\"applinks\": {}}"),
        ])
    func rejectsNonKeys(input: NamedInput) {
        #expect(throws: AASAError(.unreadableKey, "")) { try PrivateKey(data: input.bytes) }
    }

    @Test(
        "a certificate or a public key given as the private key throws, not crashes",
        arguments: ["leaf-rsa.pem", "leaf-rsa.der", "ca-bundle.pem", "full-chain.pem"])
    func rejectsCertificateAsKey(file: String) throws {
        let data = try PKI.data(file)
        #expect(throws: AASAError(.unreadableKey, "")) { try PrivateKey(data: data) }
    }

    @Test("a public key PEM given as the private key throws unreadableKey", arguments: ["PEM", "DER"])
    func rejectsPublicKey(outform: String) throws {
        try withScratchDirectory { scratch in
            try OpenSSL.succeed(
                ["pkey", "-in", Paths.cert("leaf-rsa.key"), "-pubout", "-outform", outform, "-out", "pub"], in: scratch)
            let data = try scratch.read("pub")
            #expect(throws: AASAError(.unreadableKey, "")) { try PrivateKey(data: data) }
        }
    }

    @Test(
        "a key that is not the certificate's throws keyMismatch",
        arguments: [
            ("leaf-rsa-twin.key", "leaf-rsa.pem"), ("leaf-ec.key", "leaf-rsa.pem"), ("leaf-rsa.key", "leaf-ec.pem"),
            ("leaf-ec384.key", "leaf-ec.pem"), ("intermediate-ca.key", "leaf-rsa.pem"),
        ])
    func rejectsMismatchedKey(keyFile: String, certificateFile: String) throws {
        let key = try PKI.key(keyFile)
        let certificate = try PKI.certificate(certificateFile)
        #expect(!certificate.matches(key))
        let error = try #require(throws: AASAError.self) { try SigningIdentity(key: key, certificate: certificate) }
        #expect(error.code == .keyMismatch)
        #expect(error.reason.contains(certificate.info.subject))
    }

    // MARK: PKCS#12

    @Test("the PKCS#12 bundle opens with its passphrase")
    func opensPKCS12() throws {
        let bundle = try PKCS12Bundle(data: PKI.data("leaf-rsa.p12"), passphrase: PKI.passphrase())
        #expect(bundle.certificate.info == (try PKI.certificate("leaf-rsa.pem").info))
        #expect(bundle.certificate.matches(bundle.key))
        #expect(bundle.key.algorithm == "RSA")
        #expect(bundle.chain.map(\.info) == (try PKI.certificates("chain.pem").map(\.info)))
        let identity = try SigningIdentity(bundle: bundle)
        #expect(identity.chain.count == 1)
    }

    @Test("the PKCS#12 bundle without a passphrase throws passphraseRequired")
    func pkcs12NeedsPassphrase() throws {
        #expect(throws: AASAError(.passphraseRequired, "")) { try PKCS12Bundle(data: PKI.data("leaf-rsa.p12")) }
    }

    @Test(
        "the PKCS#12 bundle with a wrong passphrase throws wrongPassphrase",
        arguments: ["wrong", "", "correct horse battery staple "])
    func pkcs12WrongPassphrase(passphrase: String) throws {
        #expect(throws: AASAError(.wrongPassphrase, "")) {
            try PKCS12Bundle(data: PKI.data("leaf-rsa.p12"), passphrase: Passphrase(passphrase))
        }
    }

    @Test(
        "things that are not PKCS#12 throw unreadablePKCS12",
        arguments: ["leaf-rsa.pem", "leaf-rsa.der", "leaf-rsa.key"])
    func rejectsNonPKCS12(file: String) throws {
        let data = try PKI.data(file)
        #expect(throws: AASAError(.unreadablePKCS12, "")) { try PKCS12Bundle(data: data, passphrase: PKI.passphrase()) }
        #expect(throws: AASAError(.unreadablePKCS12, "")) { try PKCS12Bundle(data: Data()) }
    }

    @Test("a PKCS#12 bundle with no key throws incompletePKCS12")
    func rejectsKeylessPKCS12() throws {
        try withScratchDirectory { scratch in
            try OpenSSL.succeed(
                [
                    "pkcs12", "-export", "-nokeys", "-in", Paths.cert("leaf-rsa.pem"), "-passout", "pass:x", "-out",
                    "nokey.p12",
                ],
                in: scratch)
            #expect(throws: AASAError(.incompletePKCS12, "")) {
                try PKCS12Bundle(data: scratch.read("nokey.p12"), passphrase: Passphrase("x"))
            }
        }
    }

    @Test("an unprotected PKCS#12 bundle opens without a passphrase")
    func opensUnprotectedPKCS12() throws {
        try withScratchDirectory { scratch in
            try OpenSSL.succeed(
                [
                    "pkcs12", "-export", "-keypbe", "NONE", "-certpbe", "NONE", "-nomac", "-passout", "pass:", "-inkey",
                    Paths.cert("leaf-rsa.key"), "-in", Paths.cert("leaf-rsa.pem"), "-out", "open.p12",
                ], in: scratch)
            let bundle = try PKCS12Bundle(data: scratch.read("open.p12"))
            #expect(bundle.certificate.matches(bundle.key))
            #expect(bundle.chain.isEmpty)
        }
    }

    @Test("a truncated PKCS#12 bundle throws, never crashes")
    func rejectsTruncatedPKCS12() throws {
        let data = try PKI.data("leaf-rsa.p12")
        for length in [1, 10, data.count / 2, data.count - 1] {
            #expect(throws: AASAError.self) {
                try PKCS12Bundle(data: data.prefix(length), passphrase: PKI.passphrase())
            }
        }
    }

    // MARK: Certificates

    @Test("certificate files load in file order")
    func loadsCertificateFiles() throws {
        #expect(try PKI.certificates("full-chain.pem").map(\.info.serialNumber) == ["2000", "1000"])
        #expect(try PKI.certificates("chain.pem").map(\.info.serialNumber) == ["2000"])
        #expect(try PKI.certificates("ca-bundle.pem").map(\.info.serialNumber) == ["1000"])
        #expect(try PKI.certificates("leaf-rsa.der").map(\.info.serialNumber) == ["3001"])
    }

    @Test("PEM and DER of one certificate are the same certificate, and DER round-trips")
    func derRoundTrips() throws {
        let pem = try PKI.certificate("leaf-rsa.pem")
        let der = try PKI.data("leaf-rsa.der")
        #expect(try pem.derRepresentation == der)
        #expect(try PKI.certificate("leaf-rsa.der").info == pem.info)
    }

    @Test("concatenated DER certificates all load")
    func loadsConcatenatedDER() throws {
        let one = try PKI.certificate("intermediate-ca.pem").derRepresentation
        let two = try PKI.certificate("root-ca.pem").derRepresentation
        #expect(try X509Certificate.load(from: one + two).map(\.info.serialNumber) == ["2000", "1000"])
    }

    @Test("other PEM blocks around certificates are skipped")
    func skipsOtherPEMBlocks() throws {
        let mixed = try PKI.data("leaf-rsa.key") + PKI.data("leaf-rsa.pem") + PKI.data("leaf-ec.key")
        #expect(try X509Certificate.load(from: mixed).map(\.info.serialNumber) == ["3001"])
    }

    @Test("a file with no certificate throws noCertificate", arguments: ["leaf-rsa.key", "passphrase.txt"])
    func rejectsFileWithoutCertificate(file: String) throws {
        let data = try PKI.data(file)
        #expect(throws: AASAError.self) { try X509Certificate.load(from: data) }
    }

    @Test("no certificate in empty or key-only PEM is noCertificate")
    func noCertificate() throws {
        #expect(throws: AASAError(.noCertificate, "")) { try X509Certificate.load(from: Data()) }
        #expect(throws: AASAError(.noCertificate, "")) { try X509Certificate.load(from: PKI.data("leaf-rsa.key")) }
    }

    @Test("a damaged certificate throws unreadableCertificate")
    func rejectsDamagedCertificate() throws {
        let der = try PKI.data("leaf-rsa.der")
        #expect(throws: AASAError(.unreadableCertificate, "")) {
            try X509Certificate.load(from: der.prefix(der.count - 10))
        }
        #expect(throws: AASAError(.unreadableCertificate, "")) {
            try X509Certificate.load(from: Data("not a certificate".utf8))
        }
        let pem = String(decoding: try PKI.data("leaf-rsa.pem"), as: UTF8.self)
        var lines = pem.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeSubrange(2..<6)
        #expect(throws: AASAError(.unreadableCertificate, "")) {
            try X509Certificate.load(from: Data(lines.joined(separator: "\n").utf8))
        }
    }

    // MARK: CertificateInfo

    struct InfoCase: Sendable, CustomTestStringConvertible {
        var file: String
        var subject: String
        var issuer: String
        var serial: String
        var notBefore: TimeInterval
        var notAfter: TimeInterval
        var names: [String]
        var usage: [String]?
        var keyType: String
        var bits: Int
        var curve: String?
        var isCA: Bool
        var selfSigned: Bool
        var testDescription: String { file }
    }

    static let root = "O=aasa test PKI, CN=AASA Test Root CA"
    static let intermediate = "O=aasa test PKI, CN=AASA Test Intermediate CA"
    static let longStart: TimeInterval = 1_577_836_800  // 2020-01-01T00:00:00Z
    static let longEnd: TimeInterval = 4_102_444_799  // 2099-12-31T23:59:59Z
    static let caStart: TimeInterval = 1_262_304_000  // 2010-01-01T00:00:00Z

    static let infoCases: [InfoCase] = [
        InfoCase(
            file: "leaf-rsa.pem", subject: "CN=example.com", issuer: intermediate, serial: "3001", notBefore: longStart,
            notAfter: longEnd, names: ["DNS:example.com", "DNS:www.example.com"], usage: ["serverAuth"], keyType: "RSA",
            bits: 2048, curve: nil, isCA: false, selfSigned: false),
        InfoCase(
            file: "leaf-ec.pem", subject: "CN=example.com", issuer: intermediate, serial: "3002", notBefore: longStart,
            notAfter: longEnd, names: ["DNS:example.com", "DNS:www.example.com"], usage: ["serverAuth"], keyType: "EC",
            bits: 256, curve: "prime256v1", isCA: false, selfSigned: false),
        InfoCase(
            file: "leaf-ec384.pem", subject: "CN=example.com", issuer: intermediate, serial: "3003",
            notBefore: longStart,
            notAfter: longEnd, names: ["DNS:example.com", "DNS:www.example.com"], usage: ["serverAuth"], keyType: "EC",
            bits: 384, curve: "secp384r1", isCA: false, selfSigned: false),
        InfoCase(
            file: "leaf-wildcard.pem", subject: "CN=*.example.com", issuer: intermediate, serial: "3004",
            notBefore: longStart, notAfter: longEnd, names: ["DNS:*.example.com"], usage: ["serverAuth"],
            keyType: "RSA",
            bits: 2048, curve: nil, isCA: false, selfSigned: false),
        InfoCase(
            file: "leaf-expired.pem", subject: "CN=expired.example.com", issuer: intermediate, serial: "3005",
            notBefore: 1_420_070_400, notAfter: 1_451_606_400, names: ["DNS:expired.example.com", "DNS:example.com"],
            usage: ["serverAuth"], keyType: "RSA", bits: 2048, curve: nil, isCA: false, selfSigned: false),
        InfoCase(
            file: "leaf-client-auth.pem", subject: "CN=example.com", issuer: intermediate, serial: "3008",
            notBefore: longStart, notAfter: longEnd, names: ["DNS:example.com", "DNS:www.example.com"],
            usage: ["clientAuth"], keyType: "RSA", bits: 2048, curve: nil, isCA: false, selfSigned: false),
        InfoCase(
            file: "leaf-untrusted.pem", subject: "CN=example.com", issuer: "O=aasa test PKI, CN=AASA Untrusted Root CA",
            serial: "9001", notBefore: longStart, notAfter: longEnd, names: ["DNS:example.com", "DNS:www.example.com"],
            usage: ["serverAuth"], keyType: "RSA", bits: 2048, curve: nil, isCA: false, selfSigned: false),
        InfoCase(
            file: "self-signed.pem", subject: "CN=example.com", issuer: "CN=example.com", serial: "4001",
            notBefore: longStart, notAfter: longEnd, names: ["DNS:example.com"], usage: ["serverAuth"], keyType: "RSA",
            bits: 2048, curve: nil, isCA: false, selfSigned: true),
        InfoCase(
            file: "root-ca.pem", subject: root, issuer: root, serial: "1000", notBefore: caStart, notAfter: longEnd,
            names: [], usage: nil, keyType: "RSA", bits: 2048, curve: nil, isCA: true, selfSigned: true),
        InfoCase(
            file: "intermediate-ca.pem", subject: intermediate, issuer: root, serial: "2000", notBefore: caStart,
            notAfter: longEnd, names: [], usage: nil, keyType: "RSA", bits: 2048, curve: nil, isCA: true,
            selfSigned: false),
    ]

    @Test("CertificateInfo reports what the certificate says", arguments: infoCases)
    func certificateInfo(case expected: InfoCase) throws {
        let info = try PKI.certificate(expected.file).info
        #expect(info.subject == expected.subject)
        #expect(info.issuer == expected.issuer)
        #expect(info.serialNumber == expected.serial)
        #expect(info.notBefore == Date(timeIntervalSince1970: expected.notBefore))
        #expect(info.notAfter == Date(timeIntervalSince1970: expected.notAfter))
        #expect(info.subjectAlternativeNames == expected.names)
        #expect(info.dnsNames == expected.names.map { String($0.dropFirst(4)) })
        #expect(info.extendedKeyUsage == expected.usage)
        #expect(info.keyType == expected.keyType)
        #expect(info.keyBits == expected.bits)
        #expect(info.curve == expected.curve)
        #expect(info.signatureAlgorithm == "sha256WithRSAEncryption")
        #expect(info.isCertificateAuthority == expected.isCA)
        #expect(info.isSelfSigned == expected.selfSigned)
    }

    @Test("fingerprints and serials agree with openssl x509", arguments: infoCases.map(\.file))
    func fingerprintsAgreeWithOpenSSL(file: String) throws {
        let info = try PKI.certificate(file).info
        try withScratchDirectory { scratch in
            func value(_ flag: [String]) throws -> String {
                let output = try OpenSSL.succeed(["x509", "-in", Paths.cert(file), "-noout"] + flag, in: scratch)
                let text = String(decoding: output.stdout, as: UTF8.self).trimmingCharacters(
                    in: .whitespacesAndNewlines)
                return String(text[text.index(after: try #require(text.firstIndex(of: "=")))...])
            }
            let sha256 = try value(["-fingerprint", "-sha256"])
            let sha1 = try value(["-fingerprint", "-sha1"])
            let serial = try value(["-serial"])
            #expect(info.sha256Fingerprint == sha256)
            #expect(info.sha1Fingerprint == sha1)
            #expect(info.serialNumber == serial)
            #expect(info.sha256Fingerprint.count == 32 * 3 - 1)
        }
    }

    @Test("different certificates have different fingerprints; the twin shares only issuer and serial")
    func twinDiffersOnlyInKey() throws {
        let leaf = try PKI.certificate("leaf-rsa.pem").info
        let twin = try PKI.certificate("leaf-rsa-twin.pem").info
        #expect(leaf.issuer == twin.issuer)
        #expect(leaf.serialNumber == twin.serialNumber)
        #expect(leaf.subject == twin.subject)
        #expect(leaf.sha256Fingerprint != twin.sha256Fingerprint)
        #expect(leaf.sha1Fingerprint != twin.sha1Fingerprint)
        #expect(leaf != twin)
    }

    @Test("keyDescription names RSA sizes and NIST curves")
    func keyDescriptions() throws {
        #expect(try PKI.certificate("leaf-rsa.pem").info.keyDescription == "RSA 2048")
        #expect(try PKI.certificate("leaf-ec.pem").info.keyDescription == "EC P-256 (prime256v1)")
        #expect(try PKI.certificate("leaf-ec384.pem").info.keyDescription == "EC P-384 (secp384r1)")
        #expect(try PKI.certificate("leaf-rsa.pem").description == "CN=example.com")
    }

    @Test("isValid(at:) includes both ends of the validity period")
    func validityBoundaries() throws {
        let info = try PKI.certificate("leaf-expired.pem").info
        #expect(info.isValid(at: Times.june2015))
        #expect(info.isValid(at: info.notBefore))
        #expect(info.isValid(at: info.notAfter))
        #expect(!info.isValid(at: info.notBefore.addingTimeInterval(-1)))
        #expect(!info.isValid(at: info.notAfter.addingTimeInterval(1)))
        #expect(!info.isValid(at: Times.y2025))
    }

    @Test(
        "isValid(forHost:) checks subjectAltName DNS names like TLS",
        arguments: [
            ("leaf-rsa.pem", "example.com", true), ("leaf-rsa.pem", "www.example.com", true),
            ("leaf-rsa.pem", "WWW.EXAMPLE.COM", true), ("leaf-rsa.pem", "other.example.net", false),
            ("leaf-rsa.pem", "a.www.example.com", false), ("leaf-rsa.pem", "example.co", false),
            ("leaf-wildcard.pem", "a.example.com", true), ("leaf-wildcard.pem", "www.example.com", true),
            ("leaf-wildcard.pem", "a.b.example.com", false), ("leaf-wildcard.pem", "example.com", false),
            ("leaf-other-domain.pem", "other.example.org", true), ("leaf-other-domain.pem", "example.com", false),
            ("root-ca.pem", "AASA Test Root CA", false),
        ])
    func hostMatching(file: String, host: String, matches: Bool) throws {
        #expect(try PKI.certificate(file).isValid(forHost: host) == matches)
    }

    @Test("the subject CN is not used for host matching")
    func subjectCommonNameIsIgnored() throws {
        try withScratchDirectory { scratch in
            try OpenSSL.succeed(
                [
                    "req", "-x509", "-new", "-key", Paths.cert("leaf-rsa.key"), "-subj", "/CN=cn-only.example.com",
                    "-days",
                    "1", "-out", "cn.pem",
                ], in: scratch)
            let certificate = try #require(try X509Certificate.load(from: scratch.read("cn.pem")).first)
            #expect(certificate.info.subject == "CN=cn-only.example.com")
            #expect(!certificate.isValid(forHost: "cn-only.example.com"))
        }
    }
}
