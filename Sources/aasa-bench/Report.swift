import Foundation

/// One figure of the benchmark.
struct Measurement: Encodable {
    /// The work: "sign RSA-2048", "verify", "match", …
    var work: String
    /// Who did it: "aasa batch --jobs 2", "openssl smime loop", "naive in-process", …
    var by: String
    /// Files (or URLs) processed.
    var count: Int?
    var value: Double
    /// "files/s", "URLs/s", "ms", "MB".
    var unit: String
    /// The share of what the machine's cores used could do (openssl speed), when that applies.
    var hardwareFraction: Double?
    /// Peak resident set size of the process, in MB, when it was one process.
    var peakMB: Double?
    /// What produced the figure.
    var command: String
}

/// A target of the issue, checked against the figures.
struct TargetCheck: Encodable {
    var target: String
    var measured: Double
    var goal: Double
    /// "at least" or "at most".
    var kind: String
    var met: Bool
    var detail: String

    init(_ target: String, measured: Double, atLeast goal: Double, detail: String) {
        self.target = target
        self.measured = measured
        self.goal = goal
        kind = "at least"
        met = measured >= goal
        self.detail = detail
    }

    init(_ target: String, measured: Double, atMost goal: Double, detail: String) {
        self.target = target
        self.measured = measured
        self.goal = goal
        kind = "at most"
        met = measured <= goal
        self.detail = detail
    }
}

/// Everything the run found, as written to the JSON file.
struct Report: Encodable {
    var date: String
    var quick: Bool
    var machine: [String: String]
    var hardware: Hardware
    var measurements: [Measurement] = []
    var targets: [TargetCheck] = []
    /// `--scaling`'s curve, a line per `--jobs` value and the N-processes comparison.
    var curve: [String]?

    /// The table printed at the end.
    func table() -> String {
        func number(_ value: Double) -> String {
            guard value.isFinite else { return "n/a" }
            if value >= 100 { return String(Int(value.rounded())).withThousandsSeparators }
            if value >= 10 { return String(format: "%.1f", value) }
            return String(format: "%.2f", value)
        }
        var rows: [[String]] = [["work", "by", "n", "value", "unit", "of hardware", "peak MB"]]
        for m in measurements {
            rows.append([
                m.work, m.by, m.count.map { String($0).withThousandsSeparators } ?? "", number(m.value), m.unit,
                m.hardwareFraction.map { String(format: "%.0f%%", $0 * 100) } ?? "",
                m.peakMB.map { String(format: "%.1f", $0) } ?? "",
            ])
        }
        var text = render(rows, numericFrom: 2)
        text += "\n"
        var targetRows: [[String]] = [["target", "measured", "goal", "met"]]
        for t in targets {
            targetRows.append([
                t.target, number(t.measured), (t.kind == "at least" ? "≥ " : "≤ ") + number(t.goal),
                t.met ? "yes" : "NO",
            ])
        }
        text += render(targetRows, numericFrom: 1)
        return text
    }

    private func render(_ rows: [[String]], numericFrom: Int) -> String {
        var widths = [Int](repeating: 0, count: rows[0].count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        var lines: [String] = []
        for (rowIndex, row) in rows.enumerated() {
            var line = ""
            for (index, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                line +=
                    (index == 0 ? "" : "  ") + (index >= numericFrom && rowIndex > 0 ? padding + cell : cell + padding)
            }
            while line.hasSuffix(" ") { line.removeLast() }
            lines.append(line)
            if rowIndex == 0 {
                lines.append(String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1)))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// "12345" → "12,345".
    var withThousandsSeparators: String {
        guard count > 3, allSatisfy(\.isNumber) else { return self }
        var result = ""
        for (index, character) in enumerated() {
            if index > 0 && (count - index) % 3 == 0 { result += "," }
            result.append(character)
        }
        return result
    }
}
