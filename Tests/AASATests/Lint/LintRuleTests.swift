import AASATestSupport
// The lint rules, one table row per catalogue rule: an input where the rule fires (with the
// path and line it must report) and a clean neighbour where it must not. A test checks the
// table covers every rule of RuleCatalogue, so a new rule cannot ship without a case.
import Foundation
import Testing

@testable import AASA

/// What to lint: JSON text, raw bytes, or JSON that the test signs with `openssl smime`.
enum LintInput: Sendable, CustomTestStringConvertible {
    case json(String)
    case bytes(Data)
    /// `openssl smime -sign -nodetach -noattr -outform DER` with certs/leaf-rsa.
    case signed(String)
    /// The same without `-nodetach`: a detached signature.
    case detachedSignature(String)
    /// `openssl smime -encrypt -outform DER` to certs/leaf-rsa.pem: PKCS#7 that is not SignedData.
    case enveloped(String)

    var testDescription: String {
        switch self {
        case .json(let text): return "json(\(text.count) chars)"
        case .bytes(let data): return "bytes(\(data.count))"
        case .signed: return "signed DER"
        case .detachedSignature: return "detached signature"
        case .enveloped: return "enveloped data"
        }
    }

    /// The bytes, signing or encrypting with the openssl CLI where needed.
    func data() throws -> Data {
        switch self {
        case .json(let text): return Data(text.utf8)
        case .bytes(let data): return data
        case .signed(let text):
            return try withScratchDirectory { try OpenSSL.sign(Data(text.utf8), OpenSSL.SignRequest(), in: $0) }
        case .detachedSignature(let text):
            var request = OpenSSL.SignRequest()
            request.nodetach = false
            return try withScratchDirectory { try OpenSSL.sign(Data(text.utf8), request, in: $0) }
        case .enveloped(let text):
            return try withScratchDirectory { scratch in
                let input = try scratch.write(Data(text.utf8), to: "plain")
                let output = scratch.file("enveloped").path
                try OpenSSL.succeed(
                    [
                        "smime", "-encrypt", "-aes256", "-outform", "DER", "-in", input, "-out", output,
                        Paths.cert("leaf-rsa.pem"),
                    ],
                    in: scratch)
                return try scratch.read("enveloped")
            }
        }
    }

    func lint() throws -> LintReport { Linter.lint(try data()) }
}

/// One rule's table row.
struct RuleCase: Sendable, CustomTestStringConvertible {
    var rule: RuleID
    /// An input where the rule fires.
    var fires: LintInput
    /// The path of the (first) finding, as `JSONPath.description` prints it.
    var path: String
    /// Its line; nil for file-level findings (no position).
    var line: Int?
    /// A close neighbour where the rule does not fire.
    var clean: LintInput

    var testDescription: String { rule.rawValue }
}

/// Inputs shared by the table and the other tests.
enum LintFixtures {
    /// A modern file with no finding at all.
    static let clean = """
        {
          "applinks": {
            "details": [
              {
                "appIDs": ["ABCDE12345.com.example.app"],
                "components": [
                  { "/": "/help/*", "comment": "help pages" }
                ]
              }
            ]
          },
          "webcredentials": { "apps": ["ABCDE12345.com.example.app"] }
        }

        """

    /// One modern entry with `components` (a JSON array body, on line 6), and optional
    /// extra applinks members (on line 3, before details).
    static func entry(_ components: String, applinks: String = "") -> String {
        """
        {
          "applinks": {
            \(applinks)
            "details": [
              { "appIDs": ["ABCDE12345.com.example.app"],
                "components": [\(components)] }
            ]
          }
        }
        """
    }

    /// One entry written out (the entry's body is on line 5).
    static func detail(_ body: String, applinks: String = "") -> String {
        """
        {
          "applinks": {
            \(applinks)
            "details": [
              { \(body) }
            ]
          }
        }
        """
    }

    /// The clean file padded with spaces to exactly `size` bytes.
    static func padded(to size: Int) -> Data {
        var data = Data(clean.utf8)
        data.append(Data(repeating: 0x20, count: size - data.count))
        return data
    }

    /// The first bytes of a DER PKCS#7 SignedData, cut short: it announces PKCS#7 but does not parse.
    static let truncatedDER = Data([
        0x30, 0x82, 0x01, 0x00, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02, 0xA0, 0x82, 0x00,
        0xF0, 0x30,
    ])

    static let variables = "\"substitutionVariables\": { \"food\": [\"burrito\", \"taco\"] },"
}

enum RuleTable {
    typealias F = LintFixtures

