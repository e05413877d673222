import AASATestSupport
// The universal-link matcher: every rule of docs/matching.md, as tables of pattern, URL and
// verdict, plus real files from the corpus (Tests/Fixtures/corpus) with verdicts derived by hand.
import Foundation
import Testing

@testable import AASA

/// Builders for small AASA documents with one app, "A.app" (and a few with more).
private enum Doc {
    static let app = "A.app"

    /// A document whose only entry names A.app with `components` (JSON text of the array).
    static func components(
        _ components: String, defaults: String? = nil, entryDefaults: String? = nil, variables: String? = nil
    ) -> String {
        var applinks: [String] = []
        if let defaults { applinks.append("\"defaults\": \(defaults)") }
        if let variables { applinks.append("\"substitutionVariables\": \(variables)") }
        let entryDefaultsText = entryDefaults.map { ", \"defaults\": \($0)" } ?? ""
        applinks.append("\"details\": [{\"appIDs\": [\"\(app)\"], \"components\": \(components)\(entryDefaultsText)}]")
        return "{\"applinks\": {\(applinks.joined(separator: ", "))}}"
    }

    /// One rule with a path pattern.
    static func path(_ pattern: String, settings: String = "") -> String {
        components("[{\"/\": \(json(pattern))\(settings)}]")
    }

    /// A legacy entry with `paths`.
    static func paths(_ paths: [String], defaults: String? = nil) -> String {
        let list = paths.map(json).joined(separator: ", ")
        let defaultsText = defaults.map { "\"defaults\": \($0), " } ?? ""
        return
            "{\"applinks\": {\(defaultsText)\"apps\": [], \"details\": [{\"appID\": \"\(app)\", \"paths\": [\(list)]}]}}"
    }

    static func json(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    static func matcher(_ json: String) throws -> URLMatcher {
        URLMatcher(document: try AASADocument(json: Data(json.utf8)))
    }

    /// A.app's verdict.
    static func verdict(_ json: String, _ url: String) throws -> AppVerdict.Verdict? {
        let result = try matcher(json).evaluate(url)
        return result.apps.first { $0.appID == app }?.verdict
    }
}

/// Tests/Fixtures/corpus/real-plain.
private let realPlain = RealWorldCorpus.plainFolder

@Suite("URLMatcher")
struct URLMatcherTests {
    // MARK: Path component

    @Test(
        "path patterns: whole component, wildcards, trailing and leading slashes, /* parent, empty path",
        arguments: [
            ("/docs/*", "/docs", true), ("/docs/*", "/docs/", true), ("/docs/*", "/docs/a/b", true),
            ("/docs/*", "/docsearch", false), ("/docs/*", "https://example.com/docs", true),
            ("/docs", "/docs/", true), ("/docs/", "/docs", true), ("/docs//", "/docs", true),
            ("/docs", "/docs//", true),
            ("docs", "/docs", true), ("docs/*", "/docs/x", true), ("docs/*", "/docs", true), ("$(digit)", "/7", true),
            ("/", "https://example.com", true), ("/", "https://example.com/", true),
            ("/", "https://example.com?x#y", true),
            ("/", "/a", false), ("/*", "https://example.com", true), ("*", "https://example.com", true),
            ("*", "/any/thing/at/all", true), ("/a", "/ab", false), ("/b", "/ab", false), ("/a", "/a?x=1#f", true),
            ("/a?c", "/abc", true), ("/a?c", "/ac", false), ("/a?c", "/abbc", false), ("/a*c", "/a/b/c", true),
            ("/a*c", "/a/b/cd", false), ("/*/edit", "/u/1/edit", true), ("/*.html", "/a/b.html", true),
            ("/??????????*", "/0123456789", true), ("/??????????*", "/012345678", false), ("/a", "/A", false),
            ("/", "https://example.com//", true), ("/a*b*c", "/aXbYbZc", true), ("/a*b*c", "/aXbYbZ", false),
        ])
    func pathPatterns(pattern: String, url: String, matches: Bool) throws {
        #expect(try Doc.verdict(Doc.path(pattern), url) == (matches ? .match : .noMatch))
    }

    // MARK: Case sensitivity

    @Test(
        "caseSensitive: applinks.defaults, entry defaults, rule; the innermost wins",
        arguments: [
            // (applinks.defaults, entry defaults, rule, URL, matches)  for "/Help/*"
            (nil, nil, nil, "/Help/x", true), (nil, nil, nil, "/help/x", false), (false, nil, nil, "/help/X", true),
            (false, true, nil, "/help/x", false), (false, true, nil, "/Help/x", true),
            (false, true, false, "/HELP/x", true),
            (nil, false, nil, "/HELP/X", true), (nil, false, true, "/help/x", false), (true, nil, false, "/hElP", true),
            (true, true, true, "/HELP", false), (false, false, false, "/hElP/a", true),
        ] as [(Bool?, Bool?, Bool?, String, Bool)])
    func caseSensitivityLevels(applinks: Bool?, entry: Bool?, rule: Bool?, url: String, matches: Bool) throws {
        func setting(_ value: Bool?) -> String? { value.map { "{\"caseSensitive\": \($0)}" } }
        let ruleSetting = rule.map { ", \"caseSensitive\": \($0)" } ?? ""
        let json = Doc.components(
            "[{\"/\": \"/Help/*\"\(ruleSetting)}]", defaults: setting(applinks), entryDefaults: setting(entry))
        #expect(try Doc.verdict(json, url) == (matches ? .match : .noMatch))
    }

    @Test(
        "case-insensitive matching folds the URL and the pattern, query names, values and fragment too",
        arguments: [
            ("[{\"/\": \"/ÉTÉ\", \"percentEncoded\": false}]", "/%C3%A9t%C3%A9", true),
            ("[{\"/\": \"/été\", \"percentEncoded\": false}]", "/%C3%89T%C3%89", true),
            ("[{\"/\": \"/a\", \"?\": {\"Ref\": \"ABC\"}}]", "/a?ref=abc", true),
            ("[{\"/\": \"/a\", \"?\": \"X=Y\"}]", "/a?x=y", true),
            ("[{\"/\": \"/a\", \"#\": \"Top\"}]", "/a#TOP", true),
            ("[{\"/\": \"/$(upper)\"}]", "/a", true),  // $(upper) and $(lower) mean "a letter"
            ("[{\"/\": \"/$(lower)\"}]", "/A", true),
            ("[{\"/\": \"/caf%c3%a9\"}]", "/caf%C3%A9", true),
            ("[{\"/\": \"/$(lang)\"}]", "/EN", true),
            ("[{\"/\": \"/$(region)\"}]", "/us", true),
        ])
    func caseInsensitive(rules: String, url: String, matches: Bool) throws {
        let json = Doc.components(rules, defaults: "{\"caseSensitive\": false}")
        #expect(try Doc.verdict(json, url) == (matches ? .match : .noMatch))
    }

