import AASATestSupport
// The linter over the real-world corpus (Tests/Fixtures/corpus).
import Foundation
import Testing

@testable import AASA

enum LintCorpus {
    static let corpus = RealWorldCorpus.folder
    static let plainNames = RealWorldCorpus.plainNames
    static let signedNames = RealWorldCorpus.signedNames
    /// Every file, as "real-plain/NAME" or "real-signed/NAME".
    static let allFiles = plainNames.map { "real-plain/\($0)" } + signedNames.map { "real-signed/\($0)" }

    static func lint(_ relativePath: String) throws -> LintReport {
        Linter.lint(try Data(contentsOf: corpus.appendingPathComponent(relativePath)))
    }

    static func plain(_ name: String) throws -> LintReport { try lint("real-plain/\(name)") }
}

extension LintReport {
    /// The rule IDs found, in report order.
    var rules: [RuleID] { diagnostics.map(\.rule) }

    func count(_ rule: RuleID) -> Int { diagnostics.filter { $0.rule == rule }.count }

    func paths(_ rule: RuleID) -> [String] { diagnostics.filter { $0.rule == rule }.map(\.location.path.description) }
}

@Suite("Lint: real-world corpus")
struct LintCorpusTests {
    @Test("the corpus is there")
    func corpusIsPresent() {
        #expect(LintCorpus.plainNames.count == 20)
        #expect(LintCorpus.signedNames.count == 3)
    }

