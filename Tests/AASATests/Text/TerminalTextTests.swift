import AASA
import Testing

/// `TerminalText`: the output sanitiser of every text writer (issue #15).
@Suite("TerminalText")
struct TerminalTextTests {
    @Test(
        "each dangerous character is shown as its code point",
        arguments: [
            ("a\nb", "a\\u{A}b"), ("a\rb", "a\\u{D}b"), ("a\tb", "a\\u{9}b"), ("\u{1B}[31mred", "\\u{1B}[31mred"),
            ("\u{7F}", "\\u{7F}"), ("\u{85}", "\\u{85}"), ("\u{9B}", "\\u{9B}"), ("\u{2028}", "\\u{2028}"),
            ("\u{2029}", "\\u{2029}"), ("\u{202E}evil", "\\u{202E}evil"), ("\u{202A}", "\\u{202A}"),
            ("\u{2066}x\u{2069}", "\\u{2066}x\\u{2069}"), ("\u{FEFF}", "\\u{FEFF}"), ("\u{0}", "\\u{0}"),
        ])
    func escapes(input: String, shown: String) {
        #expect(TerminalText.line(input) == shown)
        #expect(TerminalText.isSafe(TerminalText.line(input)))
        #expect(!TerminalText.isSafe(input))
    }

    @Test("text without such characters is unchanged, Unicode and backslashes included")
    func unchanged() {
        for text in ["plain", "/srv/www/apple-app-site-association", "C:\\path\\u0041", "été 日本 🙂", "\\u2028", ""] {
            #expect(TerminalText.line(text) == text)
        }
    }

    @Test("a backslash that starts \\u{ is doubled, so no escape can be forged")
    func forgedEscape() {
        #expect(TerminalText.line("\\u{1B}") == "\\\\u{1B}")
        #expect(TerminalText.line("\\u{1B}") != TerminalText.line("\u{1B}"))
        #expect(TerminalText.line("a\\u{") == "a\\\\u{")
        #expect(TerminalText.line("a\\u") == "a\\u")
    }

    @Test("every scalar from U+0000 to U+00FF and the bidi controls: safe after escaping, one line")
    func exhaustive() {
        var scalars = (0...0xFF).compactMap(Unicode.Scalar.init)
        scalars += (0x2028...0x202E).compactMap(Unicode.Scalar.init) + (0x2066...0x2069).compactMap(Unicode.Scalar.init)
        #expect(scalars.count == 256 + 7 + 4)
        for scalar in scalars {
            let shown = TerminalText.line("x" + String(Character(scalar)) + "y")
            #expect(TerminalText.isSafe(shown), "U+\(String(scalar.value, radix: 16))")
            #expect(!shown.contains("\n") && !shown.contains("\r"))
        }
    }
}
