import Foundation
import Testing

@testable import AASA

/// ``VerificationResult/contentDecision``: the one decision of "verified content, or why not"
/// that `extract`, `convert` (``Converter``) and a Swift program make alike.
@Suite("the content of a verified file, or why not")
struct ContentDecisionTests {
    @Test("valid: the content, no note; tampered: refused with the verdict's reason")
    func validAndTampered() throws {
        let signed = try PKI.identity("leaf-rsa").sign(TamperTests.content)
        let verifier = try PKI.verifier()
        // The embedded content is the MIME-canonical (CRLF) form the recipe signs.
        let embedded = Data(
            String(decoding: TamperTests.content, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
        #expect(verifier.verify(signed).contentDecision == .content(embedded, note: nil))
        var tampered = signed
        let target = try #require(tampered.range(of: Data("ABCDE12345".utf8)))
        tampered[target.lowerBound] = UInt8(ascii: "Z")
        let result = verifier.verify(tampered)
        #expect(result.verdict.code == "tampered")
        #expect(result.contentDecision == .refused(try #require(result.verdict.reason)))
        #expect(result.remedy == nil && result.refusal == result.verdict.reason)
    }

    @Test("plain JSON and what is not signed are nothing to take, not a failed check")
    func nothingToTake() throws {
        let verifier = try PKI.verifier()
        #expect(
            verifier.verify(TamperTests.content).contentDecision
                == .nothingToTake("the file is already plain JSON", alreadyPlainJSON: true))
        let garbage = verifier.verify(Data("not a signed file".utf8))
        guard case .nothingToTake(let reason, let alreadyPlainJSON) = garbage.contentDecision else {
            Issue.record("\(garbage.verdict): \(garbage.contentDecision)")
            return
        }
        #expect(!alreadyPlainJSON && reason == garbage.verdict.reason)
    }

    @Test("valid-then: the content with the note of how it was verified; without the mode, refused naming it")
    func validThen() throws {
        try withScratchDirectory { directory in
            let pki = try HistoricalVerificationTests.pki2015(in: directory)
            let signed = try pki.sign()
            let store = pki.store([HistoricalVerificationTests.period("2014-04-22", "2026-02-11", nil)])
            let then = try HistoricalVerificationTests.verifier(store).verify(signed)
            let note = try #require(then.historicalNote)
            #expect(then.contentDecision == .content(try #require(then.content), note: note))
            let now = try HistoricalVerificationTests.verifier(nil).verify(signed)
            guard case .refused(let reason) = now.contentDecision else {
                Issue.record("\(now.contentDecision)")
                return
            }
            // The reason says what is wrong; the remedy is a value, which the CLI words with its
            // flag, and `refusal` in the library's words: no command-line flag in either.
            #expect(reason == now.verdict.reason)
            #expect(now.remedy == .historicalMode)
            #expect(now.refusal == "\(reason) (a legacy file? the historical mode checks it as it was when signed)")
            #expect(!now.refusal.contains("--") && !note.contains("--"), "\(now.refusal) \(note)")
            #expect(then.remedy == nil)
        }
    }
}
