import AASA
import Foundation

/// `--format gitlab`: a GitLab Code Quality report (a JSON array of issues: `description`,
/// `check_name`, `fingerprint`, `severity`, `location.path`, `location.lines.begin`), which
/// GitLab shows in merge requests from `artifacts:reports:codequality`.
public struct GitLabCodeQualityWriter: ReportWriter {
    public init() {}

    public func write(_ report: Report) throws(AASAError) -> Data {
        try ReportJSON.document(try Self.issues(report.subjects))
    }

    struct Issue: Encodable {
        let description: String
        let check_name: String
        /// The ``FindingFingerprint``: the same finding keeps it across commits. GitLab wants it
        /// unique in a report, so the second and later findings that share one get `#2`, `#3`, …
        /// in report order.
        let fingerprint: String
        /// info, minor, major, critical or blocker.
        let severity: String
        let location: Location
    }

    struct Location: Encodable {
        let path: String
        let lines: Lines
    }

    struct Lines: Encodable {
        let begin: Int
    }

    /// GitLab's severity for an aasa severity: info → info, deprecation → minor, warning →
    /// major, error → critical (blocker is left for nothing aasa finds).
    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .info: return "info"
        case .deprecation: return "minor"
        case .warning: return "major"
        case .error: return "critical"
        }
    }

    /// The issues of `subjects`, in input and report order.
    /// - Throws: ``AASAError`` when a fingerprint cannot be computed.
    static func issues(_ subjects: [ReportSubject]) throws(AASAError) -> [Issue] {
        var issues: [Issue] = []
        var seen: [String: Int] = [:]
        for subject in subjects {
            for finding in subject.findings {
                let diagnostic = finding.diagnostic
                let line: Int
                switch subject.positions {
                case .file, .linesOnly: line = diagnostic.location.line ?? 1
                case .embedded, .none: line = 1
                }
                let at = diagnostic.location.path.components.isEmpty ? "" : " (at \(diagnostic.location.path))"
                let fingerprint = try FindingFingerprint(diagnostic, path: subject.path).value
                let occurrence = seen[fingerprint, default: 0] + 1
                seen[fingerprint] = occurrence
                issues.append(
                    Issue(
                        description: diagnostic.message + at, check_name: diagnostic.rule.rawValue,
                        fingerprint: occurrence == 1 ? fingerprint : "\(fingerprint)#\(occurrence)",
                        severity: severity(diagnostic.severity),
                        location: Location(
                            path: subject.path == "-" ? "stdin" : subject.path, lines: Lines(begin: line))))
            }
        }
        return issues
    }
}
