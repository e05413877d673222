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
        #expect(RuleCatalogue.guidance(for: DeprecationReport.signatureRule)?.title == "The signature does not verify.")
        #expect(RuleCatalogue.guidance(for: DeprecationReport.weakSignatureRule)?.title == nil, "uses the message")
        #expect(RuleCatalogue.guidance(for: .fileTooLarge)?.title == "The file is over 128 KB.")
    }

    @Test("check's items take the catalogue's words; other warnings the generic ones")
    func itemsUseTheCatalogue() {
        let report = DeprecationReport(lint: Linter.lint(Data(#"{"applinks": {"apps": [], "details": []}}"#.utf8)))
        let apps = report.items.first { $0.rule == .legacyAppsKey }
        #expect(apps?.nextStep == RuleCatalogue.guidance(for: .legacyAppsKey)?.nextStep)
        #expect(report.verdict == .legacy)
    }
}
