import AASA
import Foundation

/// `--format junit`: one JUnit XML `<testsuite>` (the Ant/Jenkins schema that Jenkins, GitLab
/// and Buildkite read), a `<testcase>` per input (file or domain). A case fails when it has a
/// finding at or above `--fail-on` (its message counts them; its text lists every finding);
/// an input that could not be read is an `<error>`.
public struct JUnitWriter: ReportWriter {
    public init() {}

    public func write(_ report: Report) -> Data {
        Data(
            Self.render(
                report.subjects, unreadable: report.unreadable, command: report.context.command,
                failOn: report.context.failOn, now: report.context.date
            ).utf8)
    }

    /// The document for `subjects` and the `unreadable` inputs of `command`.
    static func render(
        _ subjects: [ReportSubject], unreadable: [UnreadableInput], command: String, failOn: Severity, now: Date
    ) -> String {
        var cases: [String] = []
        var failures = 0
        for subject in subjects {
            let name = ReportText.xml(subject.displayName)
            let failing = subject.findings.filter { $0.diagnostic.severity >= failOn }
            var element = "  <testcase name=\"\(name)\" classname=\"aasa.\(command)\" time=\"0\""
            if failing.isEmpty {
                element += "/>"
            } else {
                failures += 1
                let rules = Set(failing.map(\.diagnostic.rule.rawValue)).sorted().joined(separator: ", ")
                let message = "\(plural(failing.count, "finding")) at or above \(failOn.rawValue): \(rules)"
                let body = subject.findings.map(line).joined(separator: "\n")
                element +=
                    ">\n    <failure message=\"\(ReportText.xml(message))\" type=\"\(ReportText.xml(failing[0].diagnostic.rule.rawValue))\">"
                    + ReportText.xml(body) + "</failure>\n  </testcase>"
            }
            cases.append(element)
        }
        for failure in unreadable {
            let name = ReportText.xml(ReportSubject.displayName(failure.path))
            cases.append(
                "  <testcase name=\"\(name)\" classname=\"aasa.\(command)\" time=\"0\">\n"
                    + "    <error message=\"\(ReportText.xml(failure.message))\" type=\"unreadable\"/>\n  </testcase>")
        }
        let header =
            "<testsuite name=\"aasa \(command)\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(unreadable.count)\" skipped=\"0\" time=\"0\" timestamp=\"\(timestamp(now))\" hostname=\"localhost\">"
        return
            (["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", header, "  <properties/>"] + cases + [
                "  <system-out/>", "  <system-err/>", "</testsuite>",
            ]).joined(separator: "\n") + "\n"
    }

    /// `severity: [rule] message (at json.path, line N)`.
    private static func line(_ finding: ReportSubject.Finding) -> String {
        let diagnostic = finding.diagnostic
        var place: [String] = []
        if !diagnostic.location.path.components.isEmpty { place.append("at \(diagnostic.location.path)") }
        if let line = diagnostic.location.line { place.append("line \(line)") }
        if let url = finding.url { place.append(url) }
        let suffix = place.isEmpty ? "" : " (\(place.joined(separator: ", ")))"
        return "\(diagnostic.severity.rawValue): [\(diagnostic.rule.rawValue)] \(diagnostic.message)\(suffix)"
    }

    private static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// The schema's timestamp: UTC, to the second, without a zone designator.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return String(format: "%04d", parts.year ?? 1970) + "-\(two(parts.month))-\(two(parts.day))T"
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }
}
