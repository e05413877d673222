import AASA
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let report = Linter.lint(data)
    for diagnostic in report.diagnostics {
        // Every finding names a rule and a place.
        _ = diagnostic.location.path.description
        _ = diagnostic.rule.summary
        // What the text output shows of it is one line, safe on a terminal (issue #15).
        for text in [diagnostic.message, diagnostic.location.path.description] {
            let shown = TerminalText.line(text)
            if !TerminalText.isSafe(shown) || shown.contains("\n") { fatalError("unsafe text output: \(shown)") }
        }
    }
    // Whatever the bytes, their escaped form is safe.
    if !TerminalText.isSafe(TerminalText.line(String(decoding: data, as: UTF8.self))) {
        fatalError("TerminalText.line left a control character")
    }
    if let document = report.document {
        let matcher = URLMatcher(document: document)
        for url in ["https://example.com/", "/a/b?c=d#e", "https://example.com/%2F%E2%82%AC?x", "/\(count)"] {
            let result = matcher.evaluate(url, explain: true)
            for app in result.apps {
                if let summary = app.explanation?.summary, !TerminalText.isSafe(TerminalText.line(summary)) {
                    fatalError("unsafe explanation")
                }
            }
        }
        _ = DeprecationReport(lint: report)
    }
    return 0
}
