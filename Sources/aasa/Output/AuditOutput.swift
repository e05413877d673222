import AASA
import AASAAudit
import AASAReports
import Foundation

/// Prints `aasa audit` results as they come: text blocks, one streamed JSON document, or JSON
/// lines. Keeps only counts and the summary table (in a temporary file), so memory stays flat
/// however many domains there are.
final class AuditPrinter {
    let format: BatchFormat
    /// The domains' findings, for the formats written at the end (SARIF).
    private var reports: ReportCollector
    let failOn: Severity
    /// The rules to report, at which severity (`--disable`, `--severity`, the configuration).
    let selection: RuleSelection
    private let progress: ProgressBar?
    private let table = SummaryTable(columns: ["DOMAIN", "VERDICT", "FILE", "KIND", "TLS", "ERR", "WARN", "DEPR"])
    private var verdicts: [AuditVerdict: Int] = [:]
    private var rules: [String: Int] = [:]
    private(set) var domains = 0
    private(set) var failedDomains = 0
    /// Findings of disabled rules, over every domain.
    private(set) var suppressed = 0
    /// Domains this machine could not fetch (no file descriptor free, or the proxy could not
    /// be used): exit status 2.
    private(set) var notAuditedDomains = 0
    private var invalidEntries = 0
    /// Domains whose record could not be encoded (said on standard error, left out of the
    /// output, never written as `{}`): exit status 2.
    private(set) var unencodable = 0
    /// The records written to the `--format json` array, for its commas.
    private var written = 0
    /// Whether the text summary table left out domains (no usable TMPDIR, or it could not be
    /// read back), which ``finish()`` said on standard error: exit status 2 (issue #24).
    var summaryIncomplete: Bool { !table.isComplete }
    /// Domains of the input left to other shards (`--shard`).
    var otherShards = 0
    /// `--exit-zero`: findings at the failing level do not make the exit status 1.
    var exitZero = false
    /// Where the output goes: standard output, or the `--resume` file.
    private let output: (Data) -> Void
    /// `--save DIR`: where each domain's files went, for the next steps' `FILE`.
    var saver: AuditSaver?
    /// This run's trust options as command-line words, for the next steps of a file whose
    /// signature it verified.
    var trustWords: [String] = []

    init(
        format: BatchFormat, reports: ReportCollector, failOn: Severity, selection: RuleSelection = .everything,
        progress: ProgressBar?, output: @escaping (Data) -> Void = StandardStreams.out
    ) {
        self.output = output
        self.format = format
        self.reports = reports
        self.failOn = failOn
        self.selection = selection
        self.progress = progress
        if format == .json {
            write("{\n" + JSONStamp.around("domains", .audit, indent: "  ").before + "  \"domains\" : [")
        }
    }

    /// Whether standard output shares the terminal with the progress bar.
    private let outputIsTerminal = isatty(STDOUT_FILENO) == 1

    private func write(_ text: String) {
        if outputIsTerminal { progress?.clear() }
        output(Data(utf8: text))
    }

    /// A domain entry that is not a domain: one diagnostic line on stderr.
    func invalid(origin: String, message: String) {
        invalidEntries += 1
        progress?.clear()
        Diagnostics.emit(origin, .error, message)
        reports.unreadable(CLIFailure(origin, message))
    }

    /// A failure that is not a domain's finding (a file `--save` could not write): one line.
    func problem(_ failure: CLIFailure) {
        progress?.clear()
        Diagnostics.emit(failure.path, .error, failure.message)
    }

    func tick(inFlight: Int) {
        progress?.update(done: domains, inFlight: inFlight)
    }

