import AASA
import Foundation
import Testing

/// `Converter`: the convert pipeline in the library (issue #14). The CLI's wording and exit
/// statuses are tested in ConvertCommandTests; here, what the library decides.
@Suite("Converter")
struct ConverterTests {
    static let json = Data(
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "paths": ["/a/*"]}]}}"#.utf8)

    static func converted(_ outcome: Converter.Outcome) throws -> Converter.Conversion {
        guard case .converted(let conversion) = outcome else {
            throw TestSupportError("expected a conversion, got \(outcome)")
        }
        return conversion
    }

    @Test("plain JSON becomes pretty JSON with the same meaning; compact on request")
    func plain() throws {
        let pretty = try Self.converted(try Converter(options: .init(verifier: nil)).convert(Self.json, named: true))
        #expect(pretty.source == "json" && pretty.verified && pretty.notes.isEmpty)
        #expect(try JSONParser().parse(pretty.json).isStructurallyEqual(to: try JSONParser().parse(Self.json)))
        #expect(pretty.json.contains(UInt8(ascii: "\n")))
        let compact = try Self.converted(
            try Converter(options: .init(verifier: nil, compact: true)).convert(Self.json, named: true))
        #expect(compact.json.filter { $0 == UInt8(ascii: "\n") }.count == 1, "one line")
    }

    @Test("a signed file, verified: its content with LF line ends; unverified when no verifier, with a warning")
    func signed() throws {
        let scratch = try ScratchDirectory()
        var request = OpenSSL.SignRequest()
        request.certfile = Paths.cert("chain.pem")
        let signed = try OpenSSL.sign(Self.json + Data("\n".utf8), request, in: scratch)
        let verified = try Self.converted(
            try Converter(options: .init(verifier: try PKI.verifier(), preserveFormat: true)).convert(
                signed, named: true))
        #expect(verified.verified && verified.source == "pkcs7-der, verified")
        #expect(verified.json == Self.json + Data("\n".utf8))
        let unverified = try Self.converted(
            try Converter(options: .init(verifier: nil, preserveFormat: true)).convert(signed, named: true))
        #expect(!unverified.verified && unverified.source == "pkcs7-der, unverified")
        #expect(unverified.notes.map(\.level) == [.warning])
    }

    @Test("a file that does not verify is a verification failure with its code, not an unreadable file")
    func untrusted() throws {
        let scratch = try ScratchDirectory()
        var request = OpenSSL.SignRequest()
        request.key = Paths.cert("leaf-untrusted.key")
        request.signer = Paths.cert("leaf-untrusted.pem")
        let signed = try OpenSSL.sign(Self.json, request, in: scratch)
        do {
            _ = try Converter(options: .init(verifier: try PKI.verifier())).convert(signed, named: true)
            Issue.record("an untrusted file was converted")
        } catch let error as Converter.Failure {
            #expect(error.isVerificationFailure)
            #expect(error.code == "untrusted")
            #expect(error.message.hasSuffix("nothing written"))
        }
    }

    @Test("in a directory walk, JSON that is not AASA is skipped; named, it is converted")
    func skipped() throws {
        let other = Data(#"{"name": "package.json"}"#.utf8)
        guard case .skipped(let reason) = try Converter(options: .init(verifier: nil)).convert(other, named: false)
        else {
            Issue.record("not skipped")
            return
        }
        #expect(reason.contains("not an AASA file"))
        _ = try Self.converted(try Converter(options: .init(verifier: nil)).convert(other, named: true))
    }

    @Test("a byte-order mark is removed, and said so")
    func byteOrderMark() throws {
        let conversion = try Self.converted(
            try Converter(options: .init(verifier: nil)).convert(Data(AASAFile.byteOrderMark) + Self.json, named: true))
        #expect(!conversion.json.starts(with: AASAFile.byteOrderMark))
        #expect(conversion.notes.map(\.level) == [.note])
        #expect(conversion.notes.map(\.message) == ["byte-order mark removed"])
    }

    @Test("bytes that look like JSON but do not parse are refused, whatever the walk")
    func invalid() throws {
        for named in [true, false] {
            #expect(throws: Converter.Failure.self) {
                try Converter(options: .init(verifier: nil)).convert(Data("{\"applinks\": ".utf8), named: named)
            }
        }
    }
}
