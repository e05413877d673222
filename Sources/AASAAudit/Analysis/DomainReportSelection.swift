import AASA

extension DomainReport {
    /// The report with `selection` applied (`aasa audit --disable`, `--severity`, the
    /// configuration): the disabled rules' findings and the file's items for them left out, the
    /// others at their selected severity (most serious first again), and the verdict from what
    /// is left; a domain that was not audited stays so; the report's settings record the
    /// selection. Also returns how many findings were dropped.
    public func selecting(_ selection: RuleSelection) -> (report: DomainReport, suppressed: Int) {
        guard !selection.isEverything else { return (self, 0) }
        var report = self
        report.settings?.record(selection)
        var kept: [AuditDiagnostic] = []
        for var diagnostic in diagnostics where !selection.disabled.contains(diagnostic.rule) {
            if let severity = selection.severities[diagnostic.rule] { diagnostic.severity = severity }
            kept.append(diagnostic)
        }
        report.diagnostics = kept.enumerated().sorted { a, b in
            a.element.severity != b.element.severity ? a.element.severity > b.element.severity : a.offset < b.offset
        }.map(\.element)
        report.file?.items = (file?.items ?? []).compactMap { item in
            guard !selection.disabled.contains(item.rule) else { return nil }
            var item = item
            if let severity = selection.severities[item.rule] { item.severity = severity }
            return item
        }
        if verdict != .notAudited { report.verdict = DomainAnalysis.verdict(report.diagnostics) }
        return (report, diagnostics.count - kept.count)
    }
}
