import AASA
import AASAAudit
import AASAReports

/// The rules a command can report, in docs/rules.md order: what its reports' rule books hold.
enum ReportScope {
    case lint, check, verify, audit

    /// The command's name.
    var command: String { "\(self)" }

    var ids: [RuleID] {
        let lint = RuleCatalogue.all.map(\.id)
        let signature = RuleCatalogue.verificationRules.map(\.id)
        let effect = RuleCatalogue.effectRules.map(\.id)
        switch self {
        case .lint: return lint
        case .check: return lint + signature + effect
        case .verify: return signature
        case .audit: return lint + signature + effect + HostingRules.all.map(\.id)
        }
    }

    /// The command's rules with their help, linked under `base`; the audit's hosting rules
    /// come with their registry entries and fixes.
    func rules(base: String?) -> RuleBook {
        RuleBook(
            ids: ids, base: base, extraRules: HostingRules.metadata,
            extraNextSteps: HostingRules.entries.mapValues(\.fix))
    }
}
