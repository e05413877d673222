import AASATestSupport
import Foundation
import Testing

/// `aasa migrate`: every legacy shape to the current format with the proof of equivalence;
/// files that cannot be migrated without a change of meaning refused.
@Suite("aasa migrate")
struct MigrateCommandTests {
    /// Legacy shapes, each with what the migrated file must (and must not) contain.
    enum Shape: String, CaseIterable, CustomTestStringConvertible {
        case dictionaryDetails, appID, notPaths, appsKey, fileDefaultsCaseInsensitive, mixedPathsAndComponents,
            sameAppTwice, identicalRulesMerged

        var testDescription: String { rawValue }

        var json: String {
            switch self {
            case .dictionaryDetails:
                return
                    #"{"applinks": {"apps": [], "details": {"T.a": {"paths": ["/a/*"]}, "T.b": {"paths": ["/b/*"]}}}}"#
            case .appID:
                return #"{"applinks": {"details": [{"appID": "T.a", "paths": ["/a/*"]}]}}"#
            case .notPaths:
                return #"{"applinks": {"details": [{"appID": "T.a", "paths": ["NOT /a/private/*", "/a/*", "*"]}]}}"#
            case .appsKey:
                return #"{"applinks": {"apps": [], "details": [{"appIDs": ["T.a"], "components": [{"/": "/a/*"}]}]}}"#
            case .fileDefaultsCaseInsensitive:
                return
                    #"{"applinks": {"defaults": {"caseSensitive": false, "percentEncoded": false}, "details": [{"appID": "T.a", "paths": ["/Caf%C3%A9/*"]}]}}"#
            case .mixedPathsAndComponents:
                return
                    #"{"applinks": {"details": [{"appID": "T.a", "paths": ["/old/*"], "components": [{"/": "/new/*", "?": {"id": "?*"}}]}]}}"#
            case .sameAppTwice:
                return
                    #"{"applinks": {"details": [{"appID": "T.a", "paths": ["/first/*"]}, {"appID": "T.a", "paths": ["/second/*"]}]}}"#
            case .identicalRulesMerged:
                return
                    #"{"applinks": {"details": [{"appID": "T.a", "paths": ["NOT /x", "*"]}, {"appID": "T.b", "paths": ["NOT /x", "*"]}]}}"#
            }
        }

        /// Compact JSON of the expected output.
        var expected: String {
            switch self {
            case .dictionaryDetails:
                return
                    #"{"applinks":{"details":[{"appIDs":["T.a"],"components":[{"/":"/a/*"}]},{"appIDs":["T.b"],"components":[{"/":"/b/*"}]}]}}"#
            case .appID:
                return #"{"applinks":{"details":[{"appIDs":["T.a"],"components":[{"/":"/a/*"}]}]}}"#
            case .notPaths:
                return
                    #"{"applinks":{"details":[{"appIDs":["T.a"],"components":[{"/":"/a/private/*","exclude":true},{"/":"/a/*"},{"/":"*"}]}]}}"#
            case .appsKey:
                return #"{"applinks":{"details":[{"appIDs":["T.a"],"components":[{"/":"/a/*"}]}]}}"#
            case .fileDefaultsCaseInsensitive:
                return
                    #"{"applinks":{"defaults":{"caseSensitive":false,"percentEncoded":false},"details":[{"appIDs":["T.a"],"components":[{"/":"/Caf%C3%A9/*","caseSensitive":true,"percentEncoded":true}]}]}}"#
            case .mixedPathsAndComponents:
                return #"{"applinks":{"details":[{"appIDs":["T.a"],"components":[{"/":"/new/*","?":{"id":"?*"}}]}]}}"#
            case .sameAppTwice:
                return
                    #"{"applinks":{"details":[{"appIDs":["T.a"],"components":[{"/":"/first/*"}]},{"appIDs":["T.a"],"components":[{"/":"/second/*"}]}]}}"#
            case .identicalRulesMerged:
                return
                    #"{"applinks":{"details":[{"appIDs":["T.a","T.b"],"components":[{"/":"/x","exclude":true},{"/":"*"}]}]}}"#
            }
        }
    }