    // MARK: Percent encoding

    @Test(
        "percentEncoded: decoded URL against the pattern as written, or the raw URL",
        arguments: [
            ("/a/b", false, "/a%2Fb", true), ("/a/b", true, "/a%2Fb", false), ("/a%2Fb", true, "/a%2Fb", true),
            ("/a%2Fb", false, "/a%2Fb", false), ("/a%2Fb", true, "/a%2fb", false), ("/a/*", false, "/a%2Fb", true),
            ("/café", false, "/caf%C3%A9", true), ("/café", true, "/caf%C3%A9", false),
            ("/caf%C3%A9", true, "/caf%C3%A9", true), ("/café", false, "https://example.com/café", true),
            ("/caf%C3%A9", true, "/café", true), ("/caf?", false, "/caf%C3%A9", true),
            ("/caf??", false, "/caf%C3%A9", false), ("/caf???", true, "/caf%C3%A9", false),
            ("/caf??????", true, "/caf%C3%A9", true), ("/日本", false, "/%E6%97%A5%E6%9C%AC", true),
            ("/??", false, "/%E6%97%A5%E6%9C%AC", true), ("/?", false, "/%F0%9F%98%80", true),
            ("/a b", false, "/a%20b", true), ("/a%20b", true, "/a b", true), ("/a+b", false, "/a+b", true),
            ("/a b", false, "/a+b", false),
            // Bytes that are not UTF-8 once decoded: the component is matched as written.
            ("/%FF", false, "/%FF", true), ("/docs/*", false, "/docs%2F", true),
        ])
    func percentEncoded(pattern: String, percentEncoded: Bool, url: String, matches: Bool) throws {
        let json = Doc.path(pattern, settings: ", \"percentEncoded\": \(percentEncoded)")
        #expect(try Doc.verdict(json, url) == (matches ? .match : .noMatch))
    }

    @Test("percentEncoded false decodes query values, item names and the fragment")
    func percentDecodingOtherComponents() throws {
        let rules = """
            [{"?": {"a b": "x&y"}, "#": "ü", "percentEncoded": false}]
            """
        let json = Doc.components(rules)
        #expect(try Doc.verdict(json, "/?a%20b=x%26y#%C3%BC") == .match)
        #expect(try Doc.verdict(json, "/?a%20b=x&y#%C3%BC") == .noMatch)  // "&" splits items
        #expect(
            try Doc.verdict(Doc.components("[{\"?\": \"q=a b\", \"percentEncoded\": false}]"), "/?q=a%20b") == .match)
        #expect(try Doc.verdict(Doc.components("[{\"?\": \"q=a b\"}]"), "/?q=a%20b") == .noMatch)
        #expect(try Doc.verdict(Doc.components("[{\"?\": {\"a%20b\": \"1\"}}]"), "/?a%20b=1") == .match)
    }

    // MARK: Query

    @Test(
        "a query string pattern matches the whole raw query; no query is the empty string",
        arguments: [
            ("", "/p", true), ("", "/p?", true), ("", "/p?a", false), ("a=1", "/p?a=1", true),
            ("a=1", "/p?a=1&b=2", false), ("a=1*", "/p?a=1&b=2", true), ("*", "/p", true), ("?*", "/p", false),
            ("?*", "/p?", false), ("?*", "/p?x", true), ("a=1", "/p?a=1#frag", true), ("*b=2", "/p?a=1&b=2", true),
            ("a=?", "/p?a=%41", false),
        ])
    func queryString(pattern: String, url: String, matches: Bool) throws {
        let json = Doc.components("[{\"?\": \(Doc.json(pattern))}]")
        #expect(try Doc.verdict(json, url) == (matches ? .match : .noMatch))
    }

    @Test(
        "a query dictionary: every item must match; missing or '='-less items are the empty string; every repeat must match",
        arguments: [
            ("{\"id\": \"?*\"}", "/p?id=5", true), ("{\"id\": \"?*\"}", "/p?id=", false),
            ("{\"id\": \"?*\"}", "/p?id", false), ("{\"id\": \"?*\"}", "/p", false),
            ("{\"id\": \"?*\"}", "/p?x=1", false),
            ("{\"id\": \"*\"}", "/p", true), ("{\"id\": \"*\"}", "/p?other=1", true), ("{\"id\": \"\"}", "/p?id", true),
            ("{\"id\": \"\"}", "/p?id=", true), ("{\"id\": \"\"}", "/p?id=1", false),
            ("{\"id\": \"1\"}", "/p?id=1&id=1", true),
            ("{\"id\": \"1\"}", "/p?id=1&id=2", false), ("{\"id\": \"1\"}", "/p?id=2&id=1", false),
            ("{\"id\": \"?*\"}", "/p?id=1&id", false), ("{\"id\": \"1\", \"x\": \"?\"}", "/p?x=a&id=1", true),
            ("{\"id\": \"1\", \"x\": \"?\"}", "/p?id=1", false), ("{\"q\": \"a=b\"}", "/p?q=a=b", true),
            ("{\"id\": \"1\"}", "/p?&&id=1&", true), ("{\"id\": \"1\"}", "/p?ID=1", false),
            ("{\"id\": \"1\"}", "/p?xid=1", false),
            ("{\"id\": \"1\"}", "/p?id=1#id=2", true), ("{}", "/p?anything", true),
            // A value that is not a string: iOS ignores the whole dictionary.
            ("{\"id\": 5}", "/p?id=zzz", true), ("{\"id\": \"1\", \"n\": null}", "/p", true),
            // A name given twice: the last one counts.
            ("{\"id\": \"1\", \"id\": \"2\"}", "/p?id=2", true), ("{\"id\": \"1\", \"id\": \"2\"}", "/p?id=1", false),
            ("{\"id\": \"$(digit)$(digit)\"}", "/p?id=42", true), ("{\"id\": \"$(digit)$(digit)\"}", "/p?id=4", false),
        ])
    func queryDictionary(items: String, url: String, matches: Bool) throws {
        let json = Doc.components("[{\"?\": \(items)}]")
        #expect(try Doc.verdict(json, url) == (matches ? .match : .noMatch))
    }