    static let cases: [RuleCase] = [
        // MARK: File
        RuleCase(
            rule: .invalidJSON, fires: .json("{\n  \"applinks\": {},\n}\n"), path: "$", line: 3,
            clean: .json(F.clean)),
        RuleCase(
            rule: .rootNotObject, fires: .json("[\n  { \"applinks\": {} }\n]\n"), path: "$", line: 1,
            clean: .json(F.clean)),
        RuleCase(
            rule: .byteOrderMark, fires: .bytes(Data([0xEF, 0xBB, 0xBF]) + Data(F.clean.utf8)), path: "$", line: nil,
            clean: .json(F.clean)),
        RuleCase(
            rule: .fileTooLarge, fires: .bytes(F.padded(to: 131_073)), path: "$", line: nil,
            clean: .bytes(F.padded(to: 131_072))),
        RuleCase(rule: .signedFile, fires: .signed(F.clean), path: "$", line: nil, clean: .json(F.clean)),
        RuleCase(
            rule: .unreadableSignedFile, fires: .bytes(F.truncatedDER), path: "$", line: nil, clean: .signed(F.clean)),
        RuleCase(
            rule: .noKnownService, fires: .json("{\n  \"applink\": { \"details\": [] }\n}\n"), path: "$", line: 1,
            clean: .json(F.clean)),
        RuleCase(
            rule: .unknownTopLevelKey,
            fires: .json(
                "{\n  \"webcredentials\": { \"apps\": [\"ABCDE12345.com.example.app\"] },\n  \"version\": 2\n}\n"),
            path: "version", line: 3, clean: .json(F.clean)),
        RuleCase(
            rule: .unknownKey,
            fires: .json(
                F.detail(
                    "\"appIDs\": [\"ABCDE12345.com.example.app\"], \"component\": [], \"components\": [{ \"/\": \"/a\" }]"
                )),
            path: "applinks.details[0].component", line: 5,
            clean: .json(F.detail("\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{ \"/\": \"/a\" }]"))),
        RuleCase(
            rule: .wrongType,
            fires: .json(F.detail("\"appIDs\": \"ABCDE12345.com.example.app\", \"components\": [{ \"/\": \"/a\" }]")),
            path: "applinks.details[0].appIDs", line: 5, clean: .json(F.clean)),
        RuleCase(
            rule: .duplicateKey,
            fires: .json(
                F.detail(
                    "\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [], \"components\": [{ \"/\": \"/a\" }]"
                )),
            path: "applinks.details[0].components", line: 5, clean: .json(F.clean)),

        // MARK: applinks structure
        RuleCase(
            rule: .emptyDetails, fires: .json("{\n  \"applinks\": {\n    \"details\": []\n  }\n}\n"),
            path: "applinks.details", line: 3, clean: .json(F.clean)),
        RuleCase(
            rule: .missingDetails,
            fires: .json("{\n  \"applinks\": {\n    \"defaults\": { \"caseSensitive\": false }\n  }\n}\n"),
            path: "applinks", line: 2, clean: .json("{\n  \"applinks\": {\n    \"details\": []\n  }\n}\n")),
        RuleCase(
            rule: .legacyAppsKey, fires: .json(F.entry("{ \"/\": \"/a\" }", applinks: "\"apps\": [],")),
            path: "applinks.apps", line: 3, clean: .json(F.entry("{ \"/\": \"/a\" }"))),
        RuleCase(
            rule: .appsNotEmpty,
            fires: .json(F.entry("{ \"/\": \"/a\" }", applinks: "\"apps\": [\"ABCDE12345.com.example.app\"],")),
            path: "applinks.apps", line: 3, clean: .json(F.entry("{ \"/\": \"/a\" }", applinks: "\"apps\": [],"))),
        RuleCase(
            rule: .legacyDetailsDictionary,
            fires: .json(
                "{\n  \"applinks\": {\n    \"apps\": [],\n    \"details\": {\n      \"ABCDE12345.com.example.app\": { \"paths\": [\"/a/*\"] }\n    }\n  }\n}\n"
            ),
            path: "applinks.details", line: 4,
            clean: .json(
                F.detail("\"appID\": \"ABCDE12345.com.example.app\", \"paths\": [\"/a/*\"]", applinks: "\"apps\": [],"))
        ),
        RuleCase(
            rule: .legacyPaths,
            fires: .json(F.detail("\"appIDs\": [\"ABCDE12345.com.example.app\"], \"paths\": [\"/a/*\"]")),
            path: "applinks.details[0].paths", line: 5, clean: .json(F.entry("{ \"/\": \"/a/*\" }"))),
        RuleCase(
            rule: .pathsIgnoredWithComponents,
            fires: .json(
                F.detail(
                    "\"appIDs\": [\"ABCDE12345.com.example.app\"], \"paths\": [\"/a/*\"], \"components\": [{ \"/\": \"/a/*\" }]"
                )),
            path: "applinks.details[0].paths", line: 5, clean: .json(F.entry("{ \"/\": \"/a/*\" }"))),
        RuleCase(
            rule: .legacyAppID,
            fires: .json(F.detail("\"appID\": \"ABCDE12345.com.example.app\", \"components\": [{ \"/\": \"/a\" }]")),
            path: "applinks.details[0].appID", line: 5, clean: .json(F.entry("{ \"/\": \"/a\" }"))),
        RuleCase(
            rule: .appIDAndAppIDs,
            fires: .json(
                F.detail(
                    "\"appID\": \"ABCDE12345.com.example.app\", \"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{ \"/\": \"/a\" }]"
                )),
            path: "applinks.details[0].appID", line: 5, clean: .json(F.entry("{ \"/\": \"/a\" }"))),
        RuleCase(
            rule: .notPrefixInComponents, fires: .json(F.entry("{ \"/\": \"NOT /private/*\" }")),
            path: "applinks.details[0].components[0]./", line: 6,
            clean: .json(F.entry("{ \"/\": \"/private/*\", \"exclude\": true }, { \"/\": \"/a\" }"))),

        // MARK: App identifiers
        RuleCase(
            rule: .missingAppID, fires: .json(F.detail("\"components\": [{ \"/\": \"/a\" }]")),
            path: "applinks.details[0]", line: 5, clean: .json(F.entry("{ \"/\": \"/a\" }"))),
        RuleCase(
            rule: .emptyAppID, fires: .json(F.detail("\"appIDs\": [\"\"], \"components\": [{ \"/\": \"/a\" }]")),
            path: "applinks.details[0].appIDs[0]", line: 5, clean: .json(F.entry("{ \"/\": \"/a\" }"))),
        RuleCase(
            rule: .appIDWithoutBundle,
            fires: .json(F.detail("\"appIDs\": [\"ABCDE12345\"], \"components\": [{ \"/\": \"/a\" }]")),
            path: "applinks.details[0].appIDs[0]", line: 5, clean: .json(F.entry("{ \"/\": \"/a\" }"))),
        RuleCase(
            rule: .appIDPrefixFormat,
            fires: .json("{\n  \"webcredentials\": {\n    \"apps\": [\"ABC.com.example.app\"]\n  }\n}\n"),
            path: "webcredentials.apps[0]", line: 3,
            clean: .json("{\n  \"webcredentials\": {\n    \"apps\": [\"ABCDE12345.com.example.app\"]\n  }\n}\n")),
        RuleCase(
            rule: .duplicateAppID,
            fires: .json(
                "{\n  \"applinks\": {\n    \"details\": [\n      { \"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{ \"/\": \"/a\" }] },\n      { \"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{ \"/\": \"/b\" }] }\n    ]\n  }\n}\n"
            ),
            path: "applinks.details[1].appIDs[0]", line: 5,
            clean: .json(
                "{\n  \"applinks\": {\n    \"details\": [\n      { \"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{ \"/\": \"/a\" }] },\n      { \"appIDs\": [\"ABCDE12345.com.example.other\"], \"components\": [{ \"/\": \"/b\" }] }\n    ]\n  }\n}\n"
            )),

        // MARK: Rules
        RuleCase(
            rule: .noRules, fires: .json(F.detail("\"appIDs\": [\"ABCDE12345.com.example.app\"]")),
            path: "applinks.details[0]", line: 5, clean: .json(F.entry("{ \"/\": \"/a\" }"))),
        RuleCase(
            rule: .catchAllRule, fires: .json(F.entry("{ \"/\": \"*\", \"?\": {}, \"#\": \"**\" }")),
            path: "applinks.details[0].components[0]", line: 6, clean: .json(F.entry("{ \"/\": \"/a/*\" }"))),
        RuleCase(
            rule: .unreachableRule,
            fires: .json(F.entry("{ \"/\": \"*\" }, { \"/\": \"/admin/*\", \"exclude\": true }")),
            path: "applinks.details[0].components[1]", line: 6,
            clean: .json(F.entry("{ \"/\": \"/admin/*\", \"exclude\": true }, { \"/\": \"*\" }"))),
        RuleCase(
            rule: .unknownComponentKey, fires: .json(F.entry("{ \"/\": \"/a\", \"query\": \"x=*\" }")),
            path: "applinks.details[0].components[0].query", line: 6,
            clean: .json(F.entry("{ \"/\": \"/a\", \"?\": \"x=*\" }"))),
        RuleCase(
            rule: .queryValueNotString, fires: .json(F.entry("{ \"/\": \"/a\", \"?\": { \"page\": 1 } }")),
            path: "applinks.details[0].components[0].?.page", line: 6,
            clean: .json(F.entry("{ \"/\": \"/a\", \"?\": { \"page\": \"1\" } }"))),
        RuleCase(
            rule: .patternInDefaults,
            fires: .json(
                F.entry("{ \"/\": \"/a\" }", applinks: "\"defaults\": { \"/\": \"/a/*\", \"caseSensitive\": false },")),
            path: "applinks.defaults./", line: 3,
            clean: .json(F.entry("{ \"/\": \"/a\" }", applinks: "\"defaults\": { \"caseSensitive\": false },"))),

        // MARK: Substitution variables
        RuleCase(
            rule: .invalidVariableName,
            fires: .json(F.entry("{ \"/\": \"/a\" }", applinks: "\"substitutionVariables\": { \"a(b)\": [\"x\"] },")),
            path: "applinks.substitutionVariables.a(b)", line: 3,
            clean: .json(F.entry("{ \"/\": \"/$(food)/*\" }", applinks: F.variables))),
        RuleCase(
            rule: .nestedVariable,
            fires: .json(
                F.entry(
                    "{ \"/\": \"/$(food)\" }", applinks: "\"substitutionVariables\": { \"food\": [\"$(alpha)x\"] },")),
            path: "applinks.substitutionVariables.food[0]", line: 3,
            clean: .json(F.entry("{ \"/\": \"/$(food)/*\" }", applinks: F.variables))),
        RuleCase(
            rule: .undefinedVariable, fires: .json(F.entry("{ \"/\": \"/$(food)/*\" }")),
            path: "applinks.details[0].components[0]./", line: 6,
            clean: .json(F.entry("{ \"/\": \"/$(food)/*\", \"#\": \"$(alpha)\" }", applinks: F.variables))),
        RuleCase(
            rule: .emptyVariable,
            fires: .json(F.entry("{ \"/\": \"/$(food)\" }", applinks: "\"substitutionVariables\": { \"food\": [] },")),
            path: "applinks.substitutionVariables.food", line: 3,
            clean: .json(F.entry("{ \"/\": \"/$(food)/*\" }", applinks: F.variables))),
        RuleCase(
            rule: .variableShadowsBuiltin,
            fires: .json(
                F.entry("{ \"/\": \"/$(alpha)\" }", applinks: "\"substitutionVariables\": { \"alpha\": [\"x\"] },")),
            path: "applinks.substitutionVariables.alpha", line: 3,
            clean: .json(F.entry("{ \"/\": \"/$(food)/*\" }", applinks: F.variables))),
        RuleCase(
            rule: .unterminatedVariable, fires: .json(F.entry("{ \"/\": \"/$(food/*\" }", applinks: F.variables)),
            path: "applinks.details[0].components[0]./", line: 6,
            clean: .json(F.entry("{ \"/\": \"/$(food)/*\" }", applinks: F.variables))),
        RuleCase(
            rule: .emptyVariableValue,
            fires: .json(
                F.entry(
                    "{ \"/\": \"/$(food)\" }", applinks: "\"substitutionVariables\": { \"food\": [\"\", \"taco\"] },")),
            path: "applinks.substitutionVariables.food[0]", line: 3,
            clean: .json(F.entry("{ \"/\": \"/$(food)/*\" }", applinks: F.variables))),
    ]
}