    func domain(_ audited: DomainReport) {
        let saved = saver?.take(audited.domain)
        let (report, dropped) = audited.selecting(selection)
        suppressed += dropped
        domains += 1
        verdicts[report.verdict, default: 0] += 1
        for rule in Set(report.diagnostics.map(\.rule.rawValue)) { rules[rule, default: 0] += 1 }
        if report.verdict == .notAudited {
            notAuditedDomains += 1
        } else if report.diagnostics.contains(where: { $0.severity >= failOn }) {
            failedDomains += 1
        }
        switch format {
        case .text:
            let verified = ["valid", "valid-then"].contains(report.file?.signature?.verdict ?? "")
            let trust = verified ? trustWords : []
            let saving = saver != nil
            write(
                AuditText.block(report) {
                    AuditSaver.filledIn($0, file: saved ?? nil, trust: trust, saving: saving)
                } + "\n")
            table.append([
                report.domain, report.verdict.rawValue, AuditText.servedFrom(report), report.file?.kind ?? "-",
                report.tls?.verdict ?? "-", String(report.count(.error)), String(report.count(.warning)),
                String(report.count(.deprecation)),
            ])
        case .json:
            guard let encoded = encoded(report, { try JSONOutput.encode(report, stamped: .audit) }) else { break }
            let indented = String(decoding: encoded, as: UTF8.self).trimmingCharacters(in: .newlines).split(
                separator: "\n", omittingEmptySubsequences: false
            )
            .map { "    " + $0 }.joined(separator: "\n")
            written += 1
            write((written == 1 ? "\n" : ",\n") + indented)
        case .jsonl:
            guard let line = encoded(report, { try JSONOutput.line(report, stamped: .audit) }) else { break }
            write(String(decoding: line, as: UTF8.self))
        case .sarif, .junit, .gitlab, .markdown:
            reports.add(ReportSubject(audit: report))
        }
        progress?.update(done: domains, inFlight: nil)
    }

    /// `report`'s record from `encode`, or nil when it cannot be encoded: then one error line
    /// on standard error and the domain counted in ``unencodable``, never a placeholder `{}`.
    private func encoded(_ report: DomainReport, _ encode: () throws -> Data) -> Data? {
        do {
            return try encode()
        } catch {
            unencodable += 1
            progress?.clear()
            Diagnostics.emit(
                report.domain, .error, "its record could not be encoded (\(error)): left out of the output")
            return nil
        }
    }

    /// The summary: a table (text), the document's end (json), or the whole report (SARIF).
    /// - Throws: what ``ReportCollector/finish()`` throws.
    func finish() throws {
        progress?.finish()
        switch format {
        case .text:
            var lines = [
                "Summary: \(domains) domain\(domains == 1 ? "" : "s")" + (domains == 0 ? "" : ": " + verdictCounts())
            ]
            if invalidEntries > 0 {
                lines.append(
                    "\(invalidEntries) entr\(invalidEntries == 1 ? "y was" : "ies were") not a domain (see standard error)"
                )
            }
            if notAuditedDomains > 0 {
                lines.append(
                    "\(notAuditedDomains) domain\(notAuditedDomains == 1 ? " was" : "s were") not audited: \(notAuditedReason), which says nothing about \(notAuditedDomains == 1 ? "it" : "them") (exit status 2)"
                )
            }
            if otherShards > 0 {
                lines.append(
                    "\(otherShards) domain\(otherShards == 1 ? " was" : "s were") left to other shards (--shard)")
            }
            if suppressed > 0 {
                lines.append("\(suppressed) finding\(suppressed == 1 ? "" : "s") suppressed (rule selection)")
            }
            if failedDomains > 0 {
                lines.append(
                    "\(failedDomains) domain\(failedDomains == 1 ? " has" : "s have") findings at or above \(failOn.rawValue) (\(exitZero ? "--exit-zero: exit status 0" : "exit status 1"))"
                )
            }
            write(lines.joined(separator: "\n") + "\n")
            if domains > 0 {
                write("\n")
                table.render { self.write($0) }
            }
        case .json:
            let summary = Summary(
                domains: domains,
                verdicts: Dictionary(uniqueKeysWithValues: verdicts.map { ($0.key.rawValue, $0.value) }),
                rules: rules, failOn: failOn.rawValue, failed: failedDomains, invalidEntries: invalidEntries,
                suppressed: suppressed, otherShards: otherShards)
            // The summary holds counts and strings only; were it ever unencodable, the document
            // still closes, with null and an error line (exit status 2).
            let object: String
            do {
                object = String(decoding: try JSONOutput.encode(summary), as: UTF8.self)
            } catch {
                unencodable += 1
                Diagnostics.emit("audit", .error, "the summary could not be encoded (\(error)): written as null")
                object = "null"
            }
            let indented = object.trimmingCharacters(in: .newlines).split(
                separator: "\n", omittingEmptySubsequences: false
            )
            .enumerated().map { $0.offset == 0 ? String($0.element) : "  " + $0.element }.joined(separator: "\n")
            let stamp = JSONStamp.around("domains", .audit, indent: "  ").after
            write("\n  ]" + stamp + ",\n  \"summary\" : " + indented + "\n}\n")
        case .jsonl:
            break
        case .sarif, .junit, .gitlab, .markdown:
            try reports.finish()
        }
    }

