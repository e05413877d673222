import AASATestSupport
// Migrator: every legacy shape rewritten in the current format, each with the equivalence
// proof passing; the cases that cannot be migrated without a change of meaning refused; and
// every real plain file of the corpus migrated with the proof.
import Foundation
import Testing

@testable import AASA

@Suite("Migrator")
struct MigratorTests {
    private func migrate(_ json: String, keepLegacy: Bool = false) throws -> Migration {
        Migrator.migrate(try JSONParser().parse(Data(json.utf8)), options: MigrationOptions(keepLegacy: keepLegacy))
    }

    /// The migrated document as compact JSON text.
    private func compact(_ migration: Migration) -> String {
        String(decoding: JSONWriter(style: .compact).data(migration.root).dropLast(), as: UTF8.self)
    }

    /// Migrates, checks there is nothing in the way and the proof passes, returns the migration.
    private func migrateProving(
        _ json: String, keepLegacy: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Migration {
        let migration = try migrate(json, keepLegacy: keepLegacy)
        #expect(migration.blockers.isEmpty, "\(migration.blockers)", sourceLocation: sourceLocation)
        #expect(migration.changed, sourceLocation: sourceLocation)
        let proof = Migrator.prove(migration)
        #expect(proof.isEquivalent, "\(proof.modern.changes.prefix(5).map(\.summary))", sourceLocation: sourceLocation)
        #expect(proof.compared > 4, sourceLocation: sourceLocation)
        if keepLegacy { #expect(proof.legacy?.isEquivalent == true, sourceLocation: sourceLocation) }
        return migration
    }

    @Test("dictionary details → array in the same order; apps removed; appIDs from the keys")
    func dictionaryDetails() throws {
        let migration = try migrateProving(
            """
            {"applinks": {"apps": [], "details": {
              "T.b": {"paths": ["/b/*"]},
              "T.a": {"paths": ["/a/*"]}
            }}}
            """)
        #expect(
            compact(migration)
                == #"{"applinks":{"details":[{"appIDs":["T.b"],"components":[{"/":"/b/*"}]},{"appIDs":["T.a"],"components":[{"/":"/a/*"}]}]}}"#
        )
        #expect(
            migration.notes.contains {
                $0.message.contains("legacy object keyed by app ID became an array of 2 entries")
            })
        #expect(migration.notes.contains { $0.path?.description == "applinks.apps" })
        // What keepLegacy would keep is a value; the library names the option, never a flag.
        let apps = try #require(migration.notes.first { $0.path?.description == "applinks.apps" })
        #expect(apps.message == "removed: iOS 13 and later ignore it" && apps.keepLegacyWould == "keeps it")
        #expect(
            apps.description
                == "applinks.apps: removed: iOS 13 and later ignore it (MigrationOptions.keepLegacy keeps it)")
        #expect(apps.description(namingKeepLegacy: "--keep-legacy").hasSuffix("(--keep-legacy keeps it)"))
        #expect(migration.notes.allSatisfy { !$0.description.contains("--") })
    }

    @Test("appID → appIDs; NOT paths → exclude: true, in order; \"*\" → {\"/\": \"*\"}")
    func appIDAndPaths() throws {
        let migration = try migrateProving(
            #"{"applinks": {"apps": [], "details": [{"appID": "T.app", "paths": ["NOT /private/*", "/help/*", "*"]}]}}"#
        )
        #expect(
            compact(migration)
                == #"{"applinks":{"details":[{"appIDs":["T.app"],"components":[{"/":"/private/*","exclude":true},{"/":"/help/*"},{"/":"*"}]}]}}"#
        )
    }

    @Test("defaults caseSensitive false at file level: every migrated rule says caseSensitive true")
    func fileDefaultsCaseInsensitive() throws {
        let json =
            #"{"applinks": {"defaults": {"caseSensitive": false}, "details": [{"appID": "T.app", "paths": ["/Help/*", "NOT /Help/Private"]}]}}"#
        let migration = try migrateProving(json)
        #expect(
            compact(migration)
                == #"{"applinks":{"defaults":{"caseSensitive":false},"details":[{"appIDs":["T.app"],"components":[{"/":"/Help/*","caseSensitive":true},{"/":"/Help/Private","exclude":true,"caseSensitive":true}]}]}}"#
        )
    }

    @Test("the proof catches a naive migration that forgets the explicit caseSensitive")
    func proofCatchesLostCaseSensitivity() throws {
        let old = try AASADocument(
            json: Data(
                #"{"applinks": {"defaults": {"caseSensitive": false}, "details": [{"appID": "T.app", "paths": ["/Help/*"]}]}}"#
                    .utf8))
        let naive = try AASADocument(
            json: Data(
                #"{"applinks": {"defaults": {"caseSensitive": false}, "details": [{"appIDs": ["T.app"], "components": [{"/": "/Help/*"}]}]}}"#
                    .utf8))
        let check = EquivalenceCheck(old: old, new: naive)
        let report = check.compare(ProbeURLGenerator().probes(for: [old, naive]).urls)
        #expect(!report.isEquivalent)
        #expect(
            report.changes.contains {
                $0.url.hasPrefix("/help/") && $0.apps == [.init(appID: "T.app", before: .noMatch, after: .match)]
            })
    }

    @Test("entry defaults percentEncoded false: every migrated rule says percentEncoded true")
    func entryDefaultsPercentEncoded() throws {
        let json =
            #"{"applinks": {"details": [{"appID": "T.app", "defaults": {"percentEncoded": false, "caseSensitive": false}, "paths": ["/caf%C3%A9"]}]}}"#
        let migration = try migrateProving(json)
        #expect(compact(migration).contains(#"{"/":"/caf%C3%A9","caseSensitive":true,"percentEncoded":true}"#))
        // The entry's defaults are kept as they were.
        #expect(compact(migration).contains(#""defaults":{"percentEncoded":false,"caseSensitive":false}"#))
    }

    @Test("an entry with paths and components keeps its components and drops the paths iOS 13 ignores")
    func mixedPathsAndComponents() throws {
        let json =
            #"{"applinks": {"details": [{"appID": "T.app", "paths": ["/old/*"], "components": [{"/": "/new/*"}]}]}}"#
        let migration = try migrateProving(json)
        #expect(compact(migration) == #"{"applinks":{"details":[{"appIDs":["T.app"],"components":[{"/":"/new/*"}]}]}}"#)
        #expect(migration.notes.contains { $0.message.contains("iOS 13 and later ignore paths") })
        // With --keep-legacy both stay, and iOS 12's reading is unchanged too.
        let kept = try migrateProving(json, keepLegacy: true)
        #expect(
            compact(kept)
                == #"{"applinks":{"details":[{"appIDs":["T.app"],"appID":"T.app","paths":["/old/*"],"components":[{"/":"/new/*"}]}]}}"#
        )
    }

    @Test("an app named by two entries: only the first decides, both are kept, and the migration says so")
    func sameAppInTwoEntries() throws {
        let json =
            #"{"applinks": {"details": [{"appID": "T.app", "paths": ["/a/*"]}, {"appID": "T.app", "paths": ["/b/*"]}]}}"#
        let migration = try migrateProving(json)
        #expect(
            compact(migration)
                == #"{"applinks":{"details":[{"appIDs":["T.app"],"components":[{"/":"/a/*"}]},{"appIDs":["T.app"],"components":[{"/":"/b/*"}]}]}}"#
        )
        #expect(migration.notes.contains { $0.kind == .warning && $0.message.contains("only the first entry decides") })
    }

    @Test("entries with identical rules are merged into one appIDs list")
    func identicalRulesMerged() throws {
        let json = """
            {"applinks": {"apps": [], "details": [
              {"appID": "T.one", "paths": ["NOT /x", "*"]},
              {"appID": "T.other", "paths": ["/other"]},
              {"appID": "T.two", "paths": ["NOT /x", "*"]}
            ]}}
            """
        let migration = try migrateProving(json)
        #expect(
            compact(migration)
                == #"{"applinks":{"details":[{"appIDs":["T.one","T.two"],"components":[{"/":"/x","exclude":true},{"/":"*"}]},{"appIDs":["T.other"],"components":[{"/":"/other"}]}]}}"#
        )
        #expect(migration.notes.contains { $0.message.contains("merged into applinks.details[0]") })
    }

    @Test("no merge when it would change which entry decides for an app")
    func mergeThatWouldChangeTheFirstEntryRefused() throws {
        // T.b is decided by entry 1 (/b); merging entry 2 into entry 0 would make entry 0 decide for it.
        let json = """
            {"applinks": {"details": [
              {"appID": "T.a", "paths": ["/same"]},
              {"appID": "T.b", "paths": ["/b"]},
              {"appID": "T.b", "paths": ["/same"]}
            ]}}
            """
        let migration = try migrateProving(json)
        #expect(migration.document.appLinks?.details.count == 3)
        #expect(!migration.notes.contains { $0.message.contains("merged") })
    }

    @Test("no merge with --keep-legacy: every legacy entry keeps its own appID")
    func noMergeWhenKeepingLegacy() throws {
        let json =
            #"{"applinks": {"apps": [], "details": [{"appID": "T.a", "paths": ["*"]}, {"appID": "T.b", "paths": ["*"]}]}}"#
        let migration = try migrateProving(json, keepLegacy: true)
        #expect(
            compact(migration)
                == #"{"applinks":{"apps":[],"details":[{"appIDs":["T.a"],"appID":"T.a","components":[{"/":"*"}],"paths":["*"]},{"appIDs":["T.b"],"appID":"T.b","components":[{"/":"*"}],"paths":["*"]}]}}"#
        )
    }

    @Test("webcredentials, activitycontinuation, appclips, unknown keys and numbers are kept as written")
    func otherServicesKept() throws {
        let json = """
            {"webcredentials": {"apps": ["T.a"]}, "applinks": {"details": [{"appID": "T.a", "paths": ["*"], "x-note": 1.50e3}], "x": true},
             "activitycontinuation": {"apps": ["T.a"]}, "appclips": {"apps": ["T.a.Clip"]}, "custom": {"n": -0}}
            """
        let migration = try migrateProving(json)
        #expect(
            compact(migration)
                == #"{"webcredentials":{"apps":["T.a"]},"applinks":{"details":[{"appIDs":["T.a"],"components":[{"/":"*"}],"x-note":1.50e3}],"x":true},"activitycontinuation":{"apps":["T.a"]},"appclips":{"apps":["T.a.Clip"]},"custom":{"n":-0}}"#
        )
    }

    @Test("appIDs and appID together: appID dropped, with a warning when it named another app")
    func appIDBesideAppIDs() throws {
        let migration = try migrateProving(
            #"{"applinks": {"details": [{"appIDs": ["T.a"], "appID": "T.old", "components": [{"/": "*"}]}]}}"#)
        #expect(compact(migration) == #"{"applinks":{"details":[{"appIDs":["T.a"],"components":[{"/":"*"}]}]}}"#)
        #expect(migration.notes.contains { $0.kind == .warning && $0.message.contains("T.old") })
    }

    @Test("already in the current format: nothing changes")
    func alreadyModern() throws {
        let migration = try migrate(
            #"{"applinks": {"details": [{"appIDs": ["T.a"], "components": [{"/": "/a", "exclude": true}]}]}}"#)
        #expect(!migration.changed)
        #expect(migration.blockers.isEmpty)
        // With --keep-legacy, a file that already has both forms is current too.
        let both = try migrate(
            #"{"applinks": {"apps": [], "details": [{"appIDs": ["T.a"], "appID": "T.a", "components": [{"/": "*"}], "paths": ["*"]}]}}"#,
            keepLegacy: true)
        #expect(!both.changed)
    }

    @Test("a legacy path with $( cannot be migrated: a forceable blocker, and the proof shows the change")
    func dollarParenthesisRefused() throws {
        let migration = try migrate(#"{"applinks": {"details": [{"appID": "T.a", "paths": ["/price/$(amount)"]}]}}"#)
        #expect(migration.blockers.count == 1)
        #expect(migration.blockers[0].forceable)
        #expect(migration.blockers[0].path?.description == "applinks.details[0].paths[0]")
        #expect(migration.blockers[0].message.contains("literally"))
        #expect(!migration.canWrite(force: false))
        #expect(migration.canWrite(force: true))
        let proof = Migrator.prove(migration)
        #expect(!proof.isEquivalent)
        #expect(proof.modern.changes.contains { $0.url == "/price/$(amount)" })
    }

    @Test("a wrong type where the migration reads: a blocker --force cannot lift, the input left as it was")
    func wrongTypeRefused() throws {
        let json = #"{"applinks": {"details": [{"appID": "T.a", "paths": "/a"}]}}"#
        let migration = try migrate(json)
        #expect(migration.blockers.count == 1)
        #expect(!migration.blockers[0].forceable)
        #expect(!migration.canWrite(force: true))
        #expect(!migration.changed)
    }

    @Test("duplicate keys: the last occurrence is the one migrated, and it is reported")
    func duplicateKeys() throws {
        let json = #"{"applinks": {"details": [{"appID": "T.a", "paths": ["/first"], "paths": ["/last"]}]}}"#
        let migration = try migrateProving(json)
        #expect(migration.duplicates.map(\.path.description) == ["applinks.details[0].paths"])
        #expect(compact(migration).contains(#"{"/":"/last"}"#))
        #expect(!compact(migration).contains("first"))
    }

    @Test("URLs given by the caller are compared and counted")
    func extraURLs() throws {
        let migration = try migrate(#"{"applinks": {"details": [{"appID": "T.a", "paths": ["/a/*"]}]}}"#)
        let plain = Migrator.prove(migration)
        let withLog = Migrator.prove(migration, extraURLs: ["/a/1", "/zzz", "https://example.com/a?x=1"])
        #expect(withLog.extraCount == 3)
        #expect(withLog.compared == plain.compared + 3)
        #expect(withLog.isEquivalent)
    }

    @Test("iOS 12 readers lose the links without --keep-legacy: a warning says so")
    func legacyReadersWarned() throws {
        let migration = try migrateProving(
            #"{"applinks": {"apps": [], "details": [{"appID": "T.a", "paths": ["*"]}]}}"#)
        #expect(migration.notes.contains { $0.kind == .warning && $0.message.contains("iOS 12 and earlier") })
        let kept = try migrateProving(
            #"{"applinks": {"apps": [], "details": [{"appID": "T.a", "paths": ["*"]}]}}"#, keepLegacy: true)
        #expect(!kept.notes.contains { $0.message.contains("no universal link opens") })
    }

    static var corpusFiles: [String] { RealWorldCorpus.plainNames }

    @Test("every real plain file migrates with the proof passing (or needs nothing)", arguments: corpusFiles)
    func corpus(_ name: String) throws {
        let data = try Data(contentsOf: Paths.realPlain.appendingPathComponent(name))
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(data.dropFirst(3)) : data
        for keepLegacy in [false, true] {
            let migration = Migrator.migrate(
                try JSONParser().parse(body), options: MigrationOptions(keepLegacy: keepLegacy))
            #expect(migration.blockers.isEmpty, "\(migration.blockers)")
            guard migration.changed else { continue }
            // The proof on the bytes that would be written.
            var written = migration
            written.root = try JSONParser().parse(JSONWriter().data(migration.root))
            let proof = Migrator.prove(written)
            #expect(proof.isEquivalent, "\(name): \(proof.modern.changes.prefix(3).map(\.summary))")
            // No legacy key left without --keep-legacy.
            if !keepLegacy {
                // Explicit about nil: a file without applinks has nothing legacy to check there,
                // and a migration that dropped every entry would pass an allSatisfy over none.
                if let appLinks = written.document.appLinks {
                    #expect(!appLinks.hasAppsKey, "\(name)")
                    #expect(appLinks.detailsForm != .dictionary, "\(name)")
                    let details = appLinks.details
                    let original = written.originalDocument.appLinks?.details.count
                    // Entries of one app may be merged, never all dropped.
                    #expect((original ?? 0) == 0 || !details.isEmpty, "\(name): \(details.count) of \(original ?? 0)")
                    #expect(details.allSatisfy { $0.appID == nil && $0.paths == nil }, "\(name)")
                }
            }
            // And the semantic diff agrees: nothing changed in meaning.
            #expect(SemanticDiff.compare(old: written.originalDocument, new: written.document).isSame, "\(name)")
        }
    }

    /// URLs of the caller's own (an access log) count against the same budget: exactly the
    /// budget's worth is compared whole; one more is cut, and the proof says so.
    @Test("the proof's extra URLs stop at the comparison budget, at the exact boundary")
    func extraURLsBudget() throws {
        let migration = try migrate(#"{"applinks": {"apps": [], "details": [{"appID": "A.app", "paths": ["/a/*"]}]}}"#)
        let generator = ProbeURLGenerator(comparisonBudget: 1)  // the floor: 100 URLs of each kind
        let exactly = Migrator.prove(
            migration, extraURLs: (0..<100).map { "/a/\($0)" }, generator: generator)
        #expect(exactly.extraCount == 100 && !exactly.extraTruncated)
        let more = Migrator.prove(migration, extraURLs: (0..<101).map { "/a/\($0)" }, generator: generator)
        #expect(more.extraCount == 100 && more.extraTruncated)
        #expect(more.isEquivalent)
    }
}