@Suite("Lint rules")
struct LintRuleTests {
    // MARK: The table

    @Test("the table has a case for every catalogue rule, once")
    func tableCoversCatalogue() {
        let ids = RuleTable.cases.map(\.rule)
        #expect(Set(ids).count == ids.count, "a rule has two rows")
        #expect(Set(ids) == Set(RuleCatalogue.all.map(\.id)))
        #expect(ids == RuleCatalogue.all.map(\.id), "rows follow catalogue order")
    }

    @Test("the catalogue is consistent")
    func catalogueIsConsistent() {
        #expect(Set(RuleCatalogue.all.map(\.id)).count == RuleCatalogue.all.count)
        for entry in RuleCatalogue.all {
            #expect(!entry.summary.isEmpty, "\(entry.id)")
            #expect(entry.id.rawValue.allSatisfy { $0.isLowercase || $0 == "-" }, "\(entry.id) is kebab-case")
            #expect(entry.id.severity == entry.severity)
        }
    }

    @Test("the rule fires where expected", arguments: RuleTable.cases)
    func ruleFires(_ row: RuleCase) throws {
        let report = try row.fires.lint()
        let findings = report.diagnostics.filter { $0.rule == row.rule }
        let finding = try #require(findings.first, "\(row.rule) did not fire; got \(report.diagnostics.map(\.rule))")
        #expect(finding.severity == RuleCatalogue.entries[row.rule]?.severity)
        #expect(finding.location.path.description == row.path)
        #expect(finding.location.line == row.line)
        if row.line == nil {
            #expect(finding.location.column == nil)
        } else {
            #expect(finding.location.column != nil)
        }
        #expect(!finding.message.isEmpty)
    }