    /// Why domains were not audited, from the local rules their reports hold.
    private var notAuditedReason: String {
        let descriptors = rules[HostingRules.localDescriptorLimit.rawValue, default: 0] > 0
        let proxy = rules[HostingRules.localProxyFailure.rawValue, default: 0] > 0
        switch (descriptors, proxy) {
        case (true, false): return "this machine ran out of file descriptors"
        case (false, true): return "the proxy could not be used"
        case (true, true): return "this machine ran out of file descriptors or the proxy could not be used"
        case (false, false): return "a failure of this machine"
        }
    }

    private func verdictCounts() -> String {
        let order: [(AuditVerdict, String)] = [
            (.current, "current"), (.legacy, "legacy"), (.needsAttention, "needs attention"), (.broken, "broken"),
            (.notAudited, "not audited"),
        ]
        return order.compactMap { verdict, name in verdicts[verdict].map { "\($0) \(name)" } }.joined(separator: ", ")
    }

    /// The `summary` member of `--format json`.
    struct Summary: Encodable {
        var domains: Int
        /// Domains per verdict.
        var verdicts: [String: Int]
        /// Domains per rule ID that fired.
        var rules: [String: Int]
        var failOn: String
        /// Domains with a finding at or above `failOn`.
        var failed: Int
        /// Entries that were not domains.
        var invalidEntries: Int
        /// Findings of disabled rules (`--disable`, the configuration), over every domain.
        var suppressed: Int
        /// Domains of the input left to other shards (`--shard`).
        var otherShards: Int
    }
}

/// The text report of one domain.
enum AuditText {
    static func servedFrom(_ report: DomainReport) -> String {
        guard let url = report.file?.url else { return "-" }
        return url.hasSuffix("/.well-known/apple-app-site-association") ? ".well-known" : "root"
    }

    static func size(_ bytes: Int) -> String {
        bytes < 10_240 ? "\(bytes) bytes" : String(format: "%.1f KB", Double(bytes) / 1024)
    }

    static func milliseconds(_ value: Double?) -> String {
        guard let value else { return "-" }
        return value < 10 ? String(format: "%.1f ms", value) : String(format: "%.0f ms", value)
    }

    static func day(_ date: Date) -> String { TextReport.date(date) }

    /// `step` fills a next step's `FILE` in (``AuditSaver/filledIn(_:file:trust:saving:)``).
    static func block(_ report: DomainReport, step: (String) -> String = { $0 }) -> String {
        var lines = ["\(report.domain): \(report.verdict.rawValue)"]
        for path in report.paths { lines += self.path(path, label: "GET") }
        if let tls = report.tls {
            var head = "  TLS: " + (tls.verified ? "verified" : "NOT verified (\(tls.verdict))")
            if let version = tls.version { head += ", \(version)" }
            lines.append(head)
            if let reason = tls.reason { lines.append("      \(reason)") }
            for (depth, certificate) in tls.chain.enumerated() {
                var line = "      \(depth) \(certificate.subject)"
                let names = certificate.subjectAlternativeNames
                if !names.isEmpty {
                    line += " [\(names.prefix(4).joined(separator: ", "))\(names.count > 4 ? ", …" : "")]"
                }
                line += ", issuer \(certificate.issuer), until \(day(certificate.notAfter))"
                lines.append(line)
            }
        }
        if let file = report.file {
            lines.append("  file: \(file.url) (\(file.kind), \(size(file.size)))")
            if let effect = file.effect { lines.append("  does: \(effect.summary)") }
            if let signature = file.signature {
                var line = "  signature: \(signature.verdict)"
                if let reason = signature.reason { line += " (\(reason))" }
                lines.append(line)
                if let signer = signature.signer {
                    let identity: String
                    switch signature.identity {
                    case "same-certificate": identity = "the TLS certificate itself"
                    case "same-key": identity = "same key as the TLS certificate"
                    case "valid-for-host": identity = "another key, but valid for \(report.host)"
                    case "not-identity": identity = "NOT the domain's TLS identity"
                    default: identity = "not compared with the TLS certificate"
                    }
                    lines.append("      signer \(signer.subject), until \(day(signer.notAfter)): \(identity)")
                }
            }
        } else {
            lines.append("  file: none")
        }
        if let cdn = report.cdn {
            lines += path(cdn.fetch, label: "CDN")
            if cdn.comparison != "not-compared" { lines.append("      compared with the origin: \(cdn.comparison)") }
            for (name, value) in cdn.failure.sorted(by: { $0.key < $1.key }) { lines.append("      \(name): \(value)") }
        }
        lines += findings(report, step: step)
        // Each line escaped (TerminalText): a hostile server's certificate subject, header or
        // JSON value cannot forge a line of the report or drive the terminal.
        return StandardStreams.escaped(lines)
    }

