import AASA
import Foundation

/// A document that uses every pattern feature: components with each key, query dictionaries,
/// defaults at three levels, custom and built-in variables, legacy paths with NOT.
private let matcher: URLMatcher = {
    let json = #"""
        {
          "applinks": {
            "defaults": { "caseSensitive": false },
            "substitutionVariables": { "food": ["burrito", "taco*", "p?zza"], "empty": [] },
            "details": [
              {
                "appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.other"],
                "defaults": { "percentEncoded": false },
                "components": [
                  { "/": "/help/*", "#": "no_universal_links", "exclude": true },
                  { "/": "/$(lang)_$(region)/$(food)/*", "?": { "ref": "?*", "id": "$(digit)$(digit)" } },
                  { "/": "/a/*/b/?/c*", "caseSensitive": true },
                  { "/": "*/shop/*", "?": "*x=*", "percentEncoded": true },
                  { "#": "frag*" }
                ]
              },
              { "appID": "ABCDE12345.com.example.legacy", "paths": ["NOT /legacy/admin/*", "/legacy/*", "/x?y/*"] }
            ]
          }
        }
        """#
    let document = try! AASADocument(json: Data(json.utf8))
    return URLMatcher(document: document)
}()

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    let url = String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
    let plain = matcher.evaluate(url)
    let explained = matcher.evaluate(url, explain: true)
    // Explaining must never change the verdict.
    if plain.appID != explained.appID || plain.apps.map(\.verdict) != explained.apps.map(\.verdict) {
        fatalError("--explain changed the verdict for \(url.debugDescription)")
    }
    // The verdict-only path (aasa match's text output) must decide the same.
    var verdicts: [AppVerdict.Verdict] = []
    let error = matcher.verdicts(for: url, into: &verdicts)
    if error != plain.error || verdicts != plain.apps.map(\.verdict) {
        fatalError("verdicts(for:into:) disagrees with evaluate for \(url.debugDescription)")
    }
    return 0
}
