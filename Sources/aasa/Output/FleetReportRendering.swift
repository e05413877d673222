import AASA
import AASAAudit
import AASAReports
import Foundation

/// `aasa audit summarize --format text` and `--format markdown`: the ``FleetReport`` for people.
/// Every text that comes from the input (file names, rule IDs, signer subjects and issuers) is
/// escaped: for the terminal (``TerminalText/line(_:)``) or as literal Markdown
/// (``ReportText/markdown(_:)``).
enum FleetReportRendering {
    /// The text report, every line escaped, each with its newline.
    static func text(_ report: FleetReport) -> String {
        var out = [headline(report), "Signer expiry judged at \(InternetDateTime.string(from: report.at))", ""]
        out.append("Files:")
        out += table(
            [["FILE", "LINES", "RECORDS", "SKIPPED", ""]]
                + report.files.map {
                    [
                        TerminalText.line(Diagnostics.displayName($0.path)), "\($0.lines)", "\($0.records)",
                        "\($0.skipped)",
                        $0.error == nil ? "" : "unreadable",
                    ]
                }, numeric: 1...3)
        out += ["", "Verdicts:"]
        out +=
            report.verdicts.isEmpty
            ? ["  none"] : table(report.verdicts.map { [$0.verdict.rawValue, "\($0.domains)"] }, numeric: 1...1)
        out += ["", "Findings by rule:"]
        out +=
            report.rules.isEmpty
            ? ["  none"]
            : table(
                [["RULE", "SEVERITY", "DOMAINS", "FINDINGS"]]
                    + report.rules.map {
                        [TerminalText.line($0.rule), $0.severity.rawValue, "\($0.domains)", "\($0.findings)"]
                    }, numeric: 2...3)
        out += ["", signedHeadline(report)]
        if !report.signers.isEmpty {
            out += table(
                [["NOT AFTER", "DOMAINS", "STATUS", "SUBJECT", "ISSUER", "SHA-256"]]
                    + report.signers.map {
                        [
                            InternetDateTime.string(from: $0.notAfter), "\($0.domains)",
                            $0.expired ? "expired" : "valid",
                            TerminalText.line($0.subject), TerminalText.line($0.issuer),
                            TerminalText.line($0.sha256Fingerprint ?? "-"),
                        ]
                    }, numeric: 1...1)
        }
        return out.map { $0 + "\n" }.joined()
    }

    /// "9 domains from 10 audit records in 2 files (1 duplicate merged, 1 line skipped)".
    static func headline(_ report: FleetReport) -> String {
        var notes: [String] = []
        if report.duplicates > 0 { notes.append(counted(report.duplicates, "duplicate") + " merged") }
        if report.skipped > 0 { notes.append(counted(report.skipped, "line") + " skipped") }
        if report.unreadable > 0 { notes.append(counted(report.unreadable, "file") + " unreadable") }
        return "Fleet summary: \(counted(report.domains, "domain")) from \(counted(report.records, "audit record")) "
            + "in \(counted(report.files.count, "file")), \(counted(report.lines, "line"))"
            + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
    }

    /// "Signed files: 3 domains, 2 signers, 1 expired (1 domain)".
    static func signedHeadline(_ report: FleetReport) -> String {
        let expired = report.expiredSigners
        return "Signed files: \(counted(report.signedDomains, "domain")), \(counted(report.signers.count, "signer")), "
            + "\(expired.count) expired (\(counted(expired.reduce(0) { $0 + $1.domains }, "domain")))"
    }

    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// Rows as aligned columns, indented by two spaces; the `numeric` columns right-aligned.
    /// Cells must already be escaped (their width is what the terminal shows).
    static func table(_ rows: [[String]], numeric: ClosedRange<Int>) -> [String] {
        var widths: [Int] = []
        for row in rows {
            for (index, cell) in row.enumerated() {
                if index == widths.count { widths.append(0) }
                widths[index] = max(widths[index], cell.count)
            }
        }
        return rows.map { row in
            var line = " "
            for (index, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                line += " " + (numeric.contains(index) ? padding + cell : cell + padding)
                if index < row.count - 1 { line += " " }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// The Markdown report: a heading, the headline, then a table per part. The headlines hold
    /// only numbers and fixed words; every cell from the input is escaped.
    static func markdown(_ report: FleetReport) -> String {
        func cell(_ text: String) -> String { ReportText.markdown(text) }
        var out = [
            "## aasa audit summarize", "",
            headline(report) + ". Signer expiry judged at \(InternetDateTime.string(from: report.at)).", "",
            "### Files", "", "| File | Lines | Records | Skipped | Read |", "|---|---:|---:|---:|---|",
        ]
        out += report.files.map {
            "| \(cell(Diagnostics.displayName($0.path))) | \($0.lines) | \($0.records) | \($0.skipped) | "
                + ($0.error == nil ? "yes" : "unreadable") + " |"
        }
        out += ["", "### Verdicts", "", "| Verdict | Domains |", "|---|---:|"]
        out += report.verdicts.map { "| \($0.verdict.rawValue) | \($0.domains) |" }
        out += ["", "### Findings by rule", "", "| Rule | Severity | Domains | Findings |", "|---|---|---:|---:|"]
        out += report.rules.map { "| \(cell($0.rule)) | \($0.severity.rawValue) | \($0.domains) | \($0.findings) |" }
        out += [
            "", "### Signed files", "", signedHeadline(report), "",
            "| Not after | Domains | Status | Subject | Issuer | SHA-256 |", "|---|---:|---|---|---|---|",
        ]
        out += report.signers.map {
            "| \(InternetDateTime.string(from: $0.notAfter)) | \($0.domains) | \($0.expired ? "**expired**" : "valid") | "
                + "\(cell($0.subject)) | \(cell($0.issuer)) | \(cell($0.sha256Fingerprint ?? "-")) |"
        }
        return out.map { $0 + "\n" }.joined()
    }
}