    private static func path(_ path: PathReport, label: String) -> [String] {
        var lines = ["  \(label) \(path.url)"]
        var facts: [String] = []
        if let status = path.status { facts.append(String(status)) }
        if let location = path.location { facts.append("Location: \(location)") }
        if let type = path.contentType { facts.append(type) }
        if let encoding = path.contentEncoding { facts.append("Content-Encoding: \(encoding)") }
        if path.truncated {
            facts.append(
                path.declaredSize.map { "\(size($0)) announced, over the cap (not read)" }
                    ?? "more than \(size(path.size ?? 0)) (stopped at the cap)")
        } else if let bytes = path.size {
            facts.append(size(bytes))
        }
        if let kind = path.kind { facts.append(kind) }
        if let error = path.error { facts.append("\(error.rule): \(error.message)") }
        let timing = path.timings
        var when = "total \(milliseconds(timing.totalMs))"
        if timing.connectMs != nil {
            when =
                "connect \(milliseconds(timing.connectMs)), TLS \(milliseconds(timing.tlsMs)), first byte \(milliseconds(timing.firstByteMs)), "
                + when
        }
        if let address = path.address { when = "\(address); " + when }
        if path.reusedConnection { when += "; on the connection of the request before" }
        if path.attempts > 1 { when += "; \(path.attempts) attempts" }
        if path.attempts == 0 { when += "; not requested: its connection is the one that failed above" }
        if let wait = path.descriptorWaitMs { when += "; waited \(milliseconds(wait)) for a free file descriptor" }
        lines.append("      " + facts.joined(separator: ", "))
        lines.append("      " + when)
        return lines
    }

    private static func findings(_ report: DomainReport, step: (String) -> String) -> [String] {
        let shown = report.diagnostics.filter { $0.severity != .info }
        let info = report.diagnostics.count - shown.count
        guard !report.diagnostics.isEmpty else { return ["  findings: none"] }
        var lines = ["  findings:"]
        var stepsShown = Set<String>()
        for diagnostic in shown {
            var line = "    \(diagnostic.severity.rawValue): [\(diagnostic.rule.rawValue)] \(diagnostic.message)"
            if !diagnostic.location.path.components.isEmpty {
                line +=
                    " (at \(diagnostic.location.path)" + (diagnostic.location.line.map { ", line \($0)" } ?? "") + ")"
            }
            lines.append(line)
            guard !stepsShown.contains(diagnostic.rule.rawValue) else { continue }
            stepsShown.insert(diagnostic.rule.rawValue)
            if let entry = HostingRules.entries[diagnostic.rule] {
                lines.append("        next step: \(entry.fix)")
            } else if let item = report.file?.items.first(where: { $0.rule == diagnostic.rule }) {
                lines.append("        next step: \(step(item.nextStep))")
            }
        }
        if info > 0 { lines.append("    (and \(info) info finding\(info == 1 ? "" : "s"): --format json lists them)") }
        return lines
    }
}

extension ReportSubject {
    /// An audited domain: the file iOS would use (its URL), with every finding of the domain.
    /// Lines are the served file's when it is plain JSON; its text is not kept, so no column.
    init(audit report: DomainReport) {
        let url =
            report.file?.url ?? report.paths.first?.url
            ?? "https://\(report.domain)/.well-known/apple-app-site-association"
        let signed = report.file?.signed ?? false
        self.init(
            path: report.domain, artifact: ArtifactURI(url: url),
            mimeType: report.file == nil ? nil : signed ? "application/pkcs7-mime" : "application/json",
            positions: report.file == nil || signed ? .none : .linesOnly,
            findings: report.diagnostics.map { finding in
                Finding(
                    diagnostic: Diagnostic(
                        finding.rule, finding.message, at: finding.location, severity: finding.severity),
                    url: finding.url)
            })
        verdict = report.verdict.rawValue
    }
}
