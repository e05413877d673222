/// Which rules report, and at which severity: what a configuration file and `--disable`,
/// `--enable` and `--severity` decide. A disabled rule's findings are dropped (and counted);
/// a rule with a severity of its own reports at that severity.
public struct RuleSelection: Sendable, Hashable {
    /// The rules whose findings are dropped.
    public var disabled: Set<RuleID>
    /// Severities that replace a rule's own.
    public var severities: [RuleID: Severity]

    public init(disabled: Set<RuleID> = [], severities: [RuleID: Severity] = [:]) {
        self.disabled = disabled
        self.severities = severities
    }

    /// Every rule, at its own severity.
    public static let everything = RuleSelection()

    /// Whether the selection changes nothing.
    public var isEverything: Bool { disabled.isEmpty && severities.isEmpty }

    /// `diagnostics` without the disabled rules' findings, each at its selected severity, in
    /// the same order; and how many were dropped.
    public func apply(_ diagnostics: [Diagnostic]) -> (kept: [Diagnostic], suppressed: Int) {
        guard !isEverything else { return (diagnostics, 0) }
        var kept: [Diagnostic] = []
        kept.reserveCapacity(diagnostics.count)
        for var diagnostic in diagnostics where !disabled.contains(diagnostic.rule) {
            if let severity = severities[diagnostic.rule] { diagnostic.severity = severity }
            kept.append(diagnostic)
        }
        return (kept, diagnostics.count - kept.count)
    }
}

extension DeprecationReport {
    /// The report with `selection` applied to its findings: the disabled rules' findings and
    /// items left out, the others at their selected severity, and the verdict from what is
    /// left. The guidance points still describe the file itself. Also returns how many
    /// findings were dropped.
    public func selecting(_ selection: RuleSelection) -> (report: DeprecationReport, suppressed: Int) {
        guard !selection.isEverything else { return (self, 0) }
        var report = self
        let (kept, suppressed) = selection.apply(diagnostics)
        report.diagnostics = kept
        report.items = kept.compactMap(Self.item)
        report.verdict = Verdict(severities: kept.map(\.severity))
        return (report, suppressed)
    }
}
