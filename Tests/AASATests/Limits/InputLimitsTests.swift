// InputLimits reach every place that parses untrusted input: detection (JSON depth and
// certificate count), the linter, the verifier and signing's content check.
import Foundation
import Testing

@testable import AASA

@Suite("Input limits")
struct InputLimitsTests {
    /// A valid document whose "x" member nests `depth - 1` arrays: `depth` levels in all.
    static func nested(depth: Int) -> Data {
        let levels = depth - 1
        return Data(
            (#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a/*"}]}]}, "x": "#
                + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "}").utf8)
    }

    /// `content` signed by leaf-rsa with the intermediate, the root and another leaf: 4 certificates.
    static func fourCertificates() throws -> Data {
        let chain =
            try PKI.certificates("chain.pem") + PKI.certificates("root-ca.pem") + PKI.certificates("leaf-ec.pem")
        let identity = try SigningIdentity(
            key: PKI.key("leaf-rsa.key"), certificate: PKI.certificate("leaf-rsa.pem"), chain: chain)
        return try identity.sign(TamperTests.content)
    }

    @Test("the defaults are the documented ones")
    func defaults() {
        let limits = InputLimits.default
        #expect(limits == InputLimits())
        #expect(limits.maximumJSONDepth == 512)
        #expect(limits.maximumCertificates == 256)
        #expect(limits.maximumURLLength == 8192)
        #expect(limits.jsonParser.maximumDepth == JSONParser().maximumDepth)
        #expect(SignedData.defaultMaximumCertificates == limits.maximumCertificates)
        #expect(LintOptions().limits == .default)
        #expect(VerificationOptions().limits == .default)
    }

    @Test("detection: the JSON depth limit decides, both ways")
    func detectionDepth() {
        let data = Self.nested(depth: 20)
        #expect(FileKindDetector.detect(data).kind == .json)
        #expect(FileKindDetector.detect(data, limits: InputLimits(maximumJSONDepth: 20)).kind == .json)
        let refused = FileKindDetector.detect(data, limits: InputLimits(maximumJSONDepth: 19))
        #expect(refused.kind == .unknown)
        #expect(refused.detail?.contains("deeper than 19") == true, "\(String(describing: refused.detail))")
        // Past the default, and raised.
        let deep = Self.nested(depth: 600)
        #expect(FileKindDetector.detect(deep).kind == .unknown)
        #expect(FileKindDetector.detect(deep, limits: InputLimits(maximumJSONDepth: 600)).kind == .json)
    }

    @Test("a million-deep array is refused at any limit, never a stack overflow")
    func millionDeep() {
        let data = Data(repeating: UInt8(ascii: "["), count: 1_000_000)
        let detection = FileKindDetector.detect(data, limits: InputLimits(maximumJSONDepth: 100_000))
        #expect(detection.kind == .unknown)
        #expect(detection.detail?.contains("deeper than 100000") == true, "\(String(describing: detection.detail))")
    }

    @Test("detection: the certificate limit decides, both ways")
    func detectionCertificates() throws {
        let data = try Self.fourCertificates()
        let accepted = FileKindDetector.detect(data, limits: InputLimits(maximumCertificates: 4))
        #expect(accepted.kind == .pkcs7DER)
        #expect(accepted.message?.certificates.count == 4)
        #expect(FileKindDetector.detect(data).kind == .pkcs7DER)
        let refused = FileKindDetector.detect(data, limits: InputLimits(maximumCertificates: 3))
        #expect(refused.kind == .unknown)
        #expect(refused.damagedPKCS7Encoding == .der)
        #expect(
            refused.detail?.contains("4 certificates, more than the limit of 3") == true,
            "\(String(describing: refused.detail))")
    }

    @Test("the verifier detects with its options' limits")
    func verifierLimits() throws {
        let data = try Self.fourCertificates()
        #expect(try PKI.verifier().verify(data).isValid)
        let at4 = try PKI.verifier(VerificationOptions(time: Times.y2025, limits: InputLimits(maximumCertificates: 4)))
        #expect(at4.verify(data).isValid)
        let at3 = try PKI.verifier(VerificationOptions(time: Times.y2025, limits: InputLimits(maximumCertificates: 3)))
        let result = at3.verify(data)
        #expect(result.verdict.code == "malformed", "\(result.verdict)")
        #expect(result.content == nil)
    }

    @Test("the linter parses and detects with its options' limits")
    func linterLimits() throws {
        let deep = Self.nested(depth: 600)
        let refused = Linter.lint(deep)
        #expect(refused.document == nil)
        #expect(refused.diagnostics.contains { $0.rule == .invalidJSON && $0.message.contains("deeper than 512") })
        let accepted = Linter.lint(deep, options: LintOptions(limits: InputLimits(maximumJSONDepth: 600)))
        #expect(accepted.document != nil)
        #expect(!accepted.diagnostics.contains { $0.rule == .invalidJSON })

        // A signed file: the certificate limit, then the embedded JSON.
        let signed = try Self.fourCertificates()
        #expect(Linter.lint(signed).document != nil)
        let tooMany = Linter.lint(signed, options: LintOptions(limits: InputLimits(maximumCertificates: 3)))
        #expect(tooMany.document == nil)
        #expect(
            tooMany.diagnostics.contains {
                $0.rule == .unreadableSignedFile && $0.message.contains("more than the limit of 3")
            })
    }

    @Test("signing's content check uses the depth limit")
    func signingCheckLimits() throws {
        let identity = try PKI.identity("leaf-rsa")
        let deep = Self.nested(depth: 600)
        let byDefault = SigningCheck.checks(
            content: deep, identity: identity, options: SigningOptions(), at: Times.y2025)
        #expect(byDefault.contains { if case .contentNotJSON = $0 { true } else { false } })
        let raised = SigningCheck.checks(
            content: deep, identity: identity, options: SigningOptions(), at: Times.y2025,
            limits: InputLimits(maximumJSONDepth: 600))
        #expect(!raised.contains { if case .contentNotJSON = $0 { true } else { false } })
    }
}
