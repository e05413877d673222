import AASA
import AASATestSupport
import Foundation
import Testing

/// `AASAFile.read`: the one way an AASA file is read (issue #14), for every kind of input.
@Suite("AASAFile: reading an AASA file")
struct AASAFileTests {
    static let json = Data(
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a/*"}]}]}}"#.utf8)

    @Test("plain JSON: the file is the content, parsed once, no problem")
    func plain() throws {
        let file = AASAFile.read(Self.json)
        #expect(file.kind == .json)
        #expect(file.problem == nil)
        #expect(file.content == Self.json)
        #expect(file.hasByteOrderMark == false)
        #expect(try file.document().appLinks?.details.count == 1)
    }

    @Test("a byte-order mark is read past and reported, the content keeps it")
    func byteOrderMark() throws {
        let data = Data(AASAFile.byteOrderMark) + Self.json
        let file = AASAFile.read(data)
        #expect(file.hasByteOrderMark)
        #expect(file.content == data)
        #expect(file.body == Self.json)
        #expect(try file.object().members != nil)
    }

    @Test("a signed file: its embedded content, unverified, CRLF as OpenSSL stored it", arguments: ["DER", "PEM", nil])
    func signed(outform: String?) throws {
        let scratch = try ScratchDirectory()
        var request = OpenSSL.SignRequest()
        request.outform = outform
        let signed = try OpenSSL.sign(Self.json + Data("\n".utf8), request, in: scratch)
        let file = AASAFile.read(signed)
        #expect(file.kind.isSigned)
        #expect(file.message != nil)
        #expect(file.problem == nil)
        #expect(file.content == Self.json + Data("\r\n".utf8))
        let appIDs = try file.document().appLinks?.details.first?.appIDs ?? []
        #expect(appIDs.map(\.value) == ["ABCDE12345.com.example.app"])
    }

    @Test("a detached signature has no content to read")
    func detached() throws {
        let scratch = try ScratchDirectory()
        var request = OpenSSL.SignRequest()
        request.nodetach = false
        let file = AASAFile.read(try OpenSSL.sign(Self.json, request, in: scratch))
        #expect(file.kind == .pkcs7DER)
        #expect(file.problem == .detachedSignature)
        #expect(file.root == nil && file.content == nil)
        #expect(throws: AASAReadError.self) { try file.json() }
    }

    @Test("SignedData whose content is not data: the reason detection gives, no content")
    func digestedContent() throws {
        let data = try Data(contentsOf: Repository.fixtures.appendingPathComponent("policy/files/digested-data.p7m"))
        let file = AASAFile.read(data)
        guard case .unusableContent(let reason) = file.problem else {
            Issue.record("expected unusableContent, got \(String(describing: file.problem))")
            return
        }
        #expect(reason.contains("DigestedData"))
        #expect(Linter.lint(data).diagnostics.contains { $0.message.contains("DigestedData") })
    }

    @Test("PKCS#7 or CMS that is not SignedData says so")
    func notSignedData() throws {
        let data = try Data(
            contentsOf: Repository.fixtures.appendingPathComponent("policy/files/cms-auth-enveloped.der"))
        let file = AASAFile.read(data)
        #expect(file.kind == .pkcs7Other)
        #expect(file.problem == .notSignedData("PKCS#7 id-smime-ct-authEnvelopedData, not SignedData"))
    }

    @Test("a SignedData ContentInfo without its content field is damaged PKCS#7")
    func missingContentField() throws {
        let data = try Data(
            contentsOf: Repository.fixtures.appendingPathComponent("policy/files/signed-data-without-content.der"))
        guard case .damagedPKCS7(.der, let reason) = AASAFile.read(data).problem else {
            Issue.record("expected damagedPKCS7")
            return
        }
        #expect(reason.contains("without its content"))
    }

    @Test("a truncated DER file is damaged PKCS#7, never parsed as JSON")
    func truncated() throws {
        let example = try Data(contentsOf: Repository.examples.appendingPathComponent("apple-app-site-association.p7m"))
        let file = AASAFile.read(example.prefix(200))
        guard case .damagedPKCS7(let encoding, _) = file.problem else {
            Issue.record("expected damagedPKCS7, got \(String(describing: file.problem))")
            return
        }
        #expect(encoding == .der)
        #expect(file.content == nil)
    }

    @Test("not JSON: the syntax error and where; signed content is named as such")
    func invalidJSON() throws {
        let file = AASAFile.read(Data("{\"applinks\": [".utf8))
        guard case .invalidJSON(let error, let inSigned) = file.problem else {
            Issue.record("expected invalidJSON, got \(String(describing: file.problem))")
            return
        }
        #expect(!inSigned)
        #expect(error.location.line == 1)
        #expect((try? file.json()) == nil)
        #expect(AASAReadError(file.problem!).description.hasPrefix("not JSON: "))
    }

    @Test("JSON whose top level is not an object: json() gives it, object() and document() refuse")
    func notAnObject() throws {
        let file = AASAFile.read(Data("[1, 2]".utf8))
        #expect(file.problem == nil)
        #expect(try file.json().typeName == "array")
        do {
            _ = try file.object()
            Issue.record("object() accepted an array")
        } catch {
            #expect(error.problem == .notAnObject("array"))
            #expect(error.description == "not an AASA document: the top level is array, not an object")
        }
    }

    @Test("the linter reads through AASAFile: the same report from bytes and from the file read")
    func linterAgrees() throws {
        for data in [Self.json, Data(AASAFile.byteOrderMark) + Self.json, Data("{".utf8), Data("[]".utf8)] {
            let fromBytes = Linter.lint(data)
            let fromFile = Linter.lint(AASAFile.read(data), size: data.count)
            #expect(fromBytes.diagnostics.map(\.rule) == fromFile.diagnostics.map(\.rule))
            #expect(fromBytes.json == fromFile.json)
        }
    }
}