    @Test("the rule stays quiet on the clean neighbour", arguments: RuleTable.cases)
    func ruleStaysQuiet(_ row: RuleCase) throws {
        let report = try row.clean.lint()
        #expect(report.diagnostics.filter { $0.rule == row.rule }.isEmpty, "\(report.diagnostics)")
        #expect(report.document != nil || row.rule == .invalidJSON)
    }

    @Test("every finding names a catalogue rule with its severity, in report order", arguments: RuleTable.cases)
    func findingsAreWellFormed(_ row: RuleCase) throws {
        for input in [row.fires, row.clean] {
            let report = try input.lint()
            for diagnostic in report.diagnostics {
                #expect(RuleCatalogue.entries[diagnostic.rule]?.severity == diagnostic.severity, "\(diagnostic.rule)")
            }
            #expect(report.diagnostics == report.diagnostics.sorted(by: Diagnostic.reportOrder))
        }
    }

    @Test("the clean fixture has no finding at all")
    func cleanFixtureIsClean() {
        let report = Linter.lint(Data(LintFixtures.clean.utf8))
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        #expect(report.kind == .json)
        #expect(report.highestSeverity == nil)
        #expect(report.json == Data(LintFixtures.clean.utf8))
        #expect(report.document?.appLinks?.details.count == 1)
    }

    // MARK: Messages

    @Test("messages quote the offending value")
    func messagesQuoteValues() throws {
        let notPrefix = try #require(
            Linter.lint(Data(LintFixtures.entry("{ \"/\": \"NOT /private/*\" }").utf8)).diagnostics.first {
                $0.rule == .notPrefixInComponents
            })
        #expect(notPrefix.message.contains("\"NOT /private/*\""))
        #expect(notPrefix.message.contains("\"exclude\": true"))

