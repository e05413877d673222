import AASA
import Foundation

/// `--format markdown`: a summary for a CI job summary (`$GITHUB_STEP_SUMMARY`) or a pull
/// request comment: a heading, a table with a row per input (file or domain) and its counts,
/// then every finding with a link to its rule. Every text that comes from the input (names,
/// messages, JSON paths) is escaped (``ReportText/markdown(_:)``): it cannot add markup,
/// HTML or links.
public struct MarkdownWriter: ReportWriter {
    public init() {}

    public func write(_ report: Report) -> Data { Data(Self.render(report).utf8) }

    static func render(_ report: Report) -> String {
        let (subjects, unreadable) = (report.subjects, report.unreadable)
        let (command, failOn) = (report.context.command, report.context.failOn)
        let failing = subjects.filter { $0.findings.contains { $0.diagnostic.severity >= failOn } }.count
        let noun = report.context.inputNoun
        let total = subjects.count + unreadable.count
        var lines = [
            "## aasa \(command): \(total) \(noun)\(total == 1 ? "" : "s"), \(failing) failing at \(failOn.rawValue)"
                + (unreadable.isEmpty ? "" : ", \(unreadable.count) unreadable"),
            "",
            "| \(command == "audit" ? "Domain" : "File") | Result | Errors | Warnings | Deprecations | Info |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for subject in subjects {
            let severities = subject.findings.map(\.diagnostic.severity)
            func count(_ severity: Severity) -> String { String(severities.filter { $0 == severity }.count) }
            let result =
                subject.verdict
                ?? (severities.contains { $0 >= failOn } ? "failed" : severities.isEmpty ? "ok" : "passed")
            lines.append(
                "| \(ReportText.markdown(subject.displayName)) | \(result) | \(count(.error)) | "
                    + "\(count(.warning)) | \(count(.deprecation)) | \(count(.info)) |")
        }
        for failure in unreadable {
            lines.append("| \(ReportText.markdown(ReportSubject.displayName(failure.path))) | unreadable | | | | |")
        }
        let findings = subjects.flatMap { subject in subject.findings.map { (subject, $0) } }
        if !findings.isEmpty || !unreadable.isEmpty {
            lines += ["", "### Findings", ""]
        }
        for (subject, finding) in findings {
            let diagnostic = finding.diagnostic
            var place = [ReportText.markdown(subject.displayName)]
            if let line = diagnostic.location.line, case .file = subject.positions { place.append("line \(line)") }
            if !diagnostic.location.path.components.isEmpty {
                place.append("at " + ReportText.markdown(diagnostic.location.path.description))
            }
            let rule =
                report.context.rules.help(for: diagnostic.rule).url.map {
                    "[\(diagnostic.rule.rawValue)](\($0))"
                } ?? "`\(diagnostic.rule.rawValue)`"
            lines.append(
                "- **\(diagnostic.severity.rawValue)** \(rule) "
                    + "\(place.joined(separator: ", ")): \(ReportText.markdown(diagnostic.message))")
        }
        for failure in unreadable {
            lines.append(
                "- **unreadable** \(ReportText.markdown(ReportSubject.displayName(failure.path))): "
                    + ReportText.markdown(failure.message))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
