// SemanticDiff: rules compared by meaning per app, reorders that can and cannot change a
// verdict, apps gained and lost per service, variables, and the probe URLs that change.
import Foundation
import Testing

@testable import AASA

@Suite("SemanticDiff")
struct SemanticDiffTests {
    private func document(_ json: String) throws -> AASADocument { try AASADocument(json: Data(json.utf8)) }

    private func diff(_ old: String, _ new: String) throws -> SemanticDiff {
        SemanticDiff.compare(old: try document(old), new: try document(new))
    }

    private func rules(_ components: String, apps: String = #"["T.a"]"#, extra: String = "") -> String {
        #"{"applinks": {"details": [{"appIDs": \#(apps), "components": \#(components)}]}\#(extra)}"#
    }

    @Test("identical files mean the same")
    func identical() throws {
        let json = rules(#"[{"/": "/a/*"}, {"/": "/b", "exclude": true}]"#)
        let result = try diff(json, json)
        #expect(result.isSame)
        #expect(result.apps.isEmpty && result.services.isEmpty && result.variables.isEmpty)
        #expect(result.probes.compared > 10)
        #expect(result.probes.changedCount == 0)
    }

    @Test("a legacy file and its faithful rewrite mean the same (a legacy path is the rule it stands for)")
    func legacyEqualsModern() throws {
        let old =
            #"{"applinks": {"apps": [], "defaults": {"caseSensitive": false}, "details": {"T.a": {"paths": ["NOT /x", "/Y/*"]}}}}"#
        let new =
            #"{"applinks": {"defaults": {"caseSensitive": false}, "details": [{"appIDs": ["T.a"], "components": [{"/": "/x", "exclude": true, "caseSensitive": true}, {"/": "/Y/*", "caseSensitive": true}]}]}}"#
        #expect(try diff(old, new).isSame)
    }

    @Test("rules swapped across verdicts: reordered, can change verdicts, probes show it")
    func reorderAcrossVerdicts() throws {
        let result = try diff(
            rules(#"[{"/": "/a/private", "exclude": true}, {"/": "/a/*"}]"#),
            rules(#"[{"/": "/a/*"}, {"/": "/a/private", "exclude": true}]"#))
        #expect(!result.isSame)
        let app = try #require(result.apps.first)
        #expect(app.added.isEmpty && app.removed.isEmpty && app.changed.isEmpty)
        #expect(app.reordered.count == 1)
        #expect(app.reordered[0].changesVerdicts)
        #expect(
            result.probes.changes.contains {
                $0.url == "/a/private" && $0.apps == [.init(appID: "T.a", before: .exclude, after: .match)]
            })
    }

    @Test("rules of the same verdict swapped: reported, but the files still mean the same")
    func reorderSameVerdict() throws {
        let result = try diff(rules(#"[{"/": "/a"}, {"/": "/b"}]"#), rules(#"[{"/": "/b"}, {"/": "/a"}]"#))
        let app = try #require(result.apps.first)
        #expect(app.reordered.count == 1)
        #expect(!app.reordered[0].changesVerdicts)
        #expect(result.isSame)
    }

    @Test("an added exclude rule")
    func addedExclude() throws {
        let result = try diff(rules(#"[{"/": "/*"}]"#), rules(#"[{"/": "/admin/*", "exclude": true}, {"/": "/*"}]"#))
        #expect(!result.isSame)
        let app = try #require(result.apps.first)
        #expect(app.added.map(\.index) == [0])
        #expect(app.added[0].rule.exclude)
        #expect(app.added[0].rule.path == "/admin/*")
        #expect(app.reordered.isEmpty)
        #expect(result.probes.changes.contains { $0.url == "/admin/x" })
    }

    @Test("a different rule at the same place is changed, with before and after")
    func changedRule() throws {
        let result = try diff(rules(#"[{"/": "/a"}, {"/": "/b"}]"#), rules(#"[{"/": "/a"}, {"/": "/c"}]"#))
        let app = try #require(result.apps.first)
        #expect(app.changed.count == 1)
        #expect(app.changed[0].index == 1)
        #expect(app.changed[0].before.path == "/b")
        #expect(app.changed[0].after.path == "/c")
        #expect(app.added.isEmpty && app.removed.isEmpty)
    }

    @Test("settings after defaults are part of a rule; case-insensitive patterns compare folded")
    func settings() throws {
        let sensitive = rules(#"[{"/": "/Help"}]"#)
        let insensitive =
            #"{"applinks": {"defaults": {"caseSensitive": false}, "details": [{"appIDs": ["T.a"], "components": [{"/": "/Help"}]}]}}"#
        let result = try diff(sensitive, insensitive)
        #expect(result.apps.first?.changed.first?.after.caseSensitive == false)
        #expect(!result.isSame)
        let folded =
            #"{"applinks": {"details": [{"appIDs": ["T.a"], "components": [{"/": "/help", "caseSensitive": false}]}]}}"#
        #expect(try diff(insensitive, folded).isSame)
    }

    @Test("apps gained and lost per service")
    func services() throws {
        let old = rules(
            #"[{"/": "*"}]"#, apps: #"["T.a", "T.b"]"#, extra: #", "webcredentials": {"apps": ["T.a", "T.c"]}"#)
        let new = rules(
            #"[{"/": "*"}]"#, apps: #"["T.a", "T.d"]"#,
            extra: #", "webcredentials": {"apps": ["T.a", "T.e"]}, "appclips": {"apps": ["T.a.Clip"]}"#)
        let result = try diff(old, new)
        #expect(!result.isSame)
        #expect(result.services.map(\.service) == ["applinks", "webcredentials", "appclips"])
        #expect(result.services[0].gained == ["T.d"] && result.services[0].lost == ["T.b"])
        #expect(result.services[1].gained == ["T.e"] && result.services[1].lost == ["T.c"])
        #expect(result.services[2].gained == ["T.a.Clip"] && result.services[2].lost.isEmpty)
        #expect(
            result.probes.changes.contains {
                $0.apps.contains { $0.appID == "T.d" && $0.before == nil && $0.after == .match }
            })
    }

    @Test("a changed substitution variable: a difference when a pattern uses it")
    func variables() throws {
        let old =
            #"{"applinks": {"substitutionVariables": {"food": ["taco"], "unused": ["a"]}, "details": [{"appIDs": ["T.a"], "components": [{"/": "/menu/$(food)"}]}]}}"#
        let new =
            #"{"applinks": {"substitutionVariables": {"food": ["taco", "burrito"], "unused": ["b"]}, "details": [{"appIDs": ["T.a"], "components": [{"/": "/menu/$(food)"}]}]}}"#
        let result = try diff(old, new)
        #expect(result.variables.map(\.name) == ["food", "unused"])
        #expect(result.variables[0].used && !result.variables[1].used)
        #expect(result.variables[0].after == ["taco", "burrito"])
        #expect(!result.isSame)
        #expect(result.probes.changes.contains { $0.url.hasPrefix("/menu/burrito") })
    }

    @Test("the deciding entry is the first naming the app")
    func decidingEntry() throws {
        let old =
            #"{"applinks": {"details": [{"appIDs": ["T.a"], "components": [{"/": "/a"}]}, {"appIDs": ["T.b"], "components": [{"/": "/b"}]}]}}"#
        let new =
            #"{"applinks": {"details": [{"appIDs": ["T.b"], "components": [{"/": "/b"}]}, {"appIDs": ["T.a", "T.b"], "components": [{"/": "/a"}]}]}}"#
        let result = try diff(old, new)
        #expect(result.isSame)
    }

    @Test("URLs given by the caller are compared too")
    func extraURLs() throws {
        let old = try document(rules(#"[{"/": "/a"}]"#))
        let new = try document(rules(#"[{"/": "/a", "?": {"x": "*"}}]"#))
        let result = SemanticDiff.compare(old: old, new: new, extraURLs: ["/a?y=1", "/b"])
        #expect(result.probes.fromFile == 2)
        #expect(result.probes.compared == result.probes.generated + 2)
    }

    @Test("RuleSummary encodes /, ? and # under their own names")
    func ruleEncoding() throws {
        let result = try diff(
            rules(#"[{"/": "/a"}]"#), rules(##"[{"/": "/a", "?": {"id": "?*"}, "#": "f", "exclude": true}]"##))
        let rule = try #require(result.apps.first?.changed.first?.after)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(rule), as: UTF8.self)
        #expect(
            text
                == ##"{"#":"f","/":"/a","?":{"id":"?*"},"caseSensitive":true,"exclude":true,"location":"applinks.details[0].components[0]","percentEncoded":true,"source":"components"}"##
        )
        #expect(rule.description == ##"{"/": "/a", "?": {"id": "?*"}, "#": "f", "exclude": true}"##)
    }
}