    @Test(
        "every file lints; every finding is a catalogue rule, well placed and in order", arguments: LintCorpus.allFiles)
    func everyFileLints(_ file: String) throws {
        let report = try LintCorpus.lint(file)
        #expect(report.document != nil, "\(file) did not parse: \(report.diagnostics)")
        #expect(report.json != nil)
        #expect(!report.rules.contains(.invalidJSON))
        #expect(!report.rules.contains(.unreadableSignedFile))
        #expect(!report.rules.contains(.fileTooLarge))
        for diagnostic in report.diagnostics {
            let entry = try #require(
                RuleCatalogue.entries[diagnostic.rule], "\(diagnostic.rule) is not in the catalogue")
            #expect(diagnostic.severity == entry.severity)
            #expect(!diagnostic.message.isEmpty)
            if diagnostic.location.line == nil {
                #expect(diagnostic.location == .file, "\(diagnostic.rule) has a path but no line")
            }
        }
        #expect(report.diagnostics == report.diagnostics.sorted(by: Diagnostic.reportOrder))
        // The document rules alone give the same findings minus the file-level ones.
        if let document = report.document {
            #expect(Linter.lint(document: document) == report.diagnostics.filter { $0.location.line != nil })
        }
    }

    @Test("signed files give signed-file and lint their embedded JSON", arguments: LintCorpus.signedNames)
    func signedFiles(_ name: String) throws {
        let report = try LintCorpus.lint("real-signed/\(name)")
        #expect(report.kind.isSigned)
        #expect(report.rules.first == .signedFile)
        #expect(report.count(.signedFile) == 1)
        #expect(report.document?.appLinks != nil)
        #expect(report.json.map { FileKindDetector.detect($0).kind } == .json)
        // iOS 8-era files: legacy keys, nothing worse than a warning.
        #expect(report.rules.contains(.legacyAppsKey))
        #expect(report.rules.contains(.legacyPaths))
        #expect(report.highestSeverity.map { $0 < .error } == true, "\(report.diagnostics)")
    }

    @Test(
        "a signed artsy file reports what its unsigned source reports, at the same lines",
        arguments: [
            ("artsy_artsy-eigen-web-association_aasa-20150915-a.p7m", "artsy_force_aasa-json-2015.json"),
            (
                "artsy_artsy-eigen-web-association_aasa-20150915-b.p7m",
                "artsy_artsy-eigen-web-association_aasa-json-2015.json"
            ),
        ])
    func signedMatchesSource(signed: String, source: String) throws {
        let signedReport = try LintCorpus.lint("real-signed/\(signed)")
        let plainReport = try LintCorpus.plain(source)
        func key(_ d: Diagnostic) -> String {
            "\(d.rule) \(d.location.path) \(d.location.line ?? 0):\(d.location.column ?? 0)"
        }
        #expect(signedReport.diagnostics.filter { $0.rule != .signedFile }.map(key) == plainReport.diagnostics.map(key))
    }

    @Test("chayev missingAppID: missing-appid, and a non-empty apps")
    func chayevMissingAppID() throws {
        let report = try LintCorpus.plain("chayev_webpage-sandbox_aasa-missingAppID.json")
        #expect(report.paths(.missingAppID) == ["applinks.details[0]"])
        #expect(report.diagnostics.first { $0.rule == .missingAppID }?.location.line == 13)
        #expect(report.paths(.appsNotEmpty) == ["applinks.apps"])
        #expect(report.diagnostics.first { $0.rule == .appsNotEmpty }?.message.contains("\"Error\"") == true)
        #expect(report.highestSeverity == .error)
    }

    @Test("chayev missingDetails: missing-details")
    func chayevMissingDetails() throws {
        let report = try LintCorpus.plain("chayev_webpage-sandbox_aasa-missingDetails.json")
        #expect(report.paths(.missingDetails) == ["applinks"])
        #expect(report.highestSeverity == .error)
    }

    @Test("artsy 2015: the iOS 9 legacy form throughout, nothing wrong")
    func artsy2015() throws {
        let report = try LintCorpus.plain("artsy_artsy-eigen-web-association_aasa-json-2015.json")
        #expect(report.count(.legacyAppsKey) == 1)
        #expect(report.count(.legacyAppID) == 3)
        #expect(report.count(.legacyPaths) == 3)
        #expect(!report.rules.contains(.catchAllRule), "a legacy \"*\" path is exempt")
        #expect(report.highestSeverity == .deprecation)
    }

    @Test("artsy 2023: NOT paths before \"*\" are fine")
    func artsy2023() throws {
        let report = try LintCorpus.plain("artsy_artsy-eigen-web-association_aasa-json-2023.json")
        #expect(!report.rules.contains(.unreachableRule))
        #expect(!report.rules.contains(.notPrefixInComponents))
        #expect(report.highestSeverity == .deprecation)
    }

    @Test("element-call: appIDs, no errors")
    func elementCall() throws {
        let report = try LintCorpus.plain("element-hq_element-call_public-aasa-json.json")
        #expect(report.highestSeverity.map { $0 < .error } == true, "\(report.diagnostics)")
        #expect(!report.rules.contains(.legacyAppID))
        #expect(report.count(.appIDPrefixFormat) == 0)
        #expect(report.count(.duplicateAppID) == 0)
        #expect(report.rules.contains(.legacyPaths))
    }

    @Test("guardian: empty apps and details")
    func guardian() throws {
        let report = try LintCorpus.plain("guardian_support-frontend_public-aasa-json.json")
        #expect(report.paths(.emptyDetails) == ["applinks.details"])
        #expect(report.diagnostics.first { $0.rule == .emptyDetails }?.location.line == 9)
        #expect(!report.rules.contains(.appsNotEmpty))
        #expect(!report.rules.contains(.missingDetails))
    }

    @Test("nkmrh 2015: the WWDC 2015 dictionary form, once")
    func nkmrhDictionary() throws {
        let report = try LintCorpus.plain("nkmrh_handoff_aasa-txt-2015.json")
        #expect(report.count(.legacyDetailsDictionary) == 1)
        #expect(!report.rules.contains(.legacyAppID))
        #expect(!report.rules.contains(.missingAppID))
        #expect(report.paths(.legacyPaths) == ["applinks.details[\"QA8AV789YN.jp.hajimenakamura.blog.handoff\"].paths"])
    }

    @Test("escrichov: app IDs without a bundle ID")
    func escrichov() throws {
        let report = try LintCorpus.plain("escrichov_mobile-universal-linking_aasa-txt.json")
        #expect(report.paths(.appIDWithoutBundle) == ["applinks.details[0].appID", "applinks.details[1].appID"])
        #expect(report.diagnostics.first { $0.rule == .appIDWithoutBundle }?.message.contains("\"beta\"") == true)
    }

    @Test("organicmaps: NOT in legacy paths is not a components problem")
    func organicMaps() throws {
        let report = try LintCorpus.plain("organicmaps_url-processor_public-aasa-json.json")
        #expect(!report.rules.contains(.notPrefixInComponents))
        #expect(report.highestSeverity == .deprecation)
    }

    @Test(
        "app-list-only files are clean",
        arguments: ["triage_Heavier_wellknown-aasa.json", "nerdycat99_reservouz_public-aasa.json"])
    func appListOnly(_ name: String) throws {
        #expect(try LintCorpus.plain(name).diagnostics.isEmpty)
    }

    @Test(
        "no plain file in the corpus has an error except the deliberately invalid ones",
        arguments: LintCorpus.plainNames)
    func errorsOnlyWhereExpected(_ name: String) throws {
        let report = try LintCorpus.plain(name)
        let deliberatelyInvalid = name.contains("missingAppID") || name.contains("missingDetails")
        #expect((report.highestSeverity == .error) == deliberatelyInvalid, "\(report.diagnostics)")
    }
}
