import AASA
import Foundation

/// The aggregation of `aasa audit summarize`: domain reports added one at a time, each domain
/// counted once (the last record added for it wins), then summed up (``report(at:files:)``).
///
/// Memory: per domain, only its name, its verdict and two indexes: of its list of (rule,
/// severity, count) and of its signer. Rule IDs, those lists and signers are kept once each,
/// however many domains share them.
public struct FleetSummary: Sendable {
    /// What is kept of one domain's last record: a few bytes, no allocation of its own.
    private struct DomainState {
        var verdict: AuditVerdict
        /// Index in ``profiles``: the domain's findings, counted by rule.
        var profile: Int32
        /// Index in ``signers``, or -1 when the domain serves no signed file (or its signer was not read).
        var signer: Int32
    }

    /// One (rule, severity, count) of a domain's findings: a rule found at two severities has two.
    private struct RuleCount: Hashable {
        var rule: Int32
        var severity: Severity
        var count: Int32
    }

    private var domains: [String: DomainState] = [:]
    private var ruleNames: [String] = []
    private var ruleIndex: [String: Int32] = [:]
    /// The distinct lists of findings by rule (most domains share theirs with many others).
    private var profiles: [[RuleCount]] = []
    private var profileIndex: [[RuleCount]: Int32] = [:]
    private var signers: [FleetSigner] = []
    private var signerIndex: [FleetSigner: Int32] = [:]
    /// Records added, and how many of them replaced an earlier record of the same domain.
    public private(set) var records = 0
    public private(set) var duplicates = 0

    public init() {}

    /// Adds a domain's report; an earlier report of the same domain (compared without ASCII
    /// case) is replaced.
    public mutating func add(_ report: DomainReport) {
        records += 1
        var counts: [RuleCount] = []
        for finding in report.diagnostics {
            let rule = intern(finding.rule.rawValue)
            if let index = counts.firstIndex(where: { $0.rule == rule && $0.severity == finding.severity }) {
                counts[index].count += 1
            } else {
                counts.append(RuleCount(rule: rule, severity: finding.severity, count: 1))
            }
        }
        var signer: Int32 = -1
        if let read = report.file?.signature?.signer { signer = intern(FleetSigner(read)) }
        counts.sort { ($0.rule, $0.severity.rawValue) < ($1.rule, $1.severity.rawValue) }
        let state = DomainState(verdict: report.verdict, profile: intern(counts), signer: signer)
        if domains.updateValue(state, forKey: report.domain.lowercased()) != nil { duplicates += 1 }
    }

    private mutating func intern(_ rule: String) -> Int32 {
        if let index = ruleIndex[rule] { return index }
        ruleNames.append(rule)
        ruleIndex[rule] = Int32(ruleNames.count - 1)
        return Int32(ruleNames.count - 1)
    }

    private mutating func intern(_ counts: [RuleCount]) -> Int32 {
        if let index = profileIndex[counts] { return index }
        profiles.append(counts)
        profileIndex[counts] = Int32(profiles.count - 1)
        return Int32(profiles.count - 1)
    }

    private mutating func intern(_ signer: FleetSigner) -> Int32 {
        if let index = signerIndex[signer] { return index }
        signers.append(signer)
        signerIndex[signer] = Int32(signers.count - 1)
        return Int32(signers.count - 1)
    }

    /// The summary of every domain added, with signers' expiry judged at `time`.
    public func report(at time: Date, files: [FleetReport.FileRead] = []) -> FleetReport {
        var verdicts: [AuditVerdict: Int] = [:]
        var ruleDomains = [Int](repeating: 0, count: ruleNames.count)
        var ruleFindings = [Int](repeating: 0, count: ruleNames.count)
        var ruleSeverity = [Severity](repeating: .info, count: ruleNames.count)
        var signerDomains = [Int](repeating: 0, count: signers.count)
        for state in domains.values {
            verdicts[state.verdict, default: 0] += 1
            // A profile is sorted by rule, a rule once per severity: the domain counts once per rule.
            var previous: Int32 = -1
            for count in profiles[Int(state.profile)] {
                let rule = Int(count.rule)
                if count.rule != previous { ruleDomains[rule] += 1 }
                previous = count.rule
                ruleFindings[rule] += Int(count.count)
                ruleSeverity[rule] = max(ruleSeverity[rule], count.severity)
            }
            if state.signer >= 0 { signerDomains[Int(state.signer)] += 1 }
        }
        let rules = ruleNames.indices.filter { ruleDomains[$0] > 0 }.map {
            FleetReport.Rule(
                rule: ruleNames[$0], severity: ruleSeverity[$0], domains: ruleDomains[$0], findings: ruleFindings[$0])
        }.sorted { ($1.domains, $1.findings, $0.rule) < ($0.domains, $0.findings, $1.rule) }
        let signed = signers.indices.filter { signerDomains[$0] > 0 }.map { index in
            let signer = signers[index]
            return FleetReport.Signer(
                subject: signer.subject, issuer: signer.issuer, sha256Fingerprint: signer.sha256Fingerprint,
                notAfter: signer.notAfter, domains: signerDomains[index], expired: signer.notAfter < time)
        }.sorted {
            ($0.notAfter, $0.subject, $0.issuer, $0.sha256Fingerprint ?? "")
                < ($1.notAfter, $1.subject, $1.issuer, $1.sha256Fingerprint ?? "")
        }
        return FleetReport(
            at: time, files: files, records: records, duplicates: duplicates, domains: domains.count,
            verdicts: AuditVerdict.allCases.compactMap { verdict in
                verdicts[verdict].map { FleetReport.VerdictCount(verdict: verdict, domains: $0) }
            },
            rules: rules, signers: signed)
    }
}

extension FleetSummary {
    /// Every domain added, sorted by name, with signers' expiry judged at `time`
    /// (``FleetDomainRow``: `aasa audit summarize --format csv` and `--list`).
    public func domainRows(at time: Date) -> [FleetDomainRow] {
        domains.map { name, state in
            let counts = profiles[Int(state.profile)]
            func count(_ severity: Severity) -> Int {
                counts.filter { $0.severity == severity }.reduce(0) { $0 + Int($1.count) }
            }
            let signer = state.signer >= 0 ? signers[Int(state.signer)] : nil
            return FleetDomainRow(
                domain: name, verdict: state.verdict, errors: count(.error), warnings: count(.warning),
                deprecations: count(.deprecation), rules: Set(counts.map { ruleNames[Int($0.rule)] }).sorted(),
                signer: signer, signerExpired: signer.map { $0.notAfter < time } ?? false)
        }.sorted { $0.domain < $1.domain }
    }
}
