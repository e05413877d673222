import AASA
import Foundation
import Testing

/// The one severity → verdict function and the rule guidance data that `check` and `audit`
/// share (issue #14).
@Suite("Deprecation verdict and rule guidance")
struct DeprecationVerdictTests {
    @Test(
        "an error breaks; else a deprecation is legacy, warnings notwithstanding; else a warning needs attention",
        arguments: [
            ([Severity](), DeprecationReport.Verdict.current), ([.info], .current), ([.warning], .needsAttention),
            ([.deprecation], .legacy), ([.deprecation, .warning], .legacy), ([.warning, .deprecation, .info], .legacy),
            ([.error], .broken), ([.deprecation, .error], .broken), ([.info, .warning, .error], .broken),
        ])
    func verdict(severities: [Severity], expected: DeprecationReport.Verdict) {
        #expect(DeprecationReport.Verdict(severities: severities) == expected)
    }

    @Test("every deprecation rule of the catalogue has its guidance; the signature rules too")
    func guidanceIsData() throws {
        let deprecations = RuleCatalogue.all.filter { $0.severity == .deprecation }
        #expect(deprecations.count >= 5, "\(deprecations.map(\.id))")
        for entry in deprecations {
            let guidance = try #require(RuleCatalogue.guidance(for: entry.id), "\(entry.id) has no guidance")
            #expect(!guidance.neededBy.isEmpty && !guidance.nextStep.isEmpty)
        }
        #expect(
            RuleCatalogue.guidance(for: DeprecationReport.signatureRule)?.title
                == "The signature does not verify: the content or the signature was altered.")
        for rule in [
            DeprecationReport.untrustedRule, DeprecationReport.expiredRule, DeprecationReport.notYetValidRule,
            DeprecationReport.purposeRule, DeprecationReport.hostRule, DeprecationReport.noEffectRule,
        ] {
            let guidance = try #require(RuleCatalogue.guidance(for: rule), "\(rule) has no guidance")
            #expect(guidance.title?.isEmpty == false && !guidance.nextStep.isEmpty, "\(rule)")
        }
        #expect(RuleCatalogue.guidance(for: DeprecationReport.weakSignatureRule)?.title == nil, "uses the message")
        #expect(RuleCatalogue.guidance(for: .fileTooLarge)?.title == "The file is over 128 KB.")
    }

    @Test("check's items take the catalogue's words; other warnings the generic ones")
    func itemsUseTheCatalogue() {
        let json =
            #"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app", "paths": ["/a/*"]}]}}"#
        let report = DeprecationReport(lint: Linter.lint(Data(json.utf8)))
        let apps = report.items.first { $0.rule == .legacyAppsKey }
        #expect(apps?.nextStep == RuleCatalogue.guidance(for: .legacyAppsKey)?.nextStep)
        #expect(report.verdict == .legacy)
    }

    /// Issue #13: a file that gives no app anything was headlined "legacy: works".
    @Test(
        "a file that gives no app anything is broken (no-effect), whatever else it has",
        arguments: [
            #"{"applinks": {"apps": [], "details": []}}"#,
            #"{"applinks": {"apps": [], "details": [{"appID": "beta", "paths": ["/", "/test/*"]}]}}"#,
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "*", "exclude": true}]}]}}"#,
            #"{"webcredentials": {"apps": []}}"#,
        ])
    func noEffect(json: String) throws {
        let report = DeprecationReport(lint: Linter.lint(Data(json.utf8)))
        let effect = try #require(report.effect)
        #expect(!effect.doesAnything)
        #expect(report.verdict == .broken)
        #expect(report.diagnostics.contains { $0.rule == DeprecationReport.noEffectRule && $0.severity == .error })
    }

    @Test("a file that links an app, or only gives shared credentials, has an effect and no no-effect finding")
    func someEffect() throws {
        for json in [
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a/*"}]}]}}"#,
            #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#,
        ] {
            let report = DeprecationReport(lint: Linter.lint(Data(json.utf8)))
            #expect(try #require(report.effect).doesAnything, "\(json)")
            #expect(!report.diagnostics.contains { $0.rule == DeprecationReport.noEffectRule }, "\(json)")
        }
    }
}