    // MARK: Fragment

    @Test(
        "the fragment: missing is the empty string",
        arguments: [
            ("", "/p", true), ("", "/p#", true), ("", "/p#x", false), ("x", "/p#x", true), ("x", "/p", false),
            ("?*", "/p", false), ("?*", "/p#", false), ("?*", "/p#a", true), ("*", "/p", true), ("a#b", "/p#a#b", true),
            ("a?b", "/p?q#a?b", true), ("/sec/*", "/p#/sec/1", true), ("sec", "/p#/sec", false),
        ])
    func fragment(pattern: String, url: String, matches: Bool) throws {
        let json = Doc.components("[{\"#\": \(Doc.json(pattern))}]")
        #expect(try Doc.verdict(json, url) == (matches ? .match : .noMatch))
    }

    @Test("an omitted component is *: a rule of {} matches every URL")
    func omittedComponents() throws {
        let json = Doc.components("[{\"comment\": \"everything\"}]")
        for url in ["/", "https://example.com", "/a/b?c=d#e", "/%C3%A9"] {
            #expect(try Doc.verdict(json, url) == .match)
        }
        #expect(try Doc.verdict(Doc.components("[{\"/\": \"/a\"}]"), "/a?anything=1#any") == .match)
    }

    // MARK: Substitution variables

    @Test(
        "built-in variables: one character of a class, or one region or language code",
        arguments: [
            ("/$(alpha)", "/a", true), ("/$(alpha)", "/Z", true), ("/$(alpha)", "/1", false),
            ("/$(alpha)", "/ab", false),
            ("/$(alpha)", "/", false), ("/$(alpha)", "/%C3%A9", false), ("/$(upper)", "/A", true),
            ("/$(upper)", "/a", false),
            ("/$(lower)", "/a", true), ("/$(lower)", "/A", false), ("/$(alnum)", "/7", true), ("/$(alnum)", "/q", true),
            ("/$(alnum)", "/-", false), ("/$(digit)", "/7", true), ("/$(digit)", "/a", false),
            ("/$(digit)", "/12", false),
            ("/$(xdigit)", "/f", true), ("/$(xdigit)", "/F", true), ("/$(xdigit)", "/9", true),
            ("/$(xdigit)", "/g", false),
            ("/$(region)/x", "/US/x", true), ("/$(region)/x", "/419/x", true), ("/$(region)/x", "/us/x", false),
            ("/$(region)/x", "/U1/x", false), ("/$(region)/x", "/USA/x", false), ("/$(region)/*", "/GB", true),
            ("/$(lang)/docs", "/en/docs", true), ("/$(lang)/docs", "/fr/docs", true),
            ("/$(lang)/docs", "/haw/docs", true),
            ("/$(lang)/docs", "/EN/docs", false), ("/$(lang)/docs", "/e1/docs", false),
            ("/$(lang)/docs", "/docs", false),
            ("/$(lang)_$(region)/*", "/en_US/x", true), ("/$(lang)_$(region)/*", "/en-US/x", false),
            ("/$(lang)_$(region)/*", "/en_US", true), ("/*$(digit)", "/abc7", true), ("/*$(digit)", "/abc", false),
            ("/$(digit)*$(digit)", "/1/a/b/2", true), ("/$(lang)*", "/english", true), ("/$(lang)?", "/enx", true),
        ])
    func builtinVariables(pattern: String, url: String, matches: Bool) throws {
        #expect(try Doc.verdict(Doc.path(pattern), url) == (matches ? .match : .noMatch))
    }

    @Test("the region and language lists are Foundation's")
    func codeLists() {
        #expect(BuiltinVariable.region.codes.contains("US"))
        #expect(BuiltinVariable.region.codes.contains("419"))
        #expect(BuiltinVariable.lang.codes.contains("en"))
        #expect(BuiltinVariable.lang.codes.contains("haw"))
        #expect(!BuiltinVariable.lang.codes.contains("e1"))
        #expect(!BuiltinVariable.region.codes.contains("U1"))
    }

    @Test(
        "custom variables: values may hold * and ?, not variables; they shadow built-ins",
        arguments: [
            ("/$(food)", "/taco", true), ("/$(food)", "/burrito", true), ("/$(food)", "/tacos", false),
            ("/$(food)", "/bx", true), ("/$(food)", "/b/long/x", true), ("/$(food)", "/cat", true),
            ("/$(food)", "/ct", false),
            ("/$(food)", "/", true), ("/menu/$(food)", "/menu/", true), ("/menu/$(food)", "/menu", true),
            ("/$(food)/order", "/order", false), ("/$(food)/order", "//order", true),
            ("/$(food)/order", "/taco/order", true),
            ("/$(food)$(food)", "/tacotaco", true), ("/$(food)$(food)", "/tacobx", true),
            ("/$(food)-$(food)", "/taco-", true),
            ("/$(dir)", "/a", true), ("/$(dir)", "/a/", true), ("/x/$(dir)", "/x/a", true),
            ("/$(nested)", "/$(food)", true),
            ("/$(nested)", "/taco", false), ("/$(digit)", "/1", false), ("/$(digit)", "/one", true),
            ("/$(none)", "/", false),
            ("/$(none)", "/x", false), ("/$(food)", "/TACO", false),
        ])
    func customVariables(pattern: String, url: String, matches: Bool) throws {
        let variables = """
            {"food": ["burrito", "taco", "b*x", "c?t", ""], "dir": ["a/"], "nested": ["$(food)"],
             "digit": ["one"], "none": []}
            """
        let json = Doc.components("[{\"/\": \(Doc.json(pattern))}]", variables: variables)
        #expect(try Doc.verdict(json, url) == (matches ? .match : .noMatch))
    }

