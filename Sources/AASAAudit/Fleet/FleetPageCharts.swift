import AASA
import AASAReports
import Foundation

/// The two charts of the HTML fleet report, as inline SVG: the verdicts as one bar with counts
/// and percentages, and the signers on an expiry timeline. Drawn here rather than by a chart
/// library: they are a few rectangles, circles and labels, and SVG's presentation attributes
/// need no inline style (which the page's Content-Security-Policy does not allow).
enum FleetPageCharts {
    /// Where a signer's expiry stands at the report's time.
    enum Expiry: String {
        case expired, soon, later

        var label: String {
            switch self {
            case .expired: "expired"
            case .soon: "expires soon"
            case .later: "valid"
            }
        }
    }

    static func expiry(_ signer: FleetReport.Signer, at time: Date, horizonDays: Int) -> Expiry {
        if signer.notAfter < time { return .expired }
        return signer.notAfter < time.addingTimeInterval(Double(horizonDays) * 86_400) ? .soon : .later
    }

    /// `part` of `whole` as a percentage with one decimal ("12.5 %"); "0 %" of nothing.
    static func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "0 %" }
        let tenths = (part * 1000 + whole / 2) / whole
        return "\(tenths / 10).\(tenths % 10) %"
    }

    /// One bar of the verdicts in proportion, and a legend with each verdict's count and
    /// percentage that links to the table filtered by it.
    static func verdictBar(_ report: FleetReport) -> String {
        var bar = ""
        var legend = ""
        var x = 0.0
        for count in report.verdicts where count.domains > 0 {
            let width = report.domains > 0 ? 1000 * Double(count.domains) / Double(report.domains) : 0
            let verdict = count.verdict.rawValue
            let share = percent(count.domains, of: report.domains)
            bar += """
                <rect class="verdict-\(verdict)" x="\(format(x))" y="0" width="\(format(width))" height="40">\
                <title>\(verdict): \(count.domains) (\(share))</title></rect>
                """
            legend += """
                <li data-verdict="\(verdict)" data-count="\(count.domains)">\
                <a href="#verdict=\(verdict)"><span class="swatch verdict-\(verdict)"></span>\(verdict)</a>: \
                <strong>\(count.domains)</strong> (\(share))</li>
                """
            x += width
        }
        return """
            <section id="verdicts">
            <h2>Verdicts</h2>
            <svg class="bar" viewBox="0 0 1000 40" preserveAspectRatio="none" role="img" aria-label="domains by verdict">\(bar)</svg>
            <ul class="legend">\(legend)</ul>
            </section>

            """
    }

    /// The signers on a time axis from the earliest expiry (or a year before the report's time)
    /// to the latest (or a year after): one mark per signer, coloured by ``Expiry``, its size by
    /// the domains it signs for, and a line at the report's time.
    static func timeline(_ report: FleetReport, horizonDays: Int) -> String {
        let year = 365.0 * 86_400
        let times = report.signers.map(\.notAfter.timeIntervalSince1970)
        let start = min(times.min() ?? 0, report.at.timeIntervalSince1970 - year)
        let end = max(times.max() ?? 0, report.at.timeIntervalSince1970 + year)
        let (left, width) = (40.0, 920.0)
        func position(_ time: Double) -> Double { left + width * (time - start) / max(end - start, 1) }
        let largest = Double(report.signers.map(\.domains).max() ?? 1)
        var marks = ""
        for (index, signer) in report.signers.enumerated() {
            let status = expiry(signer, at: report.at, horizonDays: horizonDays)
            let radius = 4 + 8 * (Double(signer.domains) / largest).squareRoot()
            // Rows of marks, so that signers expiring together stay apart.
            let y = 30 + Double(index % 4) * 22
            marks += """
                <circle class="mark \(status.rawValue)" cx="\(format(position(signer.notAfter.timeIntervalSince1970)))" \
                cy="\(format(y))" r="\(format(radius))"><title>\(ReportText.xml(signer.subject)): \
                expires \(InternetDateTime.string(from: signer.notAfter)), \(signer.domains) \
                domain\(signer.domains == 1 ? "" : "s") (\(status.label))</title></circle>
                """
        }
        let now = format(position(report.at.timeIntervalSince1970))
        var ticks = ""
        let calendar = Calendar(identifier: .gregorian)
        let firstYear =
            calendar.dateComponents(in: TimeZone(identifier: "UTC")!, from: Date(timeIntervalSince1970: start)).year
            ?? 1970
        let lastYear =
            calendar.dateComponents(in: TimeZone(identifier: "UTC")!, from: Date(timeIntervalSince1970: end)).year
            ?? 1970
        let step = max(1, (lastYear - firstYear) / 10)
        for year in stride(from: firstYear + 1, through: lastYear, by: step) {
            var components = DateComponents()
            (components.year, components.month, components.day) = (year, 1, 1)
            components.timeZone = TimeZone(identifier: "UTC")
            guard let date = calendar.date(from: components) else { continue }
            let x = format(position(date.timeIntervalSince1970))
            ticks += "<line class=\"tick\" x1=\"\(x)\" y1=\"10\" x2=\"\(x)\" y2=\"120\"/>"
            ticks += "<text class=\"tick-label\" x=\"\(x)\" y=\"138\">\(year)</text>"
        }
        return """
            <svg class="timeline" viewBox="0 0 1000 150" role="img" aria-label="signers by expiry">\(ticks)\
            <line class="now" x1="\(now)" y1="5" x2="\(now)" y2="125"/><text class="now-label" x="\(now)" y="8">\
            report time</text>\(marks)</svg>
            <ul class="legend"><li><span class="swatch expired"></span>expired</li>\
            <li><span class="swatch soon"></span>expires within \(horizonDays) days</li>\
            <li><span class="swatch later"></span>valid for longer</li></ul>

            """
    }

    /// `value` with one decimal (coordinates; never negative here).
    private static func format(_ value: Double) -> String {
        let tenths = Int((max(value, 0) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
