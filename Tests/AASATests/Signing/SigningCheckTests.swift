import AASA
// SigningCheck warns about legal but probably unintended signatures.
import Foundation
import Testing

@Suite("Signing checks")
struct SigningCheckTests {
    static let json = Data("{\n  \"applinks\": {\"apps\": [], \"details\": []}\n}\n".utf8)

    @Test("a good identity, small JSON and SHA-256 give no warning")
    func noWarnings() throws {
        let checks = SigningCheck.checks(
            content: Self.json, identity: try PKI.identity("leaf-rsa"), options: SigningOptions(), at: Times.y2025)
        #expect(checks.isEmpty)
    }

    @Test("an expired signer certificate is reported")
    func expiredCertificate() throws {
        let identity = try PKI.identity("leaf-expired")
        let checks = SigningCheck.checks(
            content: Self.json, identity: identity, options: SigningOptions(), at: Times.y2025)
        #expect(checks == [.certificateNotValid(identity.certificate.info, at: Times.y2025)])
        #expect(checks.first?.description.contains("expired at 2016-01-01T00:00:00Z") == true)
        // ...but not while it was valid.
        #expect(
            SigningCheck.checks(content: Self.json, identity: identity, options: SigningOptions(), at: Times.june2015)
                .isEmpty)
    }

    @Test("the default time is now: leaf-expired is reported without a time")
    func defaultTimeIsNow() throws {
        let checks = SigningCheck.checks(
            content: Self.json, identity: try PKI.identity("leaf-expired"), options: SigningOptions())
        #expect(checks.count == 1)
        guard case .certificateNotValid = checks.first else {
            Issue.record("expected certificateNotValid, got \(checks)")
            return
        }
    }

    @Test("a not-yet-valid signer certificate is reported")
    func notYetValidCertificate() throws {
        let identity = try PKI.identity("leaf-not-yet-valid")
        let checks = SigningCheck.checks(
            content: Self.json, identity: identity, options: SigningOptions(), at: Times.y2025)
        #expect(checks == [.certificateNotValid(identity.certificate.info, at: Times.y2025)])
        #expect(checks.first?.description.contains("not valid until 2090-01-01T00:00:00Z") == true)
    }

    @Test("content over 128 KB is reported, content of exactly 128 KB is not")
    func contentSize() throws {
        let identity = try PKI.identity("leaf-rsa")
        let exact = Inputs.largeJSON(size: SigningCheck.maximumContentSize)
        #expect(exact.count == 131_072)
        #expect(
            SigningCheck.checks(content: exact, identity: identity, options: SigningOptions(), at: Times.y2025).isEmpty)
        let over = Inputs.largeJSON(size: SigningCheck.maximumContentSize + 1)
        let checks = SigningCheck.checks(content: over, identity: identity, options: SigningOptions(), at: Times.y2025)
        #expect(checks == [.contentTooLarge(bytes: 131_073)])
        #expect(checks.first?.description.contains("131073") == true)
    }

    @Test("content that is not JSON is reported", arguments: ["", "hello", "{\"a\": ", "<html/>"])
    func notJSON(text: String) throws {
        let checks = SigningCheck.checks(
            content: Data(text.utf8), identity: try PKI.identity("leaf-rsa"), options: SigningOptions(), at: Times.y2025
        )
        #expect(checks.count == 1)
        guard case .contentNotJSON = checks.first else {
            Issue.record("expected contentNotJSON, got \(checks)")
            return
        }
    }

    @Test("already-signed content is reported as already signed (the CLI refuses it)")
    func signedContentIsAlreadySigned() throws {
        let identity = try PKI.identity("leaf-rsa")
        let signed = try identity.sign(Self.json)
        let checks = SigningCheck.checks(
            content: signed, identity: identity, options: SigningOptions(), at: Times.y2025)
        #expect(checks == [.contentAlreadySigned(.pkcs7DER)])
        #expect(checks.first?.description.contains("already a signed file (pkcs7-der)") == true)
    }

    @Test("SHA-1 is reported, other digests are not", arguments: DigestAlgorithm.allCases)
    func weakDigest(digest: DigestAlgorithm) throws {
        let checks = SigningCheck.checks(
            content: Self.json, identity: try PKI.identity("leaf-rsa"), options: SigningOptions(digest: digest),
            at: Times.y2025)
        #expect(checks == (digest == .sha1 ? [.weakDigest] : []))
    }

    @Test("several problems are all reported")
    func severalProblems() throws {
        let identity = try PKI.identity("leaf-expired")
        let content = Data(repeating: 0x41, count: 200_000)
        let checks = SigningCheck.checks(
            content: content, identity: identity, options: SigningOptions(digest: .sha1), at: Times.y2025)
        #expect(checks.count == 4)
        #expect(checks.contains(.weakDigest))
        #expect(checks.contains(.contentTooLarge(bytes: 200_000)))
        #expect(checks.contains(.certificateNotValid(identity.certificate.info, at: Times.y2025)))
    }

    @Test("the default signing options are the historical recipe")
    func defaultOptionsAreTheRecipe() {
        let options = SigningOptions()
        #expect(options.digest == .sha256)
        #expect(options.binary == false)
        #expect(options.signedAttributes == false)
        #expect(options.encoding == .der)
    }
}