    @Test(
        "an undefined variable or an unterminated $( makes the pattern match nothing",
        arguments: [
            ("/$(nope)/x", "/x"), ("/$(nope)/x", "/$(nope)/x"), ("/$(nope)*", "/anything"), ("/a$(b", "/a$(b"),
            ("*$(", "/x"), ("/$()", "/"),
        ])
    func unusablePatterns(pattern: String, url: String) throws {
        let json = Doc.components("[{\"/\": \(Doc.json(pattern))}, {\"/\": \"/other\"}]")
        #expect(try Doc.verdict(json, url) == .noMatch)
        let explained = try Doc.matcher(json).evaluate(url, explain: true).apps[0].explanation
        #expect(explained?.summary.contains("matches nothing") == true)
        #expect(explained?.rule == "applinks.details[0].components[0]")
        // In a query or fragment too.
        #expect(try Doc.verdict(Doc.components("[{\"?\": {\"a\": \"$(nope)\"}}]"), "/?a=1") == .noMatch)
        #expect(try Doc.verdict(Doc.components("[{\"#\": \"$(nope\"}]"), "/#$(nope") == .noMatch)
    }

    // MARK: Entries and rules

    @Test("the first entry naming an app decides, even when a later one would match")
    func firstEntryDecides() throws {
        let json = """
            {"applinks": {"details": [
              {"appIDs": ["A.app"], "components": [{"/": "/a"}]},
              {"appIDs": ["A.app", "B.app"], "components": [{"/": "/b"}]}
            ]}}
            """
        let matcher = try Doc.matcher(json)
        #expect(matcher.appIDs == ["A.app", "B.app"])
        let result = matcher.evaluate("/b")
        #expect(result.apps.map(\.verdict) == [.noMatch, .match])
        #expect(result.appID == "B.app")
        #expect(matcher.evaluate("/a").appID == "A.app")
        #expect(matcher.evaluate("/a").apps.map(\.verdict) == [.match, .noMatch])
    }

    @Test(
        "rules in order: the first whose components all match wins; exclude stops the scan",
        arguments: [
            ("/a/b", AppVerdict.Verdict.exclude), ("/a/c", .exclude), ("/a", .exclude), ("/b/1", .match),
            ("/b/x", .exclude),
            ("/c", .noMatch), ("/b/2?keep", .match),
        ])
    func ruleOrderAndExclude(url: String, verdict: AppVerdict.Verdict) throws {
        let json = Doc.components(
            """
            [{"/": "/a/*", "exclude": true}, {"/": "/a/b"}, {"/": "/b/$(digit)"},
             {"/": "/b/*", "?": "keep"}, {"/": "/b/*", "exclude": true}, {"/": "/b/*"}]
            """)
        #expect(try Doc.verdict(json, url) == verdict)
        let result = try Doc.matcher(json).evaluate(url)
        #expect(result.excluded == (verdict == .exclude))
        #expect(result.appID == (verdict == .match ? Doc.app : nil))
    }

    @Test("an exclude rule that does not match lets later rules decide; exclude: false is a normal rule")
    func excludeOnlyWhenMatching() throws {
        let json = Doc.components("[{\"/\": \"/private\", \"exclude\": true}, {\"/\": \"*\", \"exclude\": false}]")
        #expect(try Doc.verdict(json, "/public") == .match)
        #expect(try Doc.verdict(json, "/private") == .exclude)
        #expect(try Doc.verdict(Doc.components("[{\"exclude\": true}, {\"/\": \"*\"}]"), "/x") == .exclude)
    }

    @Test("an empty components array matches nothing, and paths are then ignored")
    func emptyComponents() throws {
        let json = """
            {"applinks": {"details": [{"appIDs": ["A.app"], "components": [], "paths": ["*"]}]}}
            """
        for url in ["/", "/a", "https://example.com/x?y#z"] {
            #expect(try Doc.verdict(json, url) == .noMatch)
        }
        let explanation = try #require(try Doc.matcher(json).evaluate("/a", explain: true).apps[0].explanation)
        #expect(explanation.summary.contains("empty components array"))
        #expect(explanation.rule == nil)
    }

    @Test("paths are ignored when components is present")
    func pathsIgnoredWithComponents() throws {
        let json = """
            {"applinks": {"details": [{"appIDs": ["A.app"], "components": [{"/": "/x"}], "paths": ["*", "NOT /x"]}]}}
            """
        #expect(try Doc.verdict(json, "/x") == .match)
        #expect(try Doc.verdict(json, "/y") == .noMatch)
    }

    @Test("an entry with neither components nor paths matches nothing, and says so")
    func entryWithoutRules() throws {
        let json =
            "{\"applinks\": {\"details\": [{\"appIDs\": [\"A.app\"]}, {\"appIDs\": [\"A.app\"], \"paths\": [\"*\"]}]}}"
        let result = try Doc.matcher(json).evaluate("/a", explain: true)
        #expect(result.apps.map(\.verdict) == [.noMatch])
        #expect(result.apps[0].explanation?.entry == "applinks.details[0]")
        #expect(result.apps[0].explanation?.summary.contains("neither components nor paths") == true)
    }

    @Test("appIDs wins over appID; apps of other services and entries without an app do not exist for the matcher")
    func whichApps() throws {
        let json = """
            {"webcredentials": {"apps": ["W.app"]}, "appclips": {"apps": ["C.app.Clip"]},
             "applinks": {"details": [
               {"appID": "Old.app", "appIDs": ["A.app", "B.app", "A.app"], "paths": ["*"]},
               {"paths": ["*"]},
               {"appID": "Old.app", "paths": ["/old"]},
               {"appIDs": ["B.app", "C.app"], "components": [{"/": "/c"}]}
             ]}}
            """
        let matcher = try Doc.matcher(json)
        #expect(matcher.appIDs == ["A.app", "B.app", "Old.app", "C.app"])
        let result = matcher.evaluate("/c")
        #expect(result.apps.map(\.appID) == ["A.app", "B.app", "Old.app", "C.app"])
        #expect(result.apps.map(\.verdict) == [.match, .match, .noMatch, .match])
        #expect(matcher.evaluate("/old").apps.map(\.verdict) == [.match, .match, .match, .noMatch])
    }

    @Test("a document without applinks, or with empty details, has no apps")
    func noApps() throws {
        for json in ["{\"webcredentials\": {\"apps\": [\"W.app\"]}}", "{\"applinks\": {\"details\": []}}", "{}"] {
            let result = try Doc.matcher(json).evaluate("/a")
            #expect(result.apps.isEmpty)
            #expect(result.appID == nil)
            #expect(result.excluded == false)
            #expect(result.error == nil)
        }
    }

    // MARK: Legacy paths

