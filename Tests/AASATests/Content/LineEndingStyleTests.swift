import AASA
// LineEndingStyle classifies line ends; crlfToLF undoes OpenSSL's text-mode canonicalisation.
import Foundation
import Testing

@Suite("Line endings")
struct LineEndingStyleTests {
    @Test(
        "LineEndingStyle.of classifies",
        arguments: [
            ("", LineEndingStyle.none), ("{}", .none), ("a\nb\n", .lf), ("\n", .lf), ("a\r\nb\r\n", .crlf),
            ("\r\n", .crlf), ("a\r\nb", .crlf), ("a\r\nb\n", .mixed), ("a\rb", .mixed), ("a\r", .mixed), ("\r", .mixed),
            ("\r\r\n", .mixed), ("a\n\r", .mixed), ("a\nb\r\n", .mixed), ("\n\n\n", .lf), ("\r\n\r\n", .crlf),
        ])
    func classifies(text: String, style: LineEndingStyle) {
        #expect(LineEndingStyle.of(Data(text.utf8)) == style)
    }

    @Test(
        "crlfToLF turns CRLF into LF and keeps lone CRs and LFs",
        arguments: [
            ("", ""), ("abc", "abc"), ("a\r\nb", "a\nb"), ("a\r\nb\r\n", "a\nb\n"), ("\r\r\n", "\r\n"), ("a\r", "a\r"),
            ("\r", "\r"), ("a\rb", "a\rb"), ("a\n\r", "a\n\r"), ("\r\n\r\n", "\n\n"), ("a\nb", "a\nb"),
            ("\r\r", "\r\r"), ("x\r\r\r\ny", "x\r\r\ny"),
        ])
    func crlfToLF(input: String, output: String) {
        #expect(LineEndingStyle.crlfToLF(Data(input.utf8)) == Data(output.utf8))
    }

    @Test("crlfToLF undoes LF → CRLF for every LF-only input", arguments: Inputs.all)
    func crlfToLFUndoesCanonicalisation(input: NamedInput) {
        guard !input.bytes.contains(0x0D) else { return }
        let crlf = lfToCRLF(input.bytes)
        #expect(LineEndingStyle.crlfToLF(crlf) == input.bytes)
        if input.bytes.contains(0x0A) {
            #expect(LineEndingStyle.of(crlf) == .crlf)
            #expect(LineEndingStyle.of(input.bytes) == .lf)
        } else {
            #expect(LineEndingStyle.of(crlf) == .none)
        }
    }

    @Test("crlfToLF works on a Data slice that does not start at index 0")
    func crlfToLFOnSlice() {
        let data = Data("xx\r\nyy\r\n".utf8)
        #expect(LineEndingStyle.crlfToLF(data.dropFirst(2)) == Data("\nyy\n".utf8))
        #expect(LineEndingStyle.of(data.dropFirst(4)) == .crlf)
        #expect(LineEndingStyle.of(data.dropFirst(3)) == .mixed)
    }

    @Test("raw values are stable")
    func rawValues() {
        #expect([LineEndingStyle.crlf, .lf, .mixed, .none].map(\.rawValue) == ["crlf", "lf", "mixed", "none"])
    }
}
