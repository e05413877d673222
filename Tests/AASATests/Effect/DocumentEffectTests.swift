import AASA
// What a document does (DocumentEffect): each service alone has an effect, the examples are
// URLs that really open their app, and the work is linear in the number of app identifiers
// (GitHub issue #24: 196 s for a 2.4 MB file of app identifiers before).
import Foundation
import Testing

@Suite("DocumentEffect")
struct DocumentEffectTests {
    private func effect(_ json: String) throws -> DocumentEffect {
        DocumentEffect(document: try AASADocument(json: Data(json.utf8)))
    }

    @Test("an App Clips-only document has an effect")
    func appClipsAlone() throws {
        let effect = try effect(#"{"appclips": {"apps": ["ABCDE12345.com.example.app.Clip"]}}"#)
        #expect(effect.appClips == ["ABCDE12345.com.example.app.Clip"])
        #expect(effect.doesAnything)
        #expect(effect.summary == "App Clips for 1 app")
    }

    @Test("an activitycontinuation-only document has an effect")
    func activityContinuationAlone() throws {
        let effect = try effect(#"{"activitycontinuation": {"apps": ["ABCDE12345.com.example.app"]}}"#)
        #expect(effect.activityContinuation == ["ABCDE12345.com.example.app"])
        #expect(effect.doesAnything)
        #expect(effect.summary == "Handoff for 1 app")
    }

    @Test("a webcredentials-only document has an effect; one with only unusable identifiers has none")
    func webCredentialsAloneAndUnusable() throws {
        #expect(try effect(#"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#).doesAnything)
        let unusable = try effect(#"{"appclips": {"apps": ["", "nodot"]}, "activitycontinuation": {"apps": [" "]}}"#)
        #expect(!unusable.doesAnything)
        #expect(unusable.unusableAppIDs == [" ", "", "nodot"], "activitycontinuation is read before appclips")
    }

    @Test("identifiers are kept once each, in document order, in every service")
    func deduplicatedInOrder() throws {
        let effect = try effect(
            #"{"webcredentials": {"apps": ["B.b", "A.a", "B.b", "x", "A.a", "x"]}}"#)
        #expect(effect.webCredentials == ["B.b", "A.a"])
        #expect(effect.unusableAppIDs == ["x"])
    }

    @Test("each linked app's example URL opens that app; an app whose every rule is excluded has none")
    func examplesOpenTheirApp() throws {
        let json = """
            {"applinks": {"details": [
              {"appIDs": ["ABCDE12345.com.example.first"], "components": [{"/": "/first/*"}]},
              {"appIDs": ["ABCDE12345.com.example.second", "ABCDE12345.com.example.twin"],
               "components": [{"/": "/second/?", "exclude": true}, {"/": "/second/*"}]},
              {"appIDs": ["ABCDE12345.com.example.never"], "components": [{"/": "/never/*", "exclude": true}]}
            ]}}
            """
        let document = try AASADocument(json: Data(json.utf8))
        let effect = DocumentEffect(document: document)
        let matcher = URLMatcher(document: document)
        #expect(effect.universalLinks.count == 4)
        for app in effect.universalLinks where app.appID != "ABCDE12345.com.example.never" {
            let url = try #require(app.exampleURL, "\(app.appID) has an example")
            #expect(matcher.evaluate(url).apps.first { $0.appID == app.appID }?.verdict == .match, "\(app)")
        }
        #expect(effect.universalLinks.last?.exampleURL == nil)
        #expect(effect.linkedApps.count == 3)
    }

    @Test("20,000 applinks entries and 20,000 identifiers per other service: every app counted")
    func manyAppIdentifiers() throws {
        let count = 20_000
        let ids = (0..<count).map { "ABCDE12345.com.example.app\($0)" }
        let details = ids.map { #"{"appIDs": ["\#($0)"], "components": [{"/": "/\#($0)/*"}]}"# }
        let list = ids.map { #""\#($0)""# }.joined(separator: ",")
        let json = """
            {"applinks": {"details": [\(details.joined(separator: ","))]},
             "webcredentials": {"apps": [\(list)]}, "appclips": {"apps": [\(list)]}}
            """
        let effect = try effect(json)
        #expect(effect.universalLinks.count == count)
        #expect(effect.linkedApps.count == count, "every app is opened by its own pattern's URL")
        #expect(effect.webCredentials.count == count && effect.appClips.count == count)
    }
}