    @Test(
        "legacy paths: NOT excludes, the first hit stops, * matches everything",
        arguments: [
            (["NOT /a/*", "/a/b", "*"], "/a/b", AppVerdict.Verdict.exclude),
            (["NOT /a/*", "/a/b", "*"], "/a", .exclude),
            (["NOT /a/*", "/a/b", "*"], "/b", .match), (["/a/b", "NOT /a/*"], "/a/b", .match),
            (["/a/b", "NOT /a/*"], "/a/c", .exclude), (["/a/b", "NOT /a/*"], "/c", .noMatch), (["/x"], "/y", .noMatch),
            (["*"], "/", .match), (["*"], "https://example.com", .match), (["/p"], "/p?x=1#y", .match),
            (["/a b"], "/a%20b", .noMatch), (["/a%20b"], "/a%20b", .match), (["/a%20b"], "/a b", .match),
            (["/$(lang)"], "/en", .noMatch), (["/$(lang)"], "/$(lang)", .match), (["/Help"], "/help", .noMatch),
            (["help/*"], "/help", .match), (["/help/"], "/help", .match), (["/help"], "/help/", .match),
            (["NOT  /a", "*"], "/a", .match), (["NOT /a", "*"], "/a", .exclude), (["not /a", "*"], "/a", .match),
            ([], "/", .noMatch), (["/caf?"], "/café", .noMatch), (["/caf??????"], "/café", .match),
        ])
    func legacyPaths(paths: [String], url: String, verdict: AppVerdict.Verdict) throws {
        #expect(try Doc.verdict(Doc.paths(paths), url) == verdict)
    }

    @Test("legacy paths are case-sensitive and raw whatever the defaults say")
    func legacyPathsIgnoreDefaults() throws {
        let defaults = "{\"caseSensitive\": false, \"percentEncoded\": false}"
        #expect(try Doc.verdict(Doc.paths(["/Help"], defaults: defaults), "/help") == .noMatch)
        #expect(try Doc.verdict(Doc.paths(["/a/b"], defaults: defaults), "/a%2Fb") == .noMatch)
    }

    @Test("dictionary-form details are entries in order, keyed by app ID")
    func dictionaryDetails() throws {
        let json = """
            {"applinks": {"apps": [], "details": {
              "A.app": {"paths": ["/x", "NOT /y"]},
              "B.app": {"paths": ["*"]}
            }}}
            """
        let matcher = try Doc.matcher(json)
        #expect(matcher.appIDs == ["A.app", "B.app"])
        #expect(matcher.evaluate("/x").appID == "A.app")
        let y = matcher.evaluate("/y", explain: true)
        #expect(y.apps.map(\.verdict) == [.exclude, .match])
        #expect(y.appID == "B.app")
        #expect(y.excluded == false)
        #expect(y.apps[0].explanation?.entry == "applinks.details[\"A.app\"]")
        #expect(y.apps[0].explanation?.rule == "applinks.details[\"A.app\"].paths[1]")
    }

    // MARK: Several apps

    @Test(
        "several apps: appID is the first match in document order, excluded only when none matches",
        arguments: [
            ("/m", [AppVerdict.Verdict.exclude, .noMatch, .match], "C.app" as String?, false),
            ("/e", [.exclude, .noMatch, .noMatch], nil, true), ("/n", [.noMatch, .noMatch, .noMatch], nil, false),
            ("/both", [.match, .match, .exclude], "A.app", false),
        ])
    func severalApps(url: String, verdicts: [AppVerdict.Verdict], appID: String?, excluded: Bool) throws {
        let json = """
            {"applinks": {"details": [
              {"appIDs": ["A.app"], "components": [{"/": "/m", "exclude": true}, {"/": "/e", "exclude": true}, {"/": "/both"}]},
              {"appIDs": ["B.app"], "components": [{"/": "/both"}]},
              {"appIDs": ["C.app"], "components": [{"/": "/both", "exclude": true}, {"/": "/m"}]}
            ]}}
            """
        let result = try Doc.matcher(json).evaluate(url)
        #expect(result.apps.map(\.appID) == ["A.app", "B.app", "C.app"])
        #expect(result.apps.map(\.verdict) == verdicts)
        #expect(result.appID == appID)
        #expect(result.excluded == excluded)
    }

    // MARK: URLs

    @Test(
        "URLs that cannot be parsed give an error and no apps",
        arguments: [
            "", "example.com/x", "https:/x", "https:x", "https:///x", "https://a b/x", "/a%zz", "/a%2", "/a%",
            "mailto:a@b.c",
            "?x=1", "#f", "1http://e.com/", " /a",
        ])
    func unparseable(url: String) throws {
        let result = try Doc.matcher(Doc.paths(["*"])).evaluate(url, explain: true)
        #expect(result.error != nil)
        #expect(result.apps.isEmpty)
        #expect(result.appID == nil)
        #expect(result.url == url)
        #expect(throws: MatchURLError.self) { try MatchURL(url) }
    }

    @Test(
        "URLs are split at the first ? and #; an empty path is /",
        arguments: [
            ("https://example.com", "/", nil, nil), ("https://example.com?x=1#f", "/", "x=1", "f"),
            ("HTTPS://Example.COM:8443/a/b?c=d#e", "/a/b", "c=d", "e"), ("/a#f?x", "/a", nil, "f?x"),
            ("/a?x#", "/a", "x", ""), ("/a?x?y", "/a", "x?y", nil), ("/a b?c d#e f", "/a%20b", "c%20d", "e%20f"),
            ("/caf\u{E9}", "/caf%C3%A9", nil, nil), ("//a/b", "//a/b", nil, nil), ("https://user@h/p", "/p", nil, nil),
            ("x-app+1.2://host", "/", nil, nil), ("/a#b#c", "/a", nil, "b#c"),
        ] as [(String, String, String?, String?)])
    func splitting(url: String, path: String, query: String?, fragment: String?) throws {
        let parsed = try MatchURL(url)
        #expect(parsed.path == path)
        #expect(parsed.query == query)
        #expect(parsed.fragment == fragment)
    }