    /// The `proof: N URLs compared` count in stderr.
    private func comparedCount(_ stderr: String) -> Int? {
        guard let range = stderr.range(of: #"proof: (\d+) URLs compared"#, options: .regularExpression) else {
            return nil
        }
        return Int(stderr[range].split(separator: " ")[1])
    }

    @Test("every legacy shape migrates, with the proof passing", arguments: Shape.allCases)
    func legacyShape(_ shape: Shape) throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(Data(shape.json.utf8), to: dir, as: "legacy.json")
            let output = dir.child("modern.json")
            let result = CLI.run(["migrate", input.path, "-o", output.path, "--compact"])
            #expect(result.status == 0, "\(result)")
            #expect(try String(decoding: contents(output), as: UTF8.self) == shape.expected + "\n")
            #expect(result.stderr.contains("no app's verdict changed"), "\(result)")
            #expect((comparedCount(result.stderr) ?? 0) > 4, "\(result)")
            #expect(result.stdout.isEmpty)
            // The migrated file is current: lint finds nothing legacy in it.
            let lint = CLI.run(["lint", output.path, "--min-severity", "deprecation"])
            #expect(!lint.stdoutText.contains("legacy-"), "\(lint)")
            // And diff agrees that nothing changed in meaning.
            let diff = CLI.run(["diff", input.path, output.path])
            #expect(diff.status == 0, "\(diff)")
        }
    }

    @Test("--keep-legacy keeps apps, appID and paths beside the new keys, and proves iOS 12's reading too")
    func keepLegacy() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir, as: "legacy.json")
            let result = CLI.run(["migrate", input.path, "--keep-legacy", "--compact"])
            #expect(result.status == 0, "\(result)")
            #expect(
                result.stdoutText
                    == #"{"applinks":{"apps":[],"details":[{"appIDs":["ABCDE12345.com.example.app"],"appID":"ABCDE12345.com.example.app","components":[{"/":"/buy/*"},{"/":"/buy/admin","exclude":true}],"paths":["/buy/*","NOT /buy/admin"]}]}}"#
                    + "\n")
            #expect(
                result.stderr.contains("as iOS 13+ and as iOS 12 and earlier read them: no app's verdict changed"),
                "\(result)")
        }
    }

    @Test(
        "the real legacy files of the corpus migrate with the proof passing",
        arguments: [
            "organicmaps_url-processor_public-aasa-json.json", "artsy_artsy-eigen-web-association_aasa-json-2015.json",
            "Handbid_Handbid-WordPress_aasa-unsigned.json",
            "GoogleChromeLabs_web-based-payment-app-example_public-aasa.json",
            "xuannt91_heroku-demo_aasa-crlf.json",
        ])
    func corpusFile(_ name: String) throws {
        let result = CLI.run(["migrate", CLI.realPlain(name)])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("no app's verdict changed"), "\(result)")
        let migrated = try #require(try result.jsonObject()["applinks"] as? [String: Any])
        #expect(migrated["apps"] == nil)
    }

    @Test(
        "a legacy path with $( cannot be migrated faithfully: exit 1, the reason and the changed URLs, nothing written")
    func dollarRefused() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(
                Data(#"{"applinks": {"details": [{"appID": "T.a", "paths": ["/price/$(amount)", "/help/*"]}]}}"#.utf8),
                to: dir,
                as: "legacy.json")
            let output = dir.child("modern.json")
            let result = CLI.run(["migrate", input.path, "-o", output.path])
            #expect(result.status == 1, "\(result)")
            #expect(!fileExists(output))
            #expect(leftoverTemporaries(in: dir).isEmpty)
            #expect(
                result.stderrLines.contains {
                    $0.hasPrefix(
                        "\(input.path): error: applinks.details[0].paths[0]: \"/price/$(amount)\" cannot be migrated faithfully"
                    )
                }, "\(result)")
            #expect(
                result.stderrLines.contains {
                    $0.hasPrefix("\(input.path): error: proof: /price/$(amount): T.a: match → no_match")
                }, "\(result)")
            expectDiagnostic(
                result.stderrLines.last, path: input.path, severity: "error", contains: ["nothing written", "--force"])

            // --force writes anyway, with warnings.
            let forced = CLI.run(["migrate", input.path, "-o", output.path, "--force"])
            #expect(forced.status == 0, "\(forced)")
            #expect(fileExists(output))
            #expect(
                forced.stderrLines.contains { $0.contains("warning: written despite the differences above (--force)") },
                "\(forced)")
            #expect(!forced.stderrLines.contains { $0.contains(": error: ") }, "\(forced)")
        }
    }

    @Test("--urls-file: its URLs (plain or access-log lines) are compared and counted")
    func urlsFileCounted() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir, as: "legacy.json")
            let log = dir.child("access.log")
            try Data(
                """
                # a comment
                https://example.com/buy/1
                /somewhere/else?x=1

                203.0.113.9 - - [21/Nov/2026:10:00:00 +0000] "GET /buy/admin?from=mail HTTP/1.1" 200 512 "-" "Mozilla/5.0"
                GET /buy/2 HTTP/1.1
                """.utf8
            ).write(to: log)
            let plain = CLI.run(["migrate", input.path, "--dry-run"])
            let withLog = CLI.run(["migrate", input.path, "--dry-run", "--urls-file", log.path])
            #expect(plain.status == 0 && withLog.status == 0, "\(plain)\n\(withLog)")
            let base = try #require(comparedCount(plain.stderr))
            #expect(comparedCount(withLog.stderr) == base + 4, "\(withLog)")
            #expect(withLog.stderr.contains("4 from \(log.path)"), "\(withLog)")
            #expect(withLog.stdout.isEmpty)
            #expect(withLog.stderr.contains("dry run: nothing written"))
            // An unreadable URL list: exit 2, nothing written.
            let missing = CLI.run([
                "migrate", input.path, "-o", dir.child("out.json").path, "--urls-file", dir.child("nope").path,
            ])
            #expect(missing.status == 2, "\(missing)")
            #expect(!fileExists(dir.child("out.json")))
        }
    }

    @Test("a file already in the current format: exit 0, said so, nothing written")
    func alreadyModern() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(
                Data(#"{"applinks": {"details": [{"appIDs": ["T.a"], "components": [{"/": "*"}]}]}}"#.utf8), to: dir,
                as: "modern.json")
            let output = dir.child("out.json")
            let result = CLI.run(["migrate", input.path, "-o", output.path])
            #expect(result.status == 0, "\(result)")
            #expect(!fileExists(output))
            expectDiagnostic(
                result.stderrLines.first, path: input.path, severity: "note",
                contains: ["already in the current format", "nothing to migrate"])
        }
    }

    @Test("a wrong type where the migration reads: exit 1 even with --force, nothing written")
    func wrongType() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(
                Data(#"{"applinks": {"details": [{"appID": "T.a", "paths": "/a/*"}]}}"#.utf8), to: dir, as: "bad.json")
            let output = dir.child("out.json")
            let result = CLI.run(["migrate", input.path, "-o", output.path, "--force"])
            #expect(result.status == 1, "\(result)")
            #expect(!fileExists(output))
            #expect(
                result.stderr.contains("applinks.details[0].paths: is string where the format needs array of strings"),
                "\(result)")
        }
    }

    @Test("unreadable, not JSON or signed input: exit 2")
    func badInputs() throws {
        try withTemporaryDirectory { dir in
            #expect(CLI.run(["migrate", dir.child("missing.json").path]).status == 2)
            let broken = try Fixture.write(Data("{\"applinks\": ".utf8), to: dir, as: "broken.json")
            #expect(CLI.run(["migrate", broken.path]).status == 2)
            let array = try Fixture.write(Data("[]".utf8), to: dir, as: "array.json")
            #expect(CLI.run(["migrate", array.path]).status == 2)
            let signed = try Fixture.signedFile(in: dir)
            let result = CLI.run(["migrate", signed.path])
            #expect(result.status == 2)
            #expect(result.stderr.contains("aasa convert"), "\(result)")
        }
    }

    @Test("-o the input itself is refused (64); usage errors")
    func usage() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(to: dir, as: "legacy.json")
            let before = try contents(input)
            let result = CLI.run(["migrate", input.path, "-o", input.path])
            #expect(result.status == 64, "\(result)")
            #expect(try contents(input) == before)
            #expect(CLI.run(["migrate"]).status == 64)
            #expect(CLI.run(["migrate", "-", "--urls-file", "-"]).status == 64)
        }
    }

    @Test(
        "many files with --out-dir: each as migrate writes it alone, under its name; the current and the refused ones counted, nothing written for them"
    )
    func manyFiles() throws {
        try withTemporaryDirectory { dir in
            let legacy = try Fixture.write(to: dir, as: "legacy.json")
            let modern = try Fixture.write(
                Data(#"{"applinks": {"details": [{"appIDs": ["T.a"], "components": [{"/": "*"}]}]}}"#.utf8), to: dir,
                as: "modern.json")
            let refused = try Fixture.write(
                Data(#"{"applinks": {"details": [{"appID": "T.a", "paths": ["/price/$(amount)"]}]}}"#.utf8), to: dir,
                as: "refused.json")
            let corpus = RealWorldCorpus.plainNames.prefix(3).map { RealWorldCorpus.plain($0) }
            try #require(corpus.count == 3)
            let out = dir.child("out")
            let inputs = [legacy.path, modern.path, refused.path] + corpus
            let result = CLI.run(["migrate"] + inputs + ["--out-dir", out.path])
            #expect(result.status == 1, "\(result)")
            #expect(
                result.stderrLines.last
                    == "migrate: 4 of 6 files migrated; 1 already current; 1 not migrated (nothing written)",
                "\(result)")
            let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
            let expected = ([legacy.path] + corpus).map { ($0 as NSString).lastPathComponent }.sorted()
            #expect(written == expected)
            for input in [legacy.path] + corpus {
                let alone = CLI.run(["migrate", input])
                #expect(alone.status == 0, "\(alone)")
                #expect(
                    try Data(contentsOf: out.child((input as NSString).lastPathComponent)) == alone.stdout, "\(input)")
            }
        }
    }

    @Test(
        "many files: without --out-dir, with -o too, with '-', or two inputs of one name: usage errors, nothing written"
    )
    func manyFilesUsage() throws {
        try withTemporaryDirectory { dir in
            let a = try Fixture.write(to: dir, as: "aasa.json")
            let sub = dir.child("sub")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            let b = try Fixture.write(to: sub, as: "aasa.json")
            let out = dir.child("out")
            for (arguments, says) in [
                ([a.path, b.path], "several files need --out-dir DIR"),
                ([a.path, "--out-dir", out.path, "-o", "x.json"], "give -o or --out-dir, not both"),
                (["-", "--out-dir", out.path], "standard input ('-') has no name"),
                ([a.path, b.path, "--out-dir", out.path], "would both be written to"),
            ] {
                let result = CLI.run(["migrate"] + arguments)
                #expect(result.status == 64, "\(arguments): \(result)")
                #expect(result.stderr.contains(says), "\(arguments): \(result)")
            }
            #expect(!fileExists(out))
        }
    }

    @Test("duplicate keys: reported, and the last occurrence migrated")
    func duplicateKeys() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(
                Data(#"{"applinks": {"details": [{"appID": "T.a", "paths": ["/first"], "paths": ["/last"]}]}}"#.utf8),
                to: dir,
                as: "dup.json")
            let result = CLI.run(["migrate", input.path, "--compact"])
            #expect(result.status == 0, "\(result)")
            #expect(
                result.stdoutText == #"{"applinks":{"details":[{"appIDs":["T.a"],"components":[{"/":"/last"}]}]}}"#
                    + "\n")
            expectDiagnostic(
                result.stderrLines.first, path: input.path, severity: "warning",
                contains: ["duplicate key", "applinks.details[0].paths"])
        }
    }
}
