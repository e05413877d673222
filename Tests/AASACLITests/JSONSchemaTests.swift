import Foundation
import Testing

/// Every JSON output of `aasa` against its published schema (docs/schemas, docs/json.md): the
/// real binary over fixtures that exercise each output and its variants, each output validated
/// by a real validator (scripts/validate-json.py, python3-jsonschema). The audit outputs are
/// validated in AASAAuditTests/AuditJSONSchemaTests, which has the nginx they need.
@Suite struct JSONSchemaTests {
    static let schemas = Repository.root.appendingPathComponent("docs/schemas")

    static func schema(_ name: String) -> URL { schemas.appendingPathComponent("\(name).schema.json") }

    /// One run of `aasa` whose standard output is JSON of the `schema` kind.
    struct Case: CustomStringConvertible {
        var schema: String
        var args: [String]
        /// JSON lines (each validated on its own) rather than one document.
        var lines = false
        var status: Int32
        /// What the output (its first line for JSON lines) must be at its top.
        var top: Top
        var description: String { "aasa " + args.joined(separator: " ") }

        enum Top { case object, array }
    }

    /// The fixtures of the cases, in `directory`: plain JSON with legacy parts (`legacy.json`),
    /// current-format JSON (`modern.json`), invalid JSON (`broken.json`), a signed file that
    /// verifies with the test trust (`signed.p7m`), one whose signer expired (`expired.p7m`), one
    /// from an untrusted root (`untrusted.p7m`), a file that is no AASA file (`notes.txt`), and
    /// lists of URLs (`urls.txt`, and `no-urls.txt` with none).
    static func fixtures(in directory: URL) throws {
        try Fixture.write(to: directory, as: "legacy.json")
        try Fixture.write(
            Data(
                #"""
                {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"],
                  "components": [{"/": "/buy/*"}, {"/": "/buy/admin", "exclude": true}]}]},
                 "webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}
                """#.utf8), to: directory, as: "modern.json")
        try Fixture.write(Data(#"{"applinks": {"details": [],}}"#.utf8), to: directory, as: "broken.json")
        try Fixture.write(Data("not an AASA file\n".utf8), to: directory, as: "notes.txt")
        try Fixture.write(Data("https://example.com/buy/1\n/buy/admin\n/other\n".utf8), to: directory, as: "urls.txt")
        try Fixture.write(Data("# no URL\n".utf8), to: directory, as: "no-urls.txt")
        _ = try Fixture.signedFile(in: directory, name: "signed.p7m")
        _ = try Fixture.signedFile(in: directory, leaf: "leaf-expired", name: "expired.p7m")
        let source = try Fixture.write(to: directory, as: "untrusted.source.json")
        try Fixture.opensslSign(source, leaf: "leaf-untrusted", chain: nil, to: directory.child("untrusted.p7m"))
    }

    /// Every output and its variants, run in the fixtures' directory (paths relative to it).
    static let cases: [Case] = {
        let trust = Fixture.testTrust
        let batch = ["signed.p7m", "expired.p7m", "untrusted.p7m", "legacy.json", "missing.p7m"]
        let artsy = CLI.realSigned("artsy_artsy-eigen-web-association_aasa-20150915-a.p7m")
        return [
            // verify: one file (valid, untrusted), a batch with every verdict and an unreadable file
            Case(
                schema: "verify", args: ["verify", "signed.p7m", "--format", "json"] + trust, status: 0, top: .object),
            Case(
                schema: "verify", args: ["verify", "untrusted.p7m", "--format", "json"] + trust, status: 1, top: .object
            ),
            Case(
                schema: "verify", args: ["verify", "legacy.json", "--format", "jsonl"] + trust, lines: true, status: 1,
                top: .object),
            Case(schema: "verify", args: ["verify"] + batch + ["--format", "json"] + trust, status: 2, top: .array),
            Case(
                schema: "verify", args: ["verify"] + batch + ["--format", "jsonl"] + trust, lines: true, status: 2,
                top: .object),
            // a batch in which no file could be read: an empty array
            Case(
                schema: "verify", args: ["verify", "missing.p7m", "gone.p7m", "--format", "json"] + trust, status: 2,
                top: .array),
            // detect: one file, a batch with an unreadable file, jsonl
            Case(schema: "detect", args: ["detect", "signed.p7m", "--format", "json"], status: 0, top: .object),
            Case(
                schema: "detect",
                args: ["detect", "signed.p7m", "broken.json", "notes.txt", "missing.p7m", "--format", "json"],
                status: 2, top: .array),
            Case(
                schema: "detect", args: ["detect", "legacy.json", "notes.txt", "--format", "jsonl"], lines: true,
                status: 0,
                top: .object),
            // lint: findings with and without positions (signed, invalid, legacy), an unreadable file
            Case(
                schema: "lint",
                args: ["lint", "legacy.json", "broken.json", "signed.p7m", "modern.json", "--format", "json"],
                status: 1, top: .object),
            Case(schema: "lint", args: ["lint", "modern.json", "--format", "json"], status: 0, top: .object),
            Case(schema: "lint", args: ["lint", "missing.p7m", "--format", "json"], status: 2, top: .object),
            Case(
                schema: "lint", args: ["lint", "legacy.json", "broken.json", "missing.p7m", "--format", "jsonl"],
                lines: true,
                status: 2, top: .object),
            // lint --list-rules
            Case(schema: "rules", args: ["lint", "--list-rules", "--format", "json"], status: 0, top: .array),
            Case(
                schema: "rules", args: ["lint", "--list-rules", "--format", "jsonl"], lines: true, status: 0,
                top: .object),
            // check: plain legacy, current, broken, signed (valid, expired)
            Case(schema: "check", args: ["check", "legacy.json", "--format", "json"], status: 0, top: .object),
            Case(schema: "check", args: ["check", "modern.json", "--format", "json"], status: 0, top: .object),
            Case(schema: "check", args: ["check", "broken.json", "--format", "json"], status: 1, top: .object),
            Case(schema: "check", args: ["check", "signed.p7m", "--format", "json"] + trust, status: 0, top: .object),
            Case(schema: "check", args: ["check", "expired.p7m", "--format", "json"] + trust, status: 1, top: .object),
            // --historical: valid-then (its `historical` object), in verify and check
            Case(
                schema: "verify", args: ["verify", artsy, "--historical", "--format", "json"], status: 0, top: .object),
            Case(schema: "check", args: ["check", artsy, "--historical", "--format", "json"], status: 0, top: .object),
            // inspect: signed, plain, and --historical (its `historical` object)
            Case(schema: "inspect", args: ["inspect", "signed.p7m", "--format", "json"], status: 0, top: .object),
            Case(
                schema: "inspect", args: ["inspect", artsy, "--historical", "--format", "json"], status: 0,
                top: .object),
            Case(schema: "inspect", args: ["inspect", "legacy.json", "--format", "json"], status: 0, top: .object),
            // match: one URL, several with --explain, a URL list, a URL with an error
            Case(
                schema: "match", args: ["match", "modern.json", "https://example.com/buy/1", "--format", "json"],
                status: 0,
                top: .object),
            Case(
                schema: "match",
                args: ["match", "legacy.json", "/buy/1", "/buy/admin", "/other", "--explain", "--format", "json"],
                status: 1,
                top: .array),
            Case(
                schema: "match",
                args: ["match", "modern.json", "--urls-file", "urls.txt", "--explain", "--format", "json"],
                status: 1, top: .array),
            Case(
                schema: "match", args: ["match", "modern.json", "https://", "--format", "json"], status: 1, top: .object
            ),
            Case(
                schema: "match", args: ["match", "modern.json", "--urls-file", "no-urls.txt", "--format", "json"],
                status: 0, top: .array),
            // diff: files that differ (legacy paths against components), and the same file twice
            Case(
                schema: "diff",
                args: ["diff", "legacy.json", "modern.json", "--urls-file", "urls.txt", "--format", "json"],
                status: 1, top: .object),
            Case(
                schema: "diff", args: ["diff", "signed.p7m", "legacy.json", "--format", "json"], status: 0, top: .object
            ),
        ]
    }()

    /// What `aasa` printed for `testCase`, run in `directory`, after checking its status and shape.
    static func output(_ testCase: Case, in directory: URL) throws -> Data {
        let result = CLI.run(testCase.args, in: directory)
        #expect(result.status == testCase.status, "\(testCase): \(result)")
        try #require(!result.stdout.isEmpty, "\(testCase): no output: \(result)")
        let first = try #require(
            testCase.lines
                ? result.stdout.split(separator: UInt8(ascii: "\n")).first.map { Data($0) } : result.stdout)
        let top = try JSONSerialization.jsonObject(with: first)
        switch testCase.top {
        case .object: #expect(top is [String: Any], "\(testCase): \(result)")
        case .array: #expect(top is [Any], "\(testCase): \(result)")
        }
        return result.stdout
    }

    @Test func everyOutputValidatesAgainstItsSchema() throws {
        #expect(Self.cases.count == 32)
        try withTemporaryDirectory { directory in
            try Self.fixtures(in: directory)
            var validated = 0
            for testCase in Self.cases {
                let output = try Self.output(testCase, in: directory)
                let outcome = SchemaValidation.json(output, schema: Self.schema(testCase.schema), lines: testCase.lines)
                #expect(
                    outcome.valid, "\(testCase): \(outcome)\n\(String(decoding: output.prefix(3000), as: UTF8.self))")
                validated += 1
            }
            #expect(validated == Self.cases.count)
        }
    }

    /// Each kind of output names its schema version and the tool's version, in every record:
    /// each line of jsonl and each element of a batch array.
    @Test func everyDocumentAndRecordCarriesTheVersions() throws {
        let version = try #require(
            CLI.run(["--version"]).stdoutText.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
        try withTemporaryDirectory { directory in
            try Self.fixtures(in: directory)
            var records = 0
            for testCase in Self.cases {
                let output = try Self.output(testCase, in: directory)
                let documents = try
                    (testCase.lines ? output.split(separator: UInt8(ascii: "\n")).map { Data($0) } : [output])
                    .map { try JSONSerialization.jsonObject(with: $0) }
                for document in documents {
                    var objects = (document as? [Any] ?? [document]).compactMap { $0 as? [String: Any] }
                    if !(document is [Any]) {
                        objects += (objects.first?["files"] as? [[String: Any]]) ?? []
                    }
                    for object in objects {
                        #expect(object["schemaVersion"] as? Int == 1, "\(testCase): \(object.keys.sorted())")
                        #expect(object["aasaVersion"] as? String == version, "\(testCase)")
                        records += 1
                    }
                }
            }
            // At least as many stamped objects as cases (batches hold several; an empty array none).
            #expect(records >= Self.cases.count)
        }
    }

    /// The diagnostic object is the same in lint and check: every key present, nulls for a
    /// file-level finding's position and for `url`.
    @Test func lintAndCheckPrintTheSameDiagnosticObject() throws {
        try withTemporaryDirectory { directory in
            try Self.fixtures(in: directory)
            let lint = try CLI.run(["lint", "signed.p7m", "--format", "jsonl"], in: directory).jsonObject()
            let check = try CLI.run(["check", "signed.p7m", "--format", "json"] + Fixture.testTrust, in: directory)
                .jsonObject()
            let fromLint = try #require(lint["diagnostics"] as? [[String: Any]])
            let fromCheck = try #require((check["report"] as? [String: Any])?["diagnostics"] as? [[String: Any]])
            #expect(fromLint.count >= 2)
            #expect(fromLint.count == fromCheck.count)
            for (left, right) in zip(fromLint, fromCheck) {
                #expect(Set(left.keys) == ["rule", "severity", "message", "location", "url"])
                #expect(Set(left.keys) == Set(right.keys))
                #expect(left["url"] is NSNull && right["url"] is NSNull)
                let place = try #require(left["location"] as? [String: Any])
                #expect(Set(place.keys) == ["path", "line", "column"])
                #expect(NSDictionary(dictionary: left) == NSDictionary(dictionary: right))
            }
            // signed-file is a file-level finding: explicit nulls, not missing keys.
            let signed = try #require(fromLint.first { $0["rule"] as? String == "signed-file" })
            let place = try #require(signed["location"] as? [String: Any])
            #expect(place["line"] is NSNull && place["column"] is NSNull)
        }
    }

    /// The schemas are closed: a real output with one key renamed, or its schema version
    /// changed, or a diagnostic without its `url`, fails.
    @Test func aRenamedKeyFailsValidation() throws {
        try withTemporaryDirectory { directory in
            try Self.fixtures(in: directory)
            let outputs: [(schema: String, args: [String])] = [
                ("verify", ["verify", "signed.p7m", "--format", "json"] + Fixture.testTrust),
                ("lint", ["lint", "legacy.json", "--format", "json"]),
                ("check", ["check", "legacy.json", "--format", "json"]),
            ]
            #expect(outputs.count == 3)
            for (schema, args) in outputs {
                let result = CLI.run(args, in: directory)
                let text = result.stdoutText
                let original = SchemaValidation.json(result.stdout, schema: Self.schema(schema))
                #expect(original.valid, "\(schema): \(original)")
                let edits: [(String, String)] = [
                    ("\"path\" :", "\"pathname\" :"),
                    ("\"schemaVersion\" : 1", "\"schemaVersion\" : 2"),
                    ("\"aasaVersion\" :", "\"toolVersion\" :"),
                ]
                #expect(edits.count == 3)
                for (from, to) in edits {
                    #expect(text.contains(from), "\(schema): no \(from) to edit")
                    let edited = Data(text.replacingOccurrences(of: from, with: to).utf8)
                    let outcome = SchemaValidation.json(edited, schema: Self.schema(schema))
                    #expect(!outcome.valid, "\(schema): \(from) → \(to) still validates")
                    #expect(outcome.messages.contains("exit 1"), "\(schema): \(outcome)")
                }
            }
            // A diagnostic that leaves out a null key is not the shared object.
            let lint = CLI.run(["lint", "legacy.json", "--format", "json"], in: directory).stdoutText
            let withoutURL = lint.replacingOccurrences(
                of: #",\s*"url" : null"#, with: "", options: .regularExpression)
            #expect(withoutURL != lint)
            #expect(!SchemaValidation.json(Data(withoutURL.utf8), schema: Self.schema("lint")).valid)
        }
    }

    /// The schemas where the validator can say no, at the boundary: an output of another kind
    /// fails (a verify report is no detect record).
    @Test func anOutputOfAnotherKindFails() throws {
        try withTemporaryDirectory { directory in
            try Self.fixtures(in: directory)
            let verify = CLI.run(["verify", "signed.p7m", "--format", "json"] + Fixture.testTrust, in: directory)
            #expect(SchemaValidation.json(verify.stdout, schema: Self.schema("verify")).valid)
            #expect(!SchemaValidation.json(verify.stdout, schema: Self.schema("detect")).valid)
        }
    }

    /// Schemas exercised outside this suite, and the test file that does it.
    static let exercisedElsewhere = [
        "audit": "Tests/AASAAuditTests/AuditJSONSchemaTests.swift",
        "config": "Tests/AASACLITests/ConfigCommandTests.swift",
        "baseline": "Tests/AASACLITests/BaselineCommandTests.swift",
        "fleet": "Tests/AASACLITests/AuditSummarizeCommandTests.swift",
    ]

    /// Schemas of files a user keeps rather than of a command's output (configuration.md):
    /// they carry no `aasaVersion`.
    static let fileSchemas: Set<String> = ["config.schema.json", "baseline.schema.json"]

    /// Every file of docs/schemas is a valid schema whose `$ref`s resolve locally, and every
    /// output schema is exercised by a test (so that none goes stale); common.schema.json is
    /// shared definitions, exercised through the others' `$ref`s.
    @Test func everySchemaIsValidAndExercised() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.schemas.path).filter {
            $0.hasSuffix(".json")
        }.sorted()
        #expect(names.count == 13, "\(names)")
        let check = SchemaValidation.schemas(names.map { Self.schemas.appendingPathComponent($0) })
        #expect(check.valid, "\(check)")
        let exercised = Set(Self.cases.map(\.schema))
        for name in names where name != "common.schema.json" {
            #expect(name.hasSuffix(".schema.json"), "\(name)")
            let kind = String(name.dropLast(".schema.json".count))
            if let elsewhere = Self.exercisedElsewhere[kind] {
                let source = try String(
                    contentsOf: Repository.root.appendingPathComponent(elsewhere), encoding: .utf8)
                #expect(source.contains("docs/schemas/\(name)"), "\(name) is not exercised by \(elsewhere)")
            } else {
                #expect(exercised.contains(kind), "\(name) is exercised by no case")
            }
        }
        // The shared definitions are used by every output schema.
        for name in names where name != "common.schema.json" && !Self.fileSchemas.contains(name) {
            let text = try String(contentsOf: Self.schemas.appendingPathComponent(name), encoding: .utf8)
            #expect(text.contains("common.schema.json#/$defs/aasaVersion"), "\(name)")
        }
    }

    /// validate-json.py --check says no to a schema whose `$ref` leads nowhere.
    @Test func aDanglingReferenceFailsTheSchemaCheck() throws {
        try withTemporaryDirectory { directory in
            for name in ["common.schema.json", "lint.schema.json"] {
                try FileManager.default.copyItem(
                    at: Self.schemas.appendingPathComponent(name), to: directory.child(name))
            }
            let lint = directory.child("lint.schema.json")
            let text = try String(contentsOf: lint, encoding: .utf8)
            let broken = text.replacingOccurrences(of: "#/$defs/diagnostic\"", with: "#/$defs/diagnostics\"")
            #expect(broken != text)
            try Data(broken.utf8).write(to: lint)
            let outcome = SchemaValidation.schemas([lint])
            #expect(!outcome.valid)
            #expect(outcome.messages.contains("exit 1") && outcome.messages.contains("does not resolve"), "\(outcome)")
        }
    }
}