    @Test("the result keeps the URL as given, and explanations only when asked")
    func resultShape() throws {
        let matcher = try Doc.matcher(Doc.path("/a b"))
        let result = matcher.evaluate("/a b")
        #expect(result.url == "/a b")
        try #require(result.apps.count == 1, "\(result.apps)")
        #expect(result.apps.allSatisfy { $0.explanation == nil })
        let explained = matcher.evaluate("/a b", explain: true).apps
        try #require(explained.count == 1, "\(explained)")
        #expect(explained.allSatisfy { $0.explanation != nil })
        let encoded = try JSONEncoder().encode(matcher.evaluate("/x"))
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains("\"no_match\""))
        #expect(try JSONDecoder().decode(URLMatchResult.self, from: encoded) == matcher.evaluate("/x"))
    }

    // MARK: Explanations

    @Test("explain: a match and an exclude name the entry and the rule")
    func explainDecisions() throws {
        let json = """
            {"applinks": {"details": [
              {"appIDs": ["X.app"], "components": [{"/": "/x"}]},
              {"appIDs": ["A.app"], "components": [{"/": "/private/*", "exclude": true}, {"/": "/help/*", "?": {"id": "?*"}}]}
            ]}}
            """
        let matcher = try Doc.matcher(json)
        let match = try #require(matcher.evaluate("/help/faq?id=1", explain: true).apps.last?.explanation)
        #expect(match.entry == "applinks.details[1]")
        #expect(match.rule == "applinks.details[1].components[1]")
        #expect(match.summary.contains("Matched"))
        #expect(match.failedComponent == nil)
        let exclude = try #require(matcher.evaluate("/private/1", explain: true).apps.last?.explanation)
        #expect(exclude.rule == "applinks.details[1].components[0]")
        #expect(exclude.summary.contains("Excluded"))
    }

    @Test(
        "explain a miss: the closest rule (most specified components matching, ties to the first) and its first failure",
        arguments: [
            ("/b?x=1&y=3#f", "applinks.details[0].components[1]", "?y", "3" as String?, "2"),
            ("/c", "applinks.details[0].components[0]", "/", "/c", "/a"),
            ("/b?y=2#f", "applinks.details[0].components[1]", "?x", nil, "1"),
            ("/a?x=2", "applinks.details[0].components[0]", "?x", "2", "1"),
            ("/b?x=1&y=2#g", "applinks.details[0].components[1]", "#", "g", "f"),
            ("/b?x=1&y=2", "applinks.details[0].components[1]", "#", nil, "f"),
            ("/%C3%A9?q", "applinks.details[0].components[2]", "/", "/é", "/e"),
        ])
    func explainMiss(url: String, rule: String, component: String, value: String?, pattern: String) throws {
        let json = Doc.components(
            """
            [{"/": "/a", "?": {"x": "1"}}, {"/": "/b", "?": {"x": "1", "y": "2"}, "#": "f"},
             {"/": "/e", "?": "q", "percentEncoded": false}]
            """)
        let explanation = try #require(try Doc.matcher(json).evaluate(url, explain: true).apps[0].explanation)
        #expect(explanation.entry == "applinks.details[0]")
        #expect(explanation.rule == rule)
        #expect(explanation.failedComponent == component)
        #expect(explanation.value == value)
        #expect(explanation.pattern == pattern)
        #expect(explanation.summary.contains("closest"))
    }

    @Test("the explanation in docs/matching.md, word for word")
    func documentedExplanation() throws {
        let json = Doc.components(
            """
            [{"/": "/a", "?": {"x": "1"}}, {"/": "/b", "?": {"x": "1", "y": "2"}, "#": "f"}]
            """)
        let explanation = try #require(
            try Doc.matcher(json).evaluate("/b?x=1&y=3#f", explain: true).apps[0].explanation)
        #expect(
            explanation
                == MatchExplanation(
                    entry: "applinks.details[0]", rule: "applinks.details[0].components[1]",
                    summary: "No rule in applinks.details[0] (the first entry naming this app) matches; the closest, "
                        + "applinks.details[0].components[1], fails on \"?y\": \"3\" does not match \"2\".",
                    failedComponent: "?y", value: "3", pattern: "2"))
    }

    @Test("explain a legacy miss: the first positive path, against the raw path")
    func explainLegacyMiss() throws {
        let explanation = try #require(
            try Doc.matcher(Doc.paths(["NOT /x", "/help/*", "/b"])).evaluate("/a%20b", explain: true).apps[0]
                .explanation)
        #expect(explanation.rule == "applinks.details[0].paths[1]")
        #expect(explanation.failedComponent == "/")
        #expect(explanation.value == "/a%20b")
        #expect(explanation.pattern == "/help/*")
    }

    // MARK: Engine

    @Test(
        "adversarial patterns finish (no exponential backtracking)",
        arguments: [
            "/*a*a*a*a*a*a*a*a*a*a*a*a*b", "/$(v)$(v)$(v)$(v)$(v)$(v)$(v)$(v)b", "*a*$(v)*a*$(v)*a*$(v)*a*$(v)*b",
            "/*?*?*?*?*?*?*?*?*?*?*?*?*b", "/$(lang)*$(lang)*$(lang)*$(lang)*$(lang)*b",
        ])
    func adversarial(pattern: String) throws {
        let json = Doc.components(
            "[{\"/\": \(Doc.json(pattern))}]", variables: "{\"v\": [\"*a\", \"a*\", \"*aa*\", \"?\"]}")
        let matcher = try Doc.matcher(json)
        let input = "/" + String(repeating: "a", count: 20_000)
        #expect(matcher.evaluate(input).apps[0].verdict == .noMatch)
        #expect(matcher.evaluate(input + "b").apps[0].verdict == .match)
    }

    @Test(
        "glob and automaton agree",
        arguments: [
            "*", "?", "a*", "*a", "a?c", "*a*b*", "?*?", "a**b", "", "*/x/*", "é?*", "??", "*é", "$(digit)*$(alpha)",
        ])
    func enginesAgree(pattern: String) {
        let glob = CompiledPattern.compile(pattern, kind: .other, caseSensitive: true, variables: [:])
        // The same pattern through the automaton, forced by a one-value variable.
        let viaNFA = CompiledPattern.compile(
            pattern + "$(empty)", kind: .other, caseSensitive: true, variables: ["empty": [""]])
        guard case .glob = glob.main, case .nfa = viaNFA.main else {
            Issue.record("unexpected engines")
            return
        }
        let inputs = [
            "", "a", "b", "ab", "ba", "abc", "aXc", "a/x/b", "/x/", "é", "éé", "ée", "xé", "é1", "1é", "1a", "1/a",
            "aab", "😀😀",
        ]
        for input in inputs {
            let bytes = Array(input.utf8)
            let expected = bytes.withUnsafeBufferPointer { glob.matches($0) }
            let actual = bytes.withUnsafeBufferPointer { viaNFA.matches($0) }
            #expect(expected == actual, "\(pattern) against \(input)")
        }
    }

    // MARK: Real files

    @Test(
        "real files from the corpus, verdicts derived by hand",
        arguments: [
            // organicmaps: ["NOT /googleplay", "/??????????*"] for three apps.
            (
                "organicmaps_url-processor_public-aasa-json.json", "https://omaps.app/googleplay",
                [AppVerdict.Verdict.exclude, .exclude, .exclude], nil as String?, true
            ),
            (
                "organicmaps_url-processor_public-aasa-json.json", "https://omaps.app/googleplay/",
                [.exclude, .exclude, .exclude], nil, true
            ),
            (
                "organicmaps_url-processor_public-aasa-json.json", "https://omaps.app/googleplay?id=1",
                [.exclude, .exclude, .exclude], nil, true
            ),
            (
                "organicmaps_url-processor_public-aasa-json.json", "https://omaps.app/Umse5f0H8a/Madrid",
                [.match, .match, .match], "9Z6432XD7L.app.organicmaps", false
            ),
            (
                "organicmaps_url-processor_public-aasa-json.json", "https://omaps.app/googleplayX",
                [.match, .match, .match], "9Z6432XD7L.app.organicmaps", false
            ),
            (
                "organicmaps_url-processor_public-aasa-json.json", "https://omaps.app/short",
                [.noMatch, .noMatch, .noMatch], nil, false
            ),
            (
                "organicmaps_url-processor_public-aasa-json.json", "https://omaps.app/123456789",
                [.noMatch, .noMatch, .noMatch], nil, false
            ),
            (
                "organicmaps_url-processor_public-aasa-json.json", "https://omaps.app/1234567890",
                [.match, .match, .match], "9Z6432XD7L.app.organicmaps", false
            ),
            (
                "organicmaps_url-processor_public-aasa-json.json", "https://omaps.app/%D0%9C%D0%BE",
                [.match, .match, .match], "9Z6432XD7L.app.organicmaps", false
            ),
            // artsy 2023: NOTs, then "*"; webcredentials apps are not applinks apps.
            (
                "artsy_artsy-eigen-web-association_aasa-json-2023.json", "https://www.artsy.net/artist/banksy",
                [.match], "23KMWZ572J.net.artsy.artsy", false
            ),
            (
                "artsy_artsy-eigen-web-association_aasa-json-2023.json", "https://www.artsy.net/login", [.exclude], nil,
                true
            ),
            (
                "artsy_artsy-eigen-web-association_aasa-json-2023.json", "https://www.artsy.net/news", [.exclude], nil,
                true
            ),
            (
                "artsy_artsy-eigen-web-association_aasa-json-2023.json", "https://www.artsy.net/news/a-story",
                [.exclude], nil, true
            ),
            (
                "artsy_artsy-eigen-web-association_aasa-json-2023.json", "https://www.artsy.net/newsletter", [.match],
                "23KMWZ572J.net.artsy.artsy", false
            ),
            (
                "artsy_artsy-eigen-web-association_aasa-json-2023.json", "https://www.artsy.net/editorial", [.exclude],
                nil, true
            ),
            (
                "artsy_artsy-eigen-web-association_aasa-json-2023.json", "https://www.artsy.net/gender-equality-now",
                [.exclude], nil, true
            ),
            (
                "artsy_artsy-eigen-web-association_aasa-json-2023.json", "https://www.artsy.net/Login", [.match],
                "23KMWZ572J.net.artsy.artsy", false
            ),
            (
                "artsy_artsy-eigen-web-association_aasa-json-2023.json", "https://www.artsy.net/#", [.match],
                "23KMWZ572J.net.artsy.artsy", false
            ),
            // nkmrh: the legacy dictionary form.
            (
                "nkmrh_handoff_aasa-txt-2015.json", "/wwdc/news/", [.match],
                "QA8AV789YN.jp.hajimenakamura.blog.handoff", false
            ),
            (
                "nkmrh_handoff_aasa-txt-2015.json", "/wwdc/news", [.match], "QA8AV789YN.jp.hajimenakamura.blog.handoff",
                false
            ),
            (
                "nkmrh_handoff_aasa-txt-2015.json", "/videos/wwdc/2015/123", [.match],
                "QA8AV789YN.jp.hajimenakamura.blog.handoff", false
            ),
            ("nkmrh_handoff_aasa-txt-2015.json", "/videos/wwdc/2016/1", [.noMatch], nil, false),
            // chayev: two apps with overlapping paths; appclips apps are not applinks apps.
            ("chayev_webpage-sandbox_aasa.json", "/Tyf3/abc", [.match, .match], "HFN2K4N6YW.io.suadeo.app", false),
            ("chayev_webpage-sandbox_aasa.json", "/AfPF/x", [.noMatch, .match], "HFN2K4N6YW.io.suadeo.app.dev", false),
            ("chayev_webpage-sandbox_aasa.json", "/tyf3/abc", [.noMatch, .noMatch], nil, false),
            ("chayev_webpage-sandbox_aasa-missingAppID.json", "/Tyf3/abc", [], nil, false),
            (
                "GoogleChromeLabs_web-based-payment-app-example_public-aasa.json", "/pay", [.match, .match],
                "EQHXZ8M8AV.com.google.Bobbucks.dev", false
            ),
            (
                "GoogleChromeLabs_web-based-payment-app-example_public-aasa.json", "/pay/", [.match, .match],
                "EQHXZ8M8AV.com.google.Bobbucks.dev", false
            ),
            (
                "GoogleChromeLabs_web-based-payment-app-example_public-aasa.json", "/payment", [.noMatch, .noMatch],
                nil, false
            ),
            // Expensify: "/#/settings" can never match a path.
            ("Expensify_App_aasa-json.json", "https://new.expensify.com/#/settings", [.noMatch], nil, false),
            (
                "escrichov_mobile-universal-linking_aasa-txt.json", "https://example.com", [.match, .match], "beta",
                false
            ),
            ("escrichov_mobile-universal-linking_aasa-txt.json", "/test", [.match, .match], "beta", false),
            ("escrichov_mobile-universal-linking_aasa-txt.json", "/other", [.noMatch, .noMatch], nil, false),
            ("guardian_support-frontend_public-aasa-json.json", "/", [], nil, false),
            (
                "element-hq_element-call_public-aasa-json.json", "/room/#/abc?x", [.match, .match, .match],
                "7J4U792NQT.io.element.elementx", false
            ),
            (
                "vensan7888_vensan7888.github.io_wellknown-aasa-p7m-named.json", "/KCfn/x",
                [.noMatch, .match, .match, .noMatch, .noMatch], "Q4G4ZRQT26.com.uob.mightyth.sit", false
            ),
        ])
    func corpus(file: String, url: String, verdicts: [AppVerdict.Verdict], appID: String?, excluded: Bool) throws {
        let data = try Data(contentsOf: realPlain.appendingPathComponent(file))
        let result = URLMatcher(document: try AASADocument(json: data)).evaluate(url, explain: true)
        #expect(result.error == nil)
        #expect(result.apps.map(\.verdict) == verdicts)
        #expect(result.appID == appID)
        #expect(result.excluded == excluded)
    }

    @Test("every real file compiles and decides every URL")
    func wholeCorpus() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: realPlain.path).filter { $0.hasSuffix(".json") }
        #expect(names.count == 20)
        var explained = 0
        for name in names {
            let data = try Data(contentsOf: realPlain.appendingPathComponent(name))
            let matcher = URLMatcher(document: try AASADocument(json: data))
            for url in ["/", "https://example.com/a/b?c=d#e", "/%C3%A9"] {
                let result = matcher.evaluate(url, explain: true)
                #expect(result.apps.count == matcher.appIDs.count)
                #expect(result.apps.allSatisfy { $0.explanation != nil })
                explained += result.apps.count
            }
        }
        // Some files name no applinks app (webcredentials only): the loop above must still
        // have explained apps, or its allSatisfy checked nothing.
        #expect(explained > 0)
    }

    @Test("artsy 2023 explains which NOT excluded the URL")
    func artsyExplain() throws {
        let data = try Data(
            contentsOf: realPlain.appendingPathComponent("artsy_artsy-eigen-web-association_aasa-json-2023.json"))
        let matcher = URLMatcher(document: try AASADocument(json: data))
        #expect(matcher.appIDs == ["23KMWZ572J.net.artsy.artsy"])
        let explanation = try #require(
            matcher.evaluate("https://www.artsy.net/video/1", explain: true).apps[0].explanation)
        #expect(explanation.rule == "applinks.details[0].paths[21]")
        #expect(explanation.summary.contains("NOT /video/*"))
    }

    @Test("verdicts(for:into:) decides exactly as evaluate, for every corpus file and its probe URLs")
    func verdictsAgreeWithEvaluate() throws {
        var documents: [AASADocument] = []
        for input in Inputs.corpusPlain {
            if let document = try? AASADocument(json: input.bytes), document.appLinks != nil {
                documents.append(document)
            }
        }
        try #require(documents.count >= 10, "the corpus is missing: \(documents.count) documents")
        var verdicts: [AppVerdict.Verdict] = [.exclude]  // emptied by every call
        var compared = 0
        for document in documents {
            let matcher = URLMatcher(document: document)
            let probes = ProbeURLGenerator().probes(for: [document]).urls
            let extra = [
                "", "no-scheme", "https://", "https://example.com/%", "https://example.com/é ü?q=%ZZ#frag", "/",
            ]
            for url in probes + extra {
                let error = matcher.verdicts(for: url, into: &verdicts)
                let result = matcher.evaluate(url)
                #expect(error == result.error, "\(url)")
                #expect(verdicts == result.apps.map(\.verdict), "\(url)")
                compared += 1
            }
        }
        #expect(compared > 500)
    }
}

