import AASA

/// What the rule selection and the baseline did over a lint run: the counts its summary
/// line gives, and the findings --write-baseline records.
struct SelectionTally {
    /// Findings of disabled rules.
    var suppressed = 0
    /// Findings the baseline accepted.
    var baselined = 0
    /// Accepted findings (the counts of the baseline's entries) that no longer occur.
    var stale = 0
    /// The files linted, as given.
    var linted: Set<String> = []
    /// Every finding after the selection, with its file (for --write-baseline).
    var findings: [(path: String, diagnostic: Diagnostic)] = []

    mutating func add(_ result: AASACommand.Lint.FileResult, path: String) {
        suppressed += result.suppressed
        baselined = Baseline.cappedSum(baselined, result.baselined)
        stale = Baseline.cappedSum(stale, result.stale)
        linted.insert(path)
        for diagnostic in result.findings { findings.append((path, diagnostic)) }
    }

    /// The summary's notes: "2 suppressed (rule selection)", "3 baselined", "1 baselined finding
    /// no longer occurs", "4 baselined findings for files not linted".
    func notes(baseline: Baseline?) -> [String] {
        func count(_ number: Int, _ one: String, _ many: String) -> String { "\(number) \(number == 1 ? one : many)" }
        var notes: [String] = []
        if suppressed > 0 { notes.append("\(suppressed) suppressed (rule selection)") }
        if let baseline {
            notes.append("\(baselined) baselined")
            if stale > 0 {
                notes.append(count(stale, "baselined finding no longer occurs", "baselined findings no longer occur"))
            }
            let unchecked = baseline.unchecked(linted: linted)
            if unchecked > 0 {
                notes.append(count(unchecked, "baselined finding", "baselined findings") + " for files not linted")
            }
        }
        return notes
    }
}
