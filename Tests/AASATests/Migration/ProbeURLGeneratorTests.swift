import AASATestSupport
// ProbeURLGenerator: every pattern instantiated, near misses around it, query items present,
// absent and empty, variables, the cap, and a stable order.
import Foundation
import Testing

@testable import AASA

@Suite("ProbeURLGenerator")
struct ProbeURLGeneratorTests {
    private func document(_ json: String) throws -> AASADocument { try AASADocument(json: Data(json.utf8)) }

    private func probes(_ json: String, maximum: Int = 100_000) throws -> ProbeSet {
        ProbeURLGenerator(maximumCount: maximum).probes(for: [try document(json)])
    }

    private func components(_ rules: String, variables: String = "{}") -> String {
        """
        {"applinks": {"substitutionVariables": \(variables),
          "details": [{"appIDs": ["A.app"], "components": \(rules)}]}}
        """
    }

    @Test("* is tried as nothing, one character and several segments; ? as one character")
    func wildcards() throws {
        let urls = Set(try probes(components(#"[{"/": "/a/*/b?"}]"#)).urls)
        for url in ["/a//ba", "/a/x/ba", "/a/abc/def/ba"] { #expect(urls.contains(url), "\(url)") }
    }

    @Test("near misses: a character less and more, other case, trailing slash, percent-encoding, query and fragment")
    func nearMisses() throws {
        let urls = Set(try probes(components(#"[{"/": "/Help"}]"#)).urls)
        let expected = [
            "/Help", "/Hel", "/Helpx", "/xHelp", "/HELP", "/help", "/Help/", "/%48elp",
            "/Help?q=1", "/Help#frag", "/Help?q=1#frag", "/help?q=1",
        ]
        for url in expected { #expect(urls.contains(url), "\(url)") }
    }

    @Test("a trailing slash is removed as a near miss; an escape is decoded")
    func slashAndEscape() throws {
        let urls = Set(try probes(components(#"[{"/": "/caf%C3%A9/"}, {"/": "/a%2Fb"}]"#)).urls)
        #expect(urls.contains("/caf%C3%A9"))
        #expect(urls.contains("/a/b"))
    }

    @Test("variables: built-ins as a member, custom ones as their first values")
    func variables() throws {
        let json = components(
            #"[{"/": "/$(lang)_$(region)/$(digit)"}, {"/": "/menu/$(food)"}]"#,
            variables: #"{"food": ["taco", "b*x", "c?t", "never"]}"#)
        let urls = Set(try probes(json).urls)
        for url in ["/en_US/0", "/menu/taco", "/menu/bxx", "/menu/cat"] { #expect(urls.contains(url), "\(url)") }
        #expect(!urls.contains("/menu/never"))
    }

    @Test("legacy paths: NOT removed, $( kept literally")
    func legacyPaths() throws {
        let json = #"{"applinks": {"details": [{"appID": "A.app", "paths": ["NOT /private/*", "/$(lang)/x"]}]}}"#
        let set = try probes(json)
        let urls = Set(set.urls)
        #expect(urls.contains("/private/x"))
        #expect(urls.contains("/$(lang)/x"))
        #expect(!urls.contains("/en/x"))
        #expect(set.patternCount == 2)
    }

    @Test("query dictionary: every item present, absent, empty, without '=', other case, other value, extra item")
    func queryItems() throws {
        let urls = Set(try probes(components(#"[{"/": "/p", "?": {"id": "?*", "ref": "mail"}}]"#)).urls)
        let expected = [
            "/p?id=a&ref=mail", "/p?ref=mail", "/p?id=a", "/p?id=&ref=mail", "/p?id&ref=mail", "/p?ID=a&ref=mail",
            "/p?id=a&ref=mai", "/p?id=a&ref=mailx", "/p?id=a&ref=mail&id=other", "/p?id=a&ref=mail&zz=1", "/p",
        ]
        for url in expected { #expect(urls.contains(url), "\(url)") }
    }

    @Test("query string and fragment patterns: instantiated, one edit away, absent")
    func queryAndFragment() throws {
        let urls = Set(try probes(components(##"[{"/": "/p", "?": "a=*", "#": "sec?"}]"##)).urls)
        for url in ["/p?a=#seca", "/p?a=x#seca", "/p?a#seca", "/p#seca", "/p?a=", "/p?a=#sec", "/p?a=#SECA"] {
            #expect(urls.contains(url), "\(url)")
        }
    }

    @Test("no repeats, a stable order, and the generic probes")
    func stable() throws {
        let json = components(#"[{"/": "/a/*"}, {"/": "/a/*"}, {"/": "/b", "?": {"x": "1"}}]"#)
        let first = try probes(json).urls
        #expect(first == (try probes(json).urls))
        #expect(Set(first).count == first.count)
        #expect(Array(first.prefix(2)) == ["/", "/x"])
    }

    @Test("the cap: at most maximumCount probes, and the set says it was cut")
    func cap() throws {
        let set = try probes(components(#"[{"/": "/a/*/b/*/c/*"}, {"/": "/d/*"}]"#), maximum: 25)
        #expect(set.urls.count == 25)
        #expect(set.truncated)
        #expect(!(try probes(components(#"[{"/": "/a"}]"#))).truncated)
    }

    /// The budget of URL-pattern comparisons, at its exact boundary: a budget of exactly
    /// (probes available × patterns) keeps them all; one pattern's worth less cuts one probe.
    @Test("the comparison budget: probes × patterns at most the budget, cut at the exact boundary, never below 100")
    func comparisonBudget() throws {
        let paths = (0..<40).map { #""/p\#($0)/*""# }.joined(separator: ",")
        let doc = try document(#"{"applinks": {"details": [{"appID": "A.app", "paths": ["# + paths + "]}]}}")
        let patterns = ProbeURLGenerator.patternCount(of: [doc])
        #expect(patterns == 40)
        let all = ProbeURLGenerator(comparisonBudget: .max).probes(for: [doc])
        try #require(!all.truncated && all.urls.count > 101, "\(all.urls.count) probes")
        let exact = ProbeURLGenerator(comparisonBudget: all.urls.count * patterns).probes(for: [doc])
        #expect(exact.urls == all.urls)
        #expect(!exact.truncated)
        let less = ProbeURLGenerator(comparisonBudget: (all.urls.count - 1) * patterns).probes(for: [doc])
        #expect(less.urls == Array(all.urls.dropLast()))
        #expect(less.truncated)
        let tiny = ProbeURLGenerator(comparisonBudget: 1).probes(for: [doc])
        #expect(tiny.urls.count == 100 && tiny.truncated, "the floor of 100 probes")
    }

    @Test("probes come from every document given")
    func severalDocuments() throws {
        let a = try document(components(#"[{"/": "/only-in-a"}]"#))
        let b = try document(components(#"[{"/": "/only-in-b"}]"#))
        let urls = Set(ProbeURLGenerator().probes(for: [a, b]).urls)
        #expect(urls.contains("/only-in-a"))
        #expect(urls.contains("/only-in-b"))
    }

    @Test("every probe of the real corpus is a URL the matcher can read")
    func corpusProbesParse() throws {
        var documents = 0
        var probes = 0
        for name in RealWorldCorpus.plainNames {
            let data = try Data(contentsOf: Paths.realPlain.appendingPathComponent(name))
            let document = try AASADocument(json: data)
            documents += 1
            let matcher = URLMatcher(document: document)
            for url in ProbeURLGenerator().probes(for: [document]).urls {
                probes += 1
                #expect(matcher.evaluate(url).error == nil, "\(name): \(url)")
            }
        }
        // Every file of the corpus is a document, and together they yield probes to check.
        #expect(documents == RealWorldCorpus.expectedPlainCount)
        #expect(probes > 100, "only \(probes) probe URLs over the corpus")
    }
}