        let wrongType = try #require(
            Linter.lint(Data(LintFixtures.detail("\"appIDs\": 5, \"components\": []").utf8)).diagnostics.first {
                $0.rule == .wrongType
            })
        #expect(wrongType.message.contains("Wrong type for \"appIDs\": expected array of strings, found number 5"))

        let prefix = try #require(
            Linter.lint(Data("{\"appclips\": {\"apps\": [\"ABC.com.example.Clip\"]}}".utf8)).diagnostics.first {
                $0.rule == .appIDPrefixFormat
            })
        #expect(prefix.message.contains("\"ABC.com.example.Clip\""))
        #expect(prefix.message.contains("3 characters"))

        let invalid = try #require(Linter.lint(Data("{\"applinks\": {} // x\n}".utf8)).diagnostics.first)
        #expect(invalid.rule == .invalidJSON)
        #expect(invalid.message.contains("found '/'"))
        #expect(invalid.message.contains("JSON allows neither comments nor trailing commas"))
        #expect(invalid.location.line == 1 && invalid.location.column == 17)
        let comment = try #require(Linter.lint(Data("{\"applinks\": // x\n{}}".utf8)).diagnostics.first)
        #expect(comment.message.contains("comments are not allowed in JSON"))
    }

    /// A file with the unknown applinks key `key` and the components pattern `"NOT " + pattern`
    /// (written as JSON string literals, so they may hold any character).
    static func quotingInput(key: String, pattern: String) -> Data {
        func literal(_ text: String) -> String { JSONWriter().string(.string(text)) }
        return Data(LintFixtures.entry("{ \"/\": \(literal("NOT " + pattern)) }", applinks: "\(literal(key)): 1,").utf8)
    }

    @Test("a long value is shortened in the middle in a message, to the quoting limit")
    func longValuesAreShortened() throws {
        let key = String(repeating: "a", count: 150) + String(repeating: "z", count: 150)
        let pattern = "/" + String(repeating: "p", count: 150) + String(repeating: "q", count: 150)
        let report = Linter.lint(Self.quotingInput(key: key, pattern: pattern))
        let unknown = try #require(report.diagnostics.first { $0.rule == .unknownKey }, "\(report.diagnostics)")
        // 80 characters: the first 40, an ellipsis, the last 39.
        let shortKey = "\"" + String(repeating: "a", count: 40) + "…" + String(repeating: "z", count: 39) + "\""
        #expect(unknown.message.contains(shortKey), "\(unknown.message)")
        #expect(!unknown.message.contains(String(repeating: "a", count: 41)), "\(unknown.message)")
        let notPrefix = try #require(
            report.diagnostics.first { $0.rule == .notPrefixInComponents }, "\(report.diagnostics)")
        #expect(!notPrefix.message.contains(pattern), "the whole 301-character pattern is shown: \(notPrefix.message)")
        #expect(notPrefix.message.contains("…" + String(repeating: "q", count: 39) + "\""), "\(notPrefix.message)")
        for diagnostic in report.diagnostics {
            #expect(diagnostic.message.count < 600, "\(diagnostic.rule): \(diagnostic.message)")
        }
    }

    @Test(
        "a value with a line break or control character is escaped, so the message stays on one line",
        arguments: [
            ("\n", "\\n"), ("\r", "\\r"), ("\t", "\\t"), ("\u{1B}[31m", "\\u001B[31m"), ("\u{7F}", "\\u007F"),
            ("\u{85}", "\\u0085"), ("\u{2028}", "\\u2028"), ("\u{FEFF}", "\\uFEFF"),
        ])
    func controlCharactersAreEscaped(character: String, escaped: String) throws {
        let report = Linter.lint(Self.quotingInput(key: "x\(character)note", pattern: "/a\(character)b"))
        let unknown = try #require(report.diagnostics.first { $0.rule == .unknownKey }, "\(report.diagnostics)")
        #expect(unknown.message.contains("\"x\(escaped)note\""), "\(unknown.message.debugDescription)")
        let notPrefix = try #require(
            report.diagnostics.first { $0.rule == .notPrefixInComponents }, "\(report.diagnostics)")
        #expect(notPrefix.message.contains("\"NOT /a\(escaped)b\""), "\(notPrefix.message.debugDescription)")
        for diagnostic in report.diagnostics {
            #expect(
                !diagnostic.message.contains(character), "\(diagnostic.rule): \(diagnostic.message.debugDescription)")
            #expect(
                !diagnostic.message.unicodeScalars.contains { $0.properties.generalCategory == .control },
                "\(diagnostic.rule): \(diagnostic.message.debugDescription)")
        }
    }

    @Test("file-too-large says the size and the limit")
    func fileTooLargeMessage() throws {
        let report = Linter.lint(LintFixtures.padded(to: 200_000))
        let finding = try #require(report.diagnostics.first { $0.rule == .fileTooLarge })
        #expect(finding.message.contains("200,000 bytes"))
        #expect(finding.message.contains("131,072 bytes"))
        #expect(finding.location == .file)
        // A custom limit.
        let small = Linter.lint(Data(LintFixtures.clean.utf8), options: LintOptions(maximumFileSize: 100))
        #expect(small.diagnostics.map(\.rule) == [.fileTooLarge])
        #expect(small.diagnostics[0].message.contains("over the limit of 100 bytes"))
    }

    @Test("unknown keys suggest the key that was probably meant")
    func suggestions() throws {
        let report = Linter.lint(
            Data(
                """
                {
                  "appLinks": {},
                  "applinks": {
                    "details": [ { "appIds": ["ABCDE12345.com.example.app"], "appIDs": ["ABCDE12345.com.example.app"],
                                   "components": [ { "path": "/a", "exclude ": true } ] } ]
                  }
                }
                """.utf8))
        let messages = Dictionary(report.diagnostics.map { ($0.location.path.description, $0.message) }) { a, _ in a }
        #expect(messages["appLinks"]?.contains("did you mean \"applinks\"? Case matters") == true)
        #expect(messages["applinks.details[0].appIds"]?.contains("did you mean \"appIDs\"?") == true)
        #expect(messages["applinks.details[0].components[0].path"]?.contains("did you mean \"/\"?") == true)
        #expect(
            messages["applinks.details[0].components[0][\"exclude \"]"]?.contains("did you mean \"exclude\"?") == true)
        // Component keys are unknown-component-key, never unknown-key as well.
        #expect(
            !report.diagnostics.contains {
                $0.rule == .unknownKey && $0.location.path.description.contains("components")
            })
    }

    // MARK: Rule details

    @Test("the legacy dictionary form is reported once, not as legacy-appid per entry")
    func dictionaryFormOnce() {
        let report = Linter.lint(
            Data(
                """
                {"applinks": {"apps": [], "details": {
                  "ABCDE12345.com.example.app": {"paths": ["/a/*"]},
                  "ABCDE12345.com.example.beta": {"paths": ["/a/*"]}
                }}}
                """.utf8))
        let rules = report.diagnostics.map(\.rule)
        #expect(rules.filter { $0 == .legacyDetailsDictionary }.count == 1)
        #expect(!rules.contains(.legacyAppID))
        #expect(!rules.contains(.missingAppID))
        #expect(rules.filter { $0 == .legacyPaths }.count == 2)
        #expect(
            report.diagnostics.first { $0.rule == .legacyPaths }?.location.path.description
                == "applinks.details[\"ABCDE12345.com.example.app\"].paths")
    }

    @Test("a legacy \"*\" path is not a catch-all, but paths after it are unreachable")
    func legacyCatchAll() {
        let exempt = Linter.lint(
            Data(LintFixtures.detail("\"appID\": \"ABCDE12345.com.example.app\", \"paths\": [\"NOT /a\", \"*\"]").utf8))
        #expect(!exempt.diagnostics.contains { $0.rule == .catchAllRule || $0.rule == .unreachableRule })
        let late = Linter.lint(
            Data(LintFixtures.detail("\"appID\": \"ABCDE12345.com.example.app\", \"paths\": [\"*\", \"NOT /a\"]").utf8))
        let finding = late.diagnostics.first { $0.rule == .unreachableRule }
        #expect(finding?.location.path.description == "applinks.details[0].paths[1]")
        #expect(finding?.message.contains("\"NOT /a\"") == true)
        #expect(!late.diagnostics.contains { $0.rule == .catchAllRule })
    }

    @Test(
        "catch-all shapes",
        arguments: [
            ("{}", true), ("{ \"/\": \"*\" }", true), ("{ \"/\": \"***\", \"?\": \"*\", \"#\": \"*\" }", true),
            ("{ \"?\": {} }", true), ("{ \"/\": \"*\", \"exclude\": true }", true), ("{ \"comment\": \"all\" }", true),
            ("{ \"/\": \"/*\" }", false), ("{ \"/\": \"*\", \"?\": \"a=*\" }", false), ("{ \"#\": \"top\" }", false),
            ("{ \"?\": { \"a\": \"*\" } }", false), ("{ \"/\": \"\" }", false), ("{ \"/\": 5 }", false),
        ])
    func catchAllShapes(rule: String, isCatchAll: Bool) {
        let report = Linter.lint(Data(LintFixtures.entry(rule).utf8))
        #expect(report.diagnostics.contains { $0.rule == .catchAllRule } == isCatchAll, "\(report.diagnostics)")
    }

    @Test("a catch-all says whether it is an exclude")
    func catchAllMessages() throws {
        let include = try #require(
            Linter.lint(Data(LintFixtures.entry("{ \"/\": \"*\" }").utf8)).diagnostics.first {
                $0.rule == .catchAllRule
            })
        #expect(include.message.contains("opens the app"))
        let exclude = try #require(
            Linter.lint(Data(LintFixtures.entry("{ \"/\": \"*\", \"exclude\": true }").utf8)).diagnostics.first {
                $0.rule == .catchAllRule
            })
        #expect(exclude.message.contains("As an exclude"))
        #expect(exclude.message.contains("opens no URL at all"))
    }

    @Test("every rule after a catch-all is unreachable")
    func everyLaterRuleIsUnreachable() {
        let report = Linter.lint(
            Data(LintFixtures.entry("{ \"/\": \"/a\" }, {}, { \"/\": \"/b\" }, { \"#\": \"c\" }").utf8))
        let paths = report.diagnostics.filter { $0.rule == .unreachableRule }.map(\.location.path.description)
        #expect(paths == ["applinks.details[0].components[2]", "applinks.details[0].components[3]"])
    }

    @Test("duplicate app IDs: inside one appIDs, in an app list; not appID repeated in appIDs")
    func duplicateAppIDs() {
        let inside = Linter.lint(
            Data(
                LintFixtures.detail("\"appIDs\": [\"ABCDE12345.com.a\", \"ABCDE12345.com.a\"], \"components\": []").utf8
            ))
        #expect(
            inside.diagnostics.filter { $0.rule == .duplicateAppID }.map(\.location.path.description) == [
                "applinks.details[0].appIDs[1]"
            ])
        let list = Linter.lint(
            Data("{\"activitycontinuation\": {\"apps\": [\"ABCDE12345.com.a\", \"ABCDE12345.com.a\"]}}".utf8))
        #expect(
            list.diagnostics.filter { $0.rule == .duplicateAppID }.map(\.location.path.description) == [
                "activitycontinuation.apps[1]"
            ])
        // The same ID in two services is normal.
        let services = Linter.lint(
            Data(
                "{\"webcredentials\": {\"apps\": [\"ABCDE12345.com.a\"]}, \"appclips\": {\"apps\": [\"ABCDE12345.com.a\"]}}"
                    .utf8))
        #expect(!services.diagnostics.contains { $0.rule == .duplicateAppID })
        let both = Linter.lint(
            Data(
                LintFixtures.detail(
                    "\"appID\": \"ABCDE12345.com.a\", \"appIDs\": [\"ABCDE12345.com.a\"], \"components\": []"
                ).utf8))
        #expect(!both.diagnostics.contains { $0.rule == .duplicateAppID })
        #expect(both.diagnostics.contains { $0.rule == .appIDAndAppIDs })
    }

    @Test("an empty appIDs array names no app")
    func emptyAppIDsArray() {
        let report = Linter.lint(Data(LintFixtures.detail("\"appIDs\": [], \"components\": []").utf8))
        #expect(report.diagnostics.first { $0.rule == .missingAppID }?.message.contains("empty array") == true)
    }

    @Test("a wrong type is reported once, not also as a missing key")
    func wrongTypeOnly() {
        let report = Linter.lint(Data(LintFixtures.detail("\"appIDs\": \"ABCDE12345.com.a\", \"components\": {}").utf8))
        let rules = report.diagnostics.map(\.rule)
        #expect(rules.filter { $0 == .wrongType }.count == 2)
        #expect(!rules.contains(.missingAppID))
        #expect(!rules.contains(.noRules))
    }

    @Test("variables in every pattern place are checked; defined and built-in names pass")
    func variablePlaces() {
        let report = Linter.lint(
            Data(
                LintFixtures.entry(
                    "{ \"/\": \"/$(food)/$(lang)_$(region)/$(digit)\", \"?\": { \"q\": \"$(drink)\" }, \"#\": \"$(Alpha)\" }, { \"?\": \"$(x\" }",
                    applinks: LintFixtures.variables
                ).utf8))
        let undefined = report.diagnostics.filter { $0.rule == .undefinedVariable }
        #expect(
            undefined.map(\.location.path.description) == [
                "applinks.details[0].components[0].?.q", "applinks.details[0].components[0].#",
            ])
        #expect(undefined.last?.message.contains("did you mean \"alpha\"?") == true)
        let unterminated = report.diagnostics.filter { $0.rule == .unterminatedVariable }
        #expect(unterminated.map(\.location.path.description) == ["applinks.details[0].components[1].?"])
    }

    @Test("an unterminated variable value is reported too")
    func unterminatedValue() {
        let report = Linter.lint(
            Data(
                LintFixtures.entry(
                    "{ \"/\": \"/$(food)\" }", applinks: "\"substitutionVariables\": { \"food\": [\"a$(b\"] },"
                ).utf8))
        let rules = Set(report.diagnostics.map(\.rule))
        #expect(rules.contains(.unterminatedVariable))
        #expect(rules.contains(.nestedVariable))
    }

    @Test("pattern keys in an entry's defaults are reported too")
    func patternInDetailDefaults() {
        let report = Linter.lint(
            Data(
                LintFixtures.detail(
                    "\"appIDs\": [\"ABCDE12345.com.a\"], \"defaults\": { \"exclude\": true }, \"components\": []"
                ).utf8))
        #expect(
            report.diagnostics.first { $0.rule == .patternInDefaults }?.location.path.description
                == "applinks.details[0].defaults.exclude")
    }

    @Test("a root that is not an object gets that finding only")
    func rootNotObjectOnly() {
        for text in ["[]", "\"applinks\"", "42", "null"] {
            let report = Linter.lint(Data(text.utf8))
            #expect(report.diagnostics.map(\.rule) == [.rootNotObject], "\(text)")
            #expect(report.document != nil)
        }
    }

    @Test("a missing service and a typo'd one")
    func noKnownService() {
        let empty = Linter.lint(Data("{}".utf8))
        #expect(empty.diagnostics.map(\.rule) == [.noKnownService])
        let typo = Linter.lint(Data("{\"webcredential\": {\"apps\": []}}".utf8))
        #expect(Set(typo.diagnostics.map(\.rule)) == [.noKnownService, .unknownTopLevelKey])
    }

    // MARK: File level

    @Test("a byte-order mark is reported and linting goes on after it")
    func byteOrderMark() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data(LintFixtures.entry("{ \"/\": \"NOT /x\" }").utf8))
        let report = Linter.lint(data)
        #expect(report.kind == .json)
        #expect(report.document != nil)
        #expect(report.json == data)
        #expect(report.diagnostics.first?.rule == .byteOrderMark)
        #expect(report.diagnostics.first?.location == .file)
        let notPrefix = try #require(report.diagnostics.first { $0.rule == .notPrefixInComponents })
        #expect(notPrefix.location.line == 6)
        // A BOM before broken JSON: both findings.
        let broken = Linter.lint(Data([0xEF, 0xBB, 0xBF]) + Data("{,}".utf8))
        #expect(broken.diagnostics.map(\.rule) == [.byteOrderMark, .invalidJSON])
        #expect(broken.diagnostics[1].location.column == 2)
    }

    @Test(
        "garbage, empty and UTF-16 files are invalid JSON",
        arguments: [
            NamedInput("garbage", Data([0x00, 0xFF, 0x13, 0x37, 0x42])),
            NamedInput("text", "hello, world\n"),
            NamedInput("empty", Data()),
            NamedInput("white space", "  \n\n"),
            NamedInput("UTF-16", Data([0xFF, 0xFE]) + "{\"applinks\":{}}".data(using: .utf16LittleEndian)!),
            NamedInput("trailing comma", "{\"applinks\": {\"details\": [],}}"),
            NamedInput("truncated", "{\"applinks\": {\"details\": ["),
        ])
    func garbageIsInvalidJSON(_ input: NamedInput) {
        let report = Linter.lint(input.bytes)
        #expect(report.document == nil)
        #expect(report.json == input.bytes)
        #expect(report.diagnostics.map(\.rule) == [.invalidJSON], "\(report.diagnostics)")
        #expect(report.diagnostics.first?.location.line != nil)
        #expect(report.highestSeverity == .error)
        if input.name == "UTF-16" { #expect(report.diagnostics.first?.message.contains("UTF-16") == true) }
        if input.name == "trailing comma" {
            #expect(report.diagnostics.first?.message.contains("trailing comma") == true)
        }
    }

    @Test("a signed file: signed-file, then the payload's findings at payload positions")
    func signedFile() throws {
        let payload = """
            {
              "applinks": {
                "apps": [],
                "details": [
                  { "appID": "ABCDE12345.com.example.app",
                    "paths": ["/a/*"] }
                ]
              }
            }

            """
        let signed = try LintInput.signed(payload).data()
        let report = Linter.lint(signed)
        #expect(report.kind == .pkcs7DER)
        #expect(report.document != nil)
        // openssl smime without -binary embeds the text with CRLF line ends.
        #expect(
            report.json.map { String(decoding: $0, as: UTF8.self) }
                == payload.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(report.diagnostics.first?.rule == .signedFile)
        #expect(report.diagnostics.first?.location == .file)
        let plain = Linter.lint(Data(payload.utf8))
        let key = { (d: Diagnostic) in "\(d.rule) \(d.location.path) \(d.location.line ?? 0):\(d.location.column ?? 0)"
        }
        #expect(report.diagnostics.dropFirst().map(key) == plain.diagnostics.map(key))
        #expect(report.diagnostics.first { $0.rule == .legacyPaths }?.location.line == 6)
        #expect(report.diagnostics.first { $0.rule == .legacyAppID }?.location.line == 5)
        #expect(report.highestSeverity == .deprecation)
    }

    @Test("signed invalid JSON is invalid-json at the payload position")
    func signedInvalidJSON() throws {
        let report = Linter.lint(try LintInput.signed("{\n  \"applinks\": {\n    \"details\": [],\n  }\n}\n").data())
        #expect(report.diagnostics.map(\.rule) == [.signedFile, .invalidJSON])
        #expect(report.diagnostics[1].location.line == 4)
        #expect(report.diagnostics[1].message.contains("embedded"))
    }

    @Test(
        "unreadable signed files",
        arguments: [
            LintInput.signed("hello, this is not JSON\n"), .detachedSignature(LintFixtures.clean),
            .enveloped(LintFixtures.clean),
            .bytes(LintFixtures.truncatedDER),
        ])
    func unreadableSignedFiles(_ input: LintInput) throws {
        let report = Linter.lint(try input.data())
        #expect(report.diagnostics.contains { $0.rule == .unreadableSignedFile })
        #expect(!report.diagnostics.contains { $0.rule == .invalidJSON })
        #expect(report.document == nil)
        #expect(report.highestSeverity == .error)
        #expect(report.diagnostics.allSatisfy { $0.location == .file })
    }

    @Test("a damaged signed file says why")
    func damagedSignedFileReason() throws {
        let signed = try LintInput.signed(LintFixtures.clean).data()
        let report = Linter.lint(signed.prefix(signed.count / 2))
        #expect(report.kind == .unknown)
        let finding = try #require(report.diagnostics.first)
        #expect(finding.rule == .unreadableSignedFile)
        #expect(finding.message.contains("damaged PKCS#7 DER"))
    }

    @Test("a large signed file is too large, like a plain one")
    func largeSignedFile() throws {
        let signed = try LintInput.signed(String(decoding: LintFixtures.padded(to: 131_000), as: UTF8.self)).data()
        #expect(signed.count > 131_072)
        let rules = Linter.lint(signed).diagnostics.map(\.rule)
        #expect(rules.contains(.fileTooLarge) && rules.contains(.signedFile))
    }

    // MARK: The report

    @Test("report order: file-level first, then line, column, rule ID")
    func reportOrder() {
        let text = """
            {
              "applinks": { "apps": ["x"], "details": [
                { "appID": "x", "paths": ["*", "/a"] } ] },
              "zzz": 1
            }
            """
        let report = Linter.lint(Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8))
        let locations = report.diagnostics.map { ($0.location.line ?? 0, $0.location.column ?? 0, $0.rule.rawValue) }
        #expect(report.diagnostics.first?.rule == .byteOrderMark)
        for (a, b) in zip(locations, locations.dropFirst()) {
            #expect(a.0 < b.0 || (a.0 == b.0 && (a.1 < b.1 || (a.1 == b.1 && a.2 <= b.2))), "\(a) before \(b)")
        }
        #expect(report.diagnostics.last?.rule == .unknownTopLevelKey)
    }

    @Test("highestSeverity and diagnostics(atLeast:)")
    func severityFilters() {
        let report = Linter.lint(
            Data(
                LintFixtures.detail(
                    "\"appID\": \"ABCDE12345.com.a\", \"paths\": [\"/a\"], \"x\": 1", applinks: "\"apps\": [],"
                ).utf8))
        #expect(report.highestSeverity == .deprecation)
        #expect(report.diagnostics(atLeast: .info).count == report.diagnostics.count)
        #expect(report.diagnostics(atLeast: .deprecation).map(\.rule) == [.legacyAppsKey, .legacyAppID, .legacyPaths])
        #expect(report.diagnostics(atLeast: .warning).isEmpty)
        #expect(report.diagnostics.contains { $0.rule == .unknownKey && $0.severity == .info })
    }

    @Test("lint(document:) runs the document rules only")
    func documentOnly() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data(LintFixtures.detail("\"appID\": \"x\", \"paths\": [\"/a\"]").utf8))
        let report = Linter.lint(data)
        let document = try #require(report.document)
        let diagnostics = Linter.lint(document: document)
        #expect(diagnostics == report.diagnostics.filter { $0.rule != .byteOrderMark })
        #expect(try Linter.lint(document: AASADocument(json: Data(LintFixtures.clean.utf8))).isEmpty)
    }

    /// Issue #24: `duplicate-key` searches objects of up to 16 members directly and larger ones
    /// through a dictionary. At and around that boundary, a key given three times is found
    /// twice, each repeat pointing at the first occurrence (one member per line: line 2 + its
    /// index), and a key repeated last is found too.
    @Test("duplicate keys are found in objects of 15, 16, 17 and 40 members", arguments: [15, 16, 17, 40])
    func duplicateKeysInLargeObjects(members: Int) throws {
        // k0 at index 0, 5 and members - 2; k1 at index 1 and members - 1; the rest distinct.
        var keys = (0..<members).map { "k\($0)" }
        keys[5] = "k0"
        keys[members - 2] = "k0"
        keys[members - 1] = "k1"
        let lines = keys.map { #"  "\#($0)": 1"# }.joined(separator: ",\n")
        let data = Data("{\"applinks\": {\"details\": [{\"x\": {\n\(lines)\n}}]}}\n".utf8)
        let found = Linter.lint(data).diagnostics.filter { $0.rule == .duplicateKey }
        try #require(found.count == 3, "\(members) members: \(found.map(\.message))")
        #expect(found.map(\.location.line) == [2 + 5, 2 + members - 2, 2 + members - 1], "\(members) members")
        #expect(found[0].message.contains("first at line 2, column 3"), "\(found[0].message)")
        #expect(found[1].message.contains("first at line 2, column 3"), "\(found[1].message)")
        #expect(found[2].message.contains("first at line 3, column 3"), "\(found[2].message)")
    }
}

