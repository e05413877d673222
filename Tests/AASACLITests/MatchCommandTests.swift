import Foundation
import Testing

/// `aasa match`: which app opens each URL, `--explain`, `--format json`, `--urls-file`, and
/// the exit statuses.
@Suite("aasa match")
struct MatchCommandTests {
    /// examples/apple-app-site-association.json: ABCDE12345.com.example.app (components: /help/*,
    /// exclude /account/*, /products/* with ?ref) and ABCDE12345.com.example.legacy (paths:
    /// NOT /legacy/admin/*, /legacy/*).
    private let example = LintFixture.examplePlain
    private let app = "ABCDE12345.com.example.app"
    private let legacy = "ABCDE12345.com.example.legacy"

    private func match(_ args: [String], stdin: Data? = nil) -> CLI.Result {
        CLI.run(["match"] + args, stdin: stdin)
    }

    private func lines(_ result: CLI.Result) -> [String] {
        result.stdoutText.split(separator: "\n").map(String.init)
    }

    /// The stdout as a JSON array of objects.
    private func array(_ result: CLI.Result, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String:
        Any]]
    {
        try #require(
            try result.json() as? [[String: Any]], "stdout is not a JSON array of objects: \(result)",
            sourceLocation: sourceLocation)
    }

    // MARK: - Text

    @Test("a URL one app opens: URL: APPID, then one verdict line per app (two apps), exit 0")
    func matchesApp() {
        let result = match([example, "https://example.com/help/faq"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(
            lines(result) == [
                "https://example.com/help/faq: \(app)",
                "  \(app): match",
                "  \(legacy): no_match",
            ], "\(result)")
    }

    @Test("an excluded URL: no app (excluded), exit 1")
    func excluded() {
        let result = match([example, "https://example.com/account/x"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(lines(result).first == "https://example.com/account/x: no app (excluded)", "\(result)")
        #expect(lines(result).contains("  \(app): exclude"))
    }

    @Test("a URL no rule matches: no app, exit 1")
    func noMatch() {
        let result = match([example, "https://example.com/nothing"])
        #expect(result.status == 1, "\(result)")
        #expect(lines(result).first == "https://example.com/nothing: no app", "\(result)")
    }

    @Test("--explain names the deciding rule applinks.details[0].components[1]")
    func explain() {
        let result = match([example, "https://example.com/account/x", "--explain"])
        #expect(result.status == 1, "\(result)")
        let explained = lines(result)
        #expect(explained.first == "https://example.com/account/x: no app (excluded)")
        let appLine = explained.first { $0.hasPrefix("  \(app): exclude: ") }
        #expect(appLine?.contains("applinks.details[0].components[1]") == true, "\(result)")
        let legacyLine = explained.first { $0.hasPrefix("  \(legacy): no_match: ") }
        #expect(legacyLine?.contains("applinks.details[1].paths[1]") == true, "closest rule: \(result)")
    }

    @Test("legacy paths: a NOT path excludes /legacy/admin/x, /legacy/ok opens the legacy app")
    func legacyPaths() {
        let admin = match([example, "https://example.com/legacy/admin/x"])
        #expect(admin.status == 1, "\(admin)")
        #expect(lines(admin).first == "https://example.com/legacy/admin/x: no app (excluded)", "\(admin)")
        #expect(lines(admin).contains("  \(legacy): exclude"), "\(admin)")

        let ok = match([example, "https://example.com/legacy/ok", "--explain"])
        #expect(ok.status == 0, "\(ok)")
        #expect(lines(ok).first == "https://example.com/legacy/ok: \(legacy)", "\(ok)")
        #expect(
            lines(ok).contains { $0.hasPrefix("  \(legacy): match: ") && $0.contains("applinks.details[1].paths[1]") },
            "\(ok)")
    }

    @Test("a bare path is matched; several URLs give one block each, exit 1 if any opens no app")
    func severalURLs() {
        let result = match([example, "/help/x", "https://example.com/account/1"])
        #expect(result.status == 1, "\(result)")
        let heads = lines(result).filter { !$0.hasPrefix("  ") }
        #expect(heads == ["/help/x: \(app)", "https://example.com/account/1: no app (excluded)"], "\(result)")
        #expect(match([example, "/help/x", "/legacy/y"]).status == 0)
    }

    @Test("a file with one app prints one line per URL (no per-app lines without --explain)")
    func singleAppText() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(LintFixture.modern, to: dir, as: "modern.json")
            let result = match([file.path, "/help/a", "/account/b", "/c"])
            #expect(result.status == 1, "\(result)")
            #expect(lines(result) == ["/help/a: \(app)", "/account/b: no app (excluded)", "/c: no app"], "\(result)")
        }
    }

    // MARK: - JSON

    @Test("--format json with one URL: one object, appID an explicit null when no app opens it")
    func jsonOneURL() throws {
        let result = match([example, "https://example.com/account/x", "--format", "json"])
        #expect(result.status == 1, "\(result)")
        let object = try result.jsonObject()
        #expect(
            Set(object.keys) == ["schemaVersion", "aasaVersion", "url", "appID", "excluded", "apps"], "\(object.keys)")
        #expect(object["url"] as? String == "https://example.com/account/x")
        #expect(object["appID"] is NSNull, "appID must be an explicit null: \(result)")
        #expect(object["excluded"] as? Bool == true)
        let apps = try #require(object["apps"] as? [[String: Any]])
        #expect(apps.map { $0["appID"] as? String } == [app, legacy])
        #expect(apps.map { $0["verdict"] as? String } == ["exclude", "no_match"])
        #expect(apps.allSatisfy { $0["explanation"] == nil }, "no explanation without --explain")

        let hit = try match([example, "https://example.com/help/faq", "--format", "json"]).jsonObject()
        #expect(hit["appID"] as? String == app)
        #expect(hit["excluded"] as? Bool == false)
    }

    @Test("--format json --explain: each app has an explanation with entry, rule and summary")
    func jsonExplain() throws {
        let result = match([example, "https://example.com/account/x", "--format", "json", "--explain"])
        let apps = try #require(try result.jsonObject()["apps"] as? [[String: Any]])
        let first = try #require(apps.first?["explanation"] as? [String: Any])
        #expect(first["entry"] as? String == "applinks.details[0]")
        #expect(first["rule"] as? String == "applinks.details[0].components[1]")
        #expect((first["summary"] as? String)?.isEmpty == false)
        let second = try #require(apps.last?["explanation"] as? [String: Any])
        #expect(second["failedComponent"] as? String == "/")
        #expect(second["value"] as? String == "/account/x")
        #expect(second["pattern"] as? String == "/legacy/*")
    }

    @Test("--format json with several URLs: an array in argument order")
    func jsonSeveralURLs() throws {
        let urls = ["https://example.com/help/a", "https://example.com/account/b", "/legacy/c"]
        let result = match([example] + urls + ["--format", "json"])
        #expect(result.status == 1, "\(result)")
        let elements = try array(result)
        #expect(elements.map { $0["url"] as? String } == urls)
        #expect(elements[0]["appID"] as? String == app)
        #expect(elements[1]["appID"] is NSNull)
        #expect(elements[2]["appID"] as? String == legacy)
    }

    // MARK: - --urls-file

    private let urlsFileText =
        "# a comment\n\nhttps://example.com/help/a\r\n   \n  /legacy/ok  \n\t# indented comment\nhttps://example.com/zzz"

    @Test("--urls-file FILE: blank lines and # comments skipped, one element per URL in order")
    func urlsFile() throws {
        try withTemporaryDirectory { dir in
            let list = try Fixture.write(Data(urlsFileText.utf8), to: dir, as: "urls.txt")
            let result = match([example, "--urls-file", list.path, "--format", "json"])
            #expect(result.status == 1, "zzz opens no app: \(result)")
            let elements = try array(result)
            #expect(
                elements.map { $0["url"] as? String } == [
                    "https://example.com/help/a", "/legacy/ok", "https://example.com/zzz",
                ])
            #expect(elements.map { $0["appID"] as? String } == [app, legacy, nil])

            // URL arguments come first, then the file's; one URL from a file is still an array.
            let one = try Fixture.write(Data("/help/z\n".utf8), to: dir, as: "one.txt")
            let mixed = match([example, "/help/y", "--urls-file", one.path, "--format", "json"])
            #expect(mixed.status == 0, "\(mixed)")
            #expect(try array(mixed).map { $0["url"] as? String } == ["/help/y", "/help/z"])
            let single = match([example, "--urls-file", one.path, "--format", "json"])
            #expect(try array(single).count == 1)
        }
    }

    @Test("--urls-file - reads standard input")
    func urlsFromStdin() throws {
        let result = match([example, "--urls-file", "-", "--format", "json"], stdin: Data(urlsFileText.utf8))
        #expect(result.status == 1, "\(result)")
        #expect(
            try array(result).map { $0["url"] as? String } == [
                "https://example.com/help/a", "/legacy/ok", "https://example.com/zzz",
            ])

        let text = match([example, "--urls-file", "-"], stdin: Data(urlsFileText.utf8))
        #expect(lines(text).filter { !$0.hasPrefix("  ") }.count == 3, "\(text)")
    }

    @Test("an empty URL list: [] in JSON, nothing in text, exit 0")
    func emptyURLsFile() throws {
        try withTemporaryDirectory { dir in
            let list = try Fixture.write(Data("# nothing\n\n".utf8), to: dir, as: "urls.txt")
            let json = match([example, "--urls-file", list.path, "--format", "json"])
            #expect(json.status == 0, "\(json)")
            #expect(try array(json).isEmpty)
            let text = match([example, "--urls-file", list.path])
            #expect(text.status == 0, "\(text)")
            #expect(text.stdout.isEmpty)
        }
    }

    @Test("a 20,000-line URL file is processed: one output line / element per URL")
    func largeURLsFile() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(LintFixture.modern, to: dir, as: "modern.json")
            let count = 20_000
            var text = ""
            for index in 0..<count {
                text += index.isMultiple(of: 2) ? "https://example.com/help/\(index)\n" : "/account/\(index)\n"
            }
            let list = try Fixture.write(Data(text.utf8), to: dir, as: "urls.txt")

            let result = match([file.path, "--urls-file", list.path])
            #expect(result.status == 1, "half are excluded")
            let output = lines(result)
            #expect(output.count == count, "\(output.count) lines")
            #expect(output.first == "https://example.com/help/0: \(app)")
            #expect(output.last == "/account/\(count - 1): no app (excluded)")

            let json = match([file.path, "--urls-file", list.path, "--format", "json"])
            let elements = try array(json)
            #expect(elements.count == count)
            #expect(elements.filter { $0["appID"] is NSNull }.count == count / 2)
        }
    }

    // MARK: - Bad URLs

    @Test("an unparseable URL: an element with error, exit 1", arguments: ["http://", "https://"])
    func unparseableURL(url: String) throws {
        let text = match([example, url])
        #expect(text.status == 1, "\(text)")
        #expect(text.stdoutText.hasPrefix("\(url): error: "), "\(text)")

        let result = match([example, "/help/a", url, "--format", "json"])
        #expect(result.status == 1, "\(result)")
        let elements = try array(result)
        try #require(elements.count == 2)
        #expect(elements[1]["url"] as? String == url)
        #expect((elements[1]["error"] as? String)?.isEmpty == false, "\(result)")
        #expect(elements[1]["appID"] is NSNull)
        #expect((elements[1]["apps"] as? [Any])?.isEmpty == true)
        #expect(elements[0]["error"] == nil, "error is omitted when there is none")
    }

    @Test("a 10,000-character URL is reported as longer than the limit, as argument and in a file")
    func overlongURL() throws {
        let url = "https://example.com/help/" + String(repeating: "a", count: 10_000 - 25)
        #expect(url.count == 10_000)
        let text = match([example, url])
        #expect(text.status == 1, "\(text)")
        #expect(text.stdoutText.contains(": error: URL longer than "), "\(text)")
        #expect(text.stdout.count < 500, "the URL is shortened in the output")

        let json = match([example, url, "--format", "json"])
        let object = try json.jsonObject()
        #expect((object["error"] as? String)?.contains("longer than") == true, "\(json)")
        #expect(object["appID"] is NSNull)

        try withTemporaryDirectory { dir in
            let list = try Fixture.write(Data("\(url)\n/help/short\n".utf8), to: dir, as: "urls.txt")
            let result = match([example, "--urls-file", list.path, "--format", "json"])
            #expect(result.status == 1, "\(result)")
            let elements = try array(result)
            try #require(elements.count == 2, "\(result)")
            #expect((elements[0]["error"] as? String)?.contains("longer than") == true)
            #expect(elements[1]["appID"] as? String == app, "the next line is read normally")
        }
    }

    @Test("a URL of exactly 8192 characters is still matched, as argument and in a file")
    func urlAtTheLimit() throws {
        let url = "https://example.com/help/" + String(repeating: "a", count: 8192 - 25)
        #expect(url.utf8.count == 8192)
        let result = match([example, url, "--format", "json"])
        #expect(result.status == 0, "\(result)")
        #expect(try result.jsonObject()["appID"] as? String == app)
        try withTemporaryDirectory { dir in
            let list = try Fixture.write(Data("\(url)\n".utf8), to: dir, as: "urls.txt")
            let fromFile = match([example, "--urls-file", list.path, "--format", "json"])
            #expect(try array(fromFile).first?["appID"] as? String == app, "\(fromFile)")
        }
    }

    // MARK: - Input files

    @Test("a signed file: its embedded JSON is matched, with a 'not verified' note on stderr")
    func signedInput() {
        let file = LintFixture.exampleSigned
        let result = match([file, "https://example.com/help/faq"])
        #expect(result.status == 0, "\(result)")
        #expect(lines(result).first == "https://example.com/help/faq: \(app)", "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        expectDiagnostic(result.stderrLines.first, path: file, severity: "note", contains: ["not verified"])
    }

    @Test("the AASA file from standard input")
    func aasaFromStdin() throws {
        let result = match(["-", "/help/a"], stdin: try contents(URL(fileURLWithPath: example)))
        #expect(result.status == 0, "\(result)")
        #expect(lines(result).first == "/help/a: \(app)")
    }

    @Test("invalid JSON exits 2 with 'cannot match' on stderr and nothing on stdout")
    func invalidJSON() throws {
        try withTemporaryDirectory { dir in
            let bad = try Fixture.write(LintFixture.invalidJSON, to: dir, as: "bad.json")
            for extra in [[], ["--format", "json"]] {
                let result = match([bad.path, "/help/a"] + extra)
                #expect(result.status == 2, "\(result)")
                #expect(result.stdout.isEmpty, "\(result)")
                expectDiagnostic(
                    result.stderrLines.first, path: bad.path, severity: "error", contains: ["cannot match"])
            }
            let signed = try LintFixture.sign(bad, to: dir.child("bad.p7m"))
            let signedResult = match([signed.path, "/help/a"])
            #expect(signedResult.status == 2, "\(signedResult)")
        }
    }

    @Test("a missing AASA file or URL list exits 2")
    func missingFiles() throws {
        try withTemporaryDirectory { dir in
            let missing = dir.child("missing").path
            let aasa = match([missing, "/help/a"])
            #expect(aasa.status == 2, "\(aasa)")
            #expect(aasa.stdout.isEmpty)
            expectDiagnostic(aasa.stderrLines.first, path: missing, severity: "error", contains: ["cannot read input"])

            let list = match([example, "--urls-file", missing])
            #expect(list.status == 2, "\(list)")
            expectDiagnostic(
                list.stderrLines.first, path: missing, severity: "error", contains: ["cannot read URL list"])

            let directory = match([example, "--urls-file", dir.path])
            #expect(directory.status == 2, "\(directory)")
        }
    }

    // MARK: - A file that names no applinks app

    /// A valid AASA file with only a webcredentials section: no applinks app at all.
    static let webCredentialsOnly = Data(
        """
        {
          "webcredentials": {
            "apps": ["ABCDE12345.com.example.app"]
          }
        }

        """.utf8)

    @Test("only webcredentials, text: every URL gets 'no app', one note on stderr says why, exit 1")
    func noApplinksText() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(Self.webCredentialsOnly, to: dir, as: "webcredentials.json")
            for extra in [[], ["--explain"]] {
                let result = match([file.path, "https://example.com/help/faq", "/b"] + extra)
                #expect(result.status == 1, "\(result)")
                #expect(lines(result) == ["https://example.com/help/faq: no app", "/b: no app"], "\(result)")
                #expect(result.stderrLines.count == 1, "one note, not one per URL: \(result)")
                expectDiagnostic(
                    result.stderrLines.first, path: file.path, severity: "note",
                    contains: ["the file has no applinks section", "no app opens any URL"])
            }
        }
    }

    @Test("only webcredentials, --format json: appID null and no apps for each URL, one object or an array")
    func noApplinksJSON() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(Self.webCredentialsOnly, to: dir, as: "webcredentials.json")
            let one = match([file.path, "https://example.com/help/faq", "--format", "json"])
            #expect(one.status == 1, "\(one)")
            let object = try one.jsonObject()
            #expect(object["url"] as? String == "https://example.com/help/faq")
            #expect(object["appID"] is NSNull, "\(one)")
            #expect(object["excluded"] as? Bool == false)
            #expect((object["apps"] as? [Any])?.isEmpty == true, "\(one)")
            #expect(one.stderrLines.count == 1, "\(one)")
            expectDiagnostic(
                one.stderrLines.first, path: file.path, severity: "note", contains: ["no applinks section"])

            let several = match([file.path, "/a", "/b", "--format", "json"])
            #expect(several.status == 1, "\(several)")
            let elements = try array(several)
            #expect(elements.map { $0["url"] as? String } == ["/a", "/b"])
            #expect(elements.allSatisfy { $0["appID"] is NSNull && ($0["apps"] as? [Any])?.isEmpty == true })
        }
    }

    @Test("only webcredentials, --urls-file: a 'no app' line or element per URL, comments skipped, exit 1")
    func noApplinksURLsFile() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(Self.webCredentialsOnly, to: dir, as: "webcredentials.json")
            let list = try Fixture.write(
                Data("# log\n/help/a\n\nhttps://example.com/x\n".utf8), to: dir, as: "urls.txt")
            let text = match([file.path, "--urls-file", list.path])
            #expect(text.status == 1, "\(text)")
            #expect(lines(text) == ["/help/a: no app", "https://example.com/x: no app"], "\(text)")
            #expect(text.stderrLines.count == 1, "\(text)")
            expectDiagnostic(
                text.stderrLines.first, path: file.path, severity: "note", contains: ["no applinks section"])

            let json = match([file.path, "--urls-file", list.path, "--format", "json"])
            #expect(json.status == 1, "\(json)")
            #expect(try array(json).map { $0["url"] as? String } == ["/help/a", "https://example.com/x"])

            let stdin = match([file.path, "--urls-file", "-"], stdin: Data("/help/a\n".utf8))
            #expect(stdin.status == 1 && lines(stdin) == ["/help/a: no app"], "\(stdin)")
        }
    }

    @Test(
        "an applinks that names no app, or is not an object: the same answer, with the note saying which",
        arguments: [
            (#"{"applinks": {"details": []}}"#, "the applinks section names no app"),
            (#"{"applinks": {"details": [{"components": [{"/": "/*"}]}]}}"#, "the applinks section names no app"),
            (#"{"applinks": 5, "webcredentials": {"apps": []}}"#, "applinks is not an object"),
        ])
    func applinksWithoutApps(json: String, reason: String) throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(Data(json.utf8), to: dir, as: "aasa.json")
            let result = match([file.path, "/help/a"])
            #expect(result.status == 1, "\(result)")
            #expect(lines(result) == ["/help/a: no app"], "\(result)")
            expectDiagnostic(result.stderrLines.first, path: file.path, severity: "note", contains: [reason])
        }
    }

    @Test("a top level that is not an object is still no AASA document: exit 2, nothing on stdout")
    func rootNotObject() throws {
        try withTemporaryDirectory { dir in
            let file = try Fixture.write(Data("[]".utf8), to: dir, as: "array.json")
            let result = match([file.path, "/help/a"])
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            expectDiagnostic(result.stderrLines.first, path: file.path, severity: "error", contains: ["cannot match"])
        }
    }

    // MARK: - Usage

    @Test(
        "usage errors exit 64: no URL, both inputs on standard input, unknown format",
        arguments: [
            ["EXAMPLE"], ["-", "--urls-file", "-"], ["EXAMPLE", "/a", "--format", "sarif"], [],
        ])
    func usageErrors(args: [String]) {
        let result = match(args.map { $0 == "EXAMPLE" ? example : $0 })
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("Usage: aasa match"), "\(result)")
    }

    // MARK: - Known issues

    @Test("--format json with an unreadable --urls-file writes no partial JSON")
    func noPartialJSON() throws {
        try withTemporaryDirectory { dir in
            let result = match([example, "--urls-file", dir.child("missing").path, "--format", "json"])
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty, "stdout: \(result.stdoutText.debugDescription)")
        }
    }
}
