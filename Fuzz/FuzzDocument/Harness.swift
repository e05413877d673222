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
    }
    if let document = report.document {
        let matcher = URLMatcher(document: document)
        for url in ["https://example.com/", "/a/b?c=d#e", "https://example.com/%2F%E2%82%AC?x", "/\(count)"] {
            _ = matcher.evaluate(url, explain: true)
        }
        _ = DeprecationReport(lint: report)
    }
    return 0
}