@Suite("Lint: docs/rules.md")
struct LintRulesDocTests {
    static let text: String = {
        let url = Repository.root.appendingPathComponent("docs/rules.md")
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            fatalError("docs/rules.md cannot be read: \(error)")
        }
    }()

    @Test("one section per rule, in catalogue order, with the catalogue severity")
    func sectionsFollowCatalogue() {
        let lines = Self.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var sections: [(id: String, severity: String?)] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("## `") && line.hasSuffix("`") {
            let id = String(line.dropFirst(4).dropLast())
            let severity = lines[(index + 1)...].first { $0.hasPrefix("**Severity:** ") }.map {
                String($0.dropFirst(14))
            }
            sections.append((id, severity))
        }
        #expect(sections.map(\.id) == RuleCatalogue.all.map(\.id.rawValue))
        for (section, entry) in zip(sections, RuleCatalogue.all) {
            #expect(section.severity == entry.severity.rawValue, "\(section.id)")
        }
    }

    @Test("the findings check and audit add (verification, no-effect) each have a section with their severity")
    func reportRuleSections() {
        let entries = RuleCatalogue.verificationRules + RuleCatalogue.effectRules
        #expect(entries.count == 9)
        let lines = Self.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for entry in entries {
            let heading = lines.firstIndex(of: "### \(entry.id.rawValue)")
            #expect(heading != nil, "no section for \(entry.id)")
            guard let heading else { continue }
            let severity = lines[(heading + 1)...].first { $0.hasPrefix("**Severity:** ") }
            #expect(severity == "**Severity:** \(entry.severity.rawValue)", "\(entry.id)")
        }
    }

    /// Each rule section's ```json example, by rule ID.
    static let examples: [(rule: String, json: String)] = {
        var result: [(String, String)] = []
        var rule: String?
        var block: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## `") && line.hasSuffix("`") {
                rule = String(line.dropFirst(4).dropLast())
            } else if line == "```json" {
                block = []
            } else if line == "```", let lines = block {
                if let rule { result.append((rule, lines.joined(separator: "\n"))) }
                block = nil
            } else if block != nil {
                block?.append(line)
            }
        }
        return result
    }()

    @Test("every example fires its rule")
    func examplesFire() {
        #expect(Self.examples.count >= RuleCatalogue.all.count - 4)  // the file-level rules have no JSON example
        for example in Self.examples {
            let report = Linter.lint(Data(example.json.utf8))
            #expect(
                report.diagnostics.contains { $0.rule.rawValue == example.rule },
                "\(example.rule): \(report.diagnostics.map(\.rule))")
        }
    }

    @Test("the summary table lists every rule with its severity")
    func summaryTable() {
        for entry in RuleCatalogue.all {
            #expect(Self.text.contains("| [`\(entry.id)`](#\(entry.id)) | \(entry.severity.rawValue) |"), "\(entry.id)")
        }
    }
}
