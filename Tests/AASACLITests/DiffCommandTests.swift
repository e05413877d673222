import Foundation
import Testing

/// `aasa diff`: what two files mean, per service and per app, and the URLs whose verdict changes.
@Suite("aasa diff")
struct DiffCommandTests {
    private func write(_ json: String, _ name: String, in dir: URL) throws -> String {
        try Fixture.write(Data(json.utf8), to: dir, as: name).path
    }

    private let base = """
        {"applinks": {"details": [{"appIDs": ["T.a"], "components": [
          {"/": "/a/private", "exclude": true}, {"/": "/a/*"}, {"/": "/b"}]}]},
         "webcredentials": {"apps": ["T.a", "T.c"]}}
        """

    @Test("identical files: exit 0, the same meaning, the probe count")
    func identical() throws {
        try withTemporaryDirectory { dir in
            let old = try write(base, "old.json", in: dir)
            let new = try write(base, "new.json", in: dir)
            let result = CLI.run(["diff", old, new])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutText.hasSuffix("result: the files mean the same\n"))
            #expect(result.stdoutText.contains("none changes verdict"))
            #expect(result.stderr.isEmpty)
        }
    }

    @Test("reordered rules across verdicts: exit 1, the move, and the URLs whose verdict changes")
    func reordered() throws {
        try withTemporaryDirectory { dir in
            let old = try write(base, "old.json", in: dir)
            let new = try write(
                base.replacingOccurrences(
                    of: #"{"/": "/a/private", "exclude": true}, {"/": "/a/*"}"#,
                    with: #"{"/": "/a/*"}, {"/": "/a/private", "exclude": true}"#),
                "new.json", in: dir)
            let result = CLI.run(["diff", old, new])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdoutText.contains("T.a (applinks.details[0]):"), "\(result)")
            #expect(result.stdoutText.contains("can change verdicts"), "\(result)")
            #expect(result.stdoutText.contains("  /a/private: T.a: exclude → match"), "\(result)")
            #expect(result.stdoutText.hasSuffix("result: the files differ\n"))

            let json = try CLI.run(["diff", old, new, "--format", "json"]).jsonObject()
            let apps = try #require(json["apps"] as? [[String: Any]])
            let moved = try #require(apps.first?["reordered"] as? [[String: Any]])
            #expect(moved.count == 1)
            #expect(moved.first?["changesVerdicts"] as? Bool == true)
        }
    }

    @Test("an added exclude rule is reported with its index, and its URLs change verdict")
    func addedExclude() throws {
        try withTemporaryDirectory { dir in
            let old = try write(base, "old.json", in: dir)
            let new = try write(
                base.replacingOccurrences(
                    of: #"{"/": "/b"}"#, with: #"{"/": "/b/admin", "exclude": true}, {"/": "/b"}"#), "new.json", in: dir
            )
            let result = CLI.run(["diff", old, new])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdoutText.contains(#"added    [2] {"/": "/b/admin", "exclude": true}"#), "\(result)")
            #expect(result.stdoutText.contains("/b/admin: T.a: no_match → exclude"), "\(result)")
        }
    }

    @Test("an app gained and one lost in webcredentials")
    func webcredentialsApps() throws {
        try withTemporaryDirectory { dir in
            let old = try write(base, "old.json", in: dir)
            let new = try write(
                base.replacingOccurrences(of: #"["T.a", "T.c"]"#, with: #"["T.a", "T.d"]"#), "new.json", in: dir)
            let result = CLI.run(["diff", old, new])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdoutText.contains("webcredentials: gained T.d\nwebcredentials: lost T.c\n"), "\(result)")
            #expect(result.stdoutText.contains("none changes verdict"))
        }
    }

    @Test("--format json: the documented schema")
    func jsonSchema() throws {
        try withTemporaryDirectory { dir in
            let old = try write(base, "old.json", in: dir)
            let new = try write(
                base.replacingOccurrences(of: #"{"/": "/b"}"#, with: #"{"/": "/c"}"#).replacingOccurrences(
                    of: #"["T.a", "T.c"]"#, with: #"["T.a"]"#),
                "new.json", in: dir)
            let result = CLI.run(["diff", old, new, "--format", "json"])
            #expect(result.status == 1, "\(result)")
            let json = try result.jsonObject()
            #expect(
                Set(json.keys) == [
                    "schemaVersion", "aasaVersion", "old", "new", "same", "services", "apps", "variables", "probes",
                    "effect",
                ])
            #expect(json["old"] as? String == old)
            #expect(json["same"] as? Bool == false)
            let services = try #require(json["services"] as? [[String: Any]])
            #expect(services.first?["service"] as? String == "webcredentials")
            #expect(services.first?["lost"] as? [String] == ["T.c"])
            #expect(services.first?["gained"] as? [String] == [])
            let app = try #require((json["apps"] as? [[String: Any]])?.first)
            #expect(
                Set(app.keys) == ["appID", "entryBefore", "entryAfter", "added", "removed", "changed", "reordered"])
            let changed = try #require((app["changed"] as? [[String: Any]])?.first)
            #expect(changed["index"] as? Int == 2)
            let before = try #require(changed["before"] as? [String: Any])
            #expect(before["/"] as? String == "/b")
            #expect(before["location"] as? String == "applinks.details[0].components[2]")
            #expect(before["source"] as? String == "components")
            #expect(before["exclude"] as? Bool == false)
            #expect(before["caseSensitive"] as? Bool == true)
            #expect(before["percentEncoded"] as? Bool == true)
            let effect = try #require(json["effect"] as? [String: Any])
            #expect(Set(effect.keys) == ["old", "new"])
            #expect((effect["old"] as? [String: Any])?["webCredentials"] as? [String] == ["T.a", "T.c"], "\(effect)")
            let probes = try #require(json["probes"] as? [String: Any])
            #expect(
                Set(probes.keys) == [
                    "compared", "generated", "fromFile", "truncated", "fromFileTruncated", "changedCount", "changes",
                ])
            let change = try #require((probes["changes"] as? [[String: Any]])?.first)
            #expect(change["url"] is String)
            let appChange = try #require((change["apps"] as? [[String: Any]])?.first)
            #expect(Set(appChange.keys) == ["appID", "before", "after"])
        }
    }

    @Test("a legacy file and its migration: exit 0 (a legacy path is the rule it stands for)")
    func legacyAgainstMigrated() throws {
        try withTemporaryDirectory { dir in
            let legacy = try Fixture.write(to: dir, as: "legacy.json")
            let migrated = dir.child("modern.json")
            let migrate = CLI.run(["migrate", legacy.path, "-o", migrated.path])
            try #require(migrate.status == 0, "\(migrate)")
            let result = CLI.run(["diff", legacy.path, migrated.path])
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test("a signed file is compared by its embedded JSON, with a note")
    func signedInput() throws {
        try withTemporaryDirectory { dir in
            let signed = try Fixture.signedFile(in: dir)
            let plain = try Fixture.write(to: dir, as: "plain.json")
            let result = CLI.run(["diff", signed.path, plain.path])
            #expect(result.status == 0, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: signed.path, severity: "note", contains: ["not verified"])
        }
    }

    @Test("--urls-file URLs are compared and counted")
    func urlsFile() throws {
        try withTemporaryDirectory { dir in
            let old = try write(base, "old.json", in: dir)
            let urls = dir.child("urls.txt")
            try Data("/a/1\n/zzz\n# comment\n".utf8).write(to: urls)
            let result = CLI.run(["diff", old, old, "--urls-file", urls.path, "--format", "json"])
            #expect(result.status == 0, "\(result)")
            let probes = try #require(try result.jsonObject()["probes"] as? [String: Any])
            #expect(probes["fromFile"] as? Int == 2)
            #expect(probes["compared"] as? Int == (probes["generated"] as? Int ?? 0) + 2)
        }
    }

    @Test("unreadable or not JSON: exit 2; usage: exit 64")
    func errors() throws {
        try withTemporaryDirectory { dir in
            let old = try write(base, "old.json", in: dir)
            #expect(CLI.run(["diff", old, dir.child("missing.json").path]).status == 2)
            let broken = try write("{", "broken.json", in: dir)
            #expect(CLI.run(["diff", broken, old]).status == 2)
            #expect(CLI.run(["diff", old]).status == 64)
            #expect(CLI.run(["diff", "-", "-"]).status == 64)
        }
    }

    /// Issue #13: diff says what each file does in check's words, from DocumentEffect.
    @Test("text: what each file does, when that differs (a catch-all exclude leaves no app a link)")
    func effectLines() throws {
        try withTemporaryDirectory { dir in
            let old = try Fixture.write(
                Data(
                    #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/a/*"}]}]}}"#
                        .utf8),
                to: dir, as: "old.json")
            let new = try Fixture.write(
                Data(
                    #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"*","exclude":true}]}]}}"#
                        .utf8), to: dir, as: "new.json")
            let result = CLI.run(["diff", old.path, new.path])
            #expect(result.status == 1, "\(result)")
            let lines = result.stdoutText.split(separator: "\n").map(String.init)
            #expect(lines.count > 3 && lines[2] == "does: universal links for 1 app", "\(result)")
            #expect(
                lines[3]
                    == "  → nothing: no app gets universal links, shared web credentials, Handoff or an App Clip from it",
                "\(result)")
            let same = CLI.run(["diff", old.path, old.path])
            #expect(!same.stdoutText.contains("does:"), "\(same)")
        }
    }
}