/// Issue #13: `defaults` is "a subclass of components" (Apple, applinks.Defaults): a rule
/// without its own `/`, `?`, `#` or `exclude` takes the entry's default, else the domain's.
@Suite("Matching: pattern keys in defaults")
struct DefaultsPatternTests {
    static func doc(domain: String, entry: String = "{}", rules: String) -> String {
        #"{"applinks": {"defaults": "# + domain + #", "details": [{"appIDs": ["A.app"], "defaults": "# + entry
            + #", "components": "# + rules + "}]}}"
    }

    @Test("a domain default exclude makes every rule without its own an exclusion; a rule's own wins")
    func domainExclude() throws {
        let json = Self.doc(
            domain: #"{"exclude": true}"#, rules: #"[{"/": "/private/*"}, {"/": "*", "exclude": false}]"#)
        #expect(try Doc.verdict(json, "/private/x") == .exclude)
        #expect(try Doc.verdict(json, "/other") == .match)
    }

    @Test("an entry's default overrides the domain's; a rule's own key overrides both")
    func precedence() throws {
        let json = Self.doc(
            domain: #"{"?": {"ref": "?*"}}"#, entry: #"{"?": {"id": "?*"}}"#,
            rules: #"[{"/": "/a/*"}, {"/": "/b/*", "?": "*"}]"#)
        #expect(try Doc.verdict(json, "/a/x?id=1") == .match, "the entry's ? applies")
        #expect(try Doc.verdict(json, "/a/x?ref=1") == .noMatch, "not the domain's")
        #expect(try Doc.verdict(json, "/b/x") == .match, "the rule's own ? wins")
        let domainOnly = Self.doc(domain: ##"{"/": "/app/*", "#": "f"}"##, rules: #"[{"?": "*"}]"#)
        #expect(try Doc.verdict(domainOnly, "/app/x#f") == .match)
        #expect(try Doc.verdict(domainOnly, "/app/x#g") == .noMatch)
        #expect(try Doc.verdict(domainOnly, "/web/x#f") == .noMatch)
    }

    @Test("legacy paths take no default; the lint note lists the rules that take a default")
    func legacyAndLint() throws {
        let legacy =
            #"{"applinks": {"defaults": {"exclude": true}, "details": [{"appID": "A.app", "paths": ["/a/*"]}]}}"#
        #expect(try Doc.verdict(legacy, "/a/x") == .match)
        let json = Self.doc(domain: #"{"exclude": true}"#, rules: #"[{"/": "/p/*"}, {"/": "*", "exclude": false}]"#)
        let notes = Linter.lint(Data(json.utf8)).diagnostics.filter { $0.rule == .patternInDefaults }
        #expect(notes.count == 1)
        #expect(
            notes.first?.message.hasSuffix("1 rule takes it: applinks.details[0].components[0].") == true,
            "\(notes.map(\.message))")
    }
}
