import AASA
import AASAReports
import Foundation

/// `aasa audit summarize --format html`: the fleet report an auditor hands on, one
/// self-contained HTML file (styles, script, charts and rule documentation inline; no request
/// leaves the page, which a Content-Security-Policy meta tag enforces).
///
/// The headline and the verdict bar, the signers on an expiry timeline (SVG drawn here: a few
/// rectangles and circles need no chart library), the findings by rule with each rule's
/// documentation, and the per-domain table that ``FleetPageScript`` draws from the page's JSON
/// data block. Text of a domain is escaped for where it goes (``ReportText/xml(_:)``, which HTML reads as XML does).
public enum FleetPage {
    /// What the page says about the run that made it.
    public struct Context: Sendable {
        /// The version of aasa that writes the page.
        public var version: String
        /// A signer expiring within this many days of the report's time is marked as soon to expire.
        public var horizonDays: Int

        public init(version: String = AASAVersion.number, horizonDays: Int = 30) {
            self.version = version
            self.horizonDays = horizonDays
        }
    }

    /// One domain as the page holds it: its entry of the data block (JSON, escaped), and the few
    /// values the headline and the signers' table read. Made as each record is read, so that a
    /// summary of 100,000 domains keeps bytes, not the records' structures.
    public struct Entry: Sendable {
        public let domain: String
        /// The signer's subject and expiry, when the domain serves a signed file.
        let signer: SignerKey?
        let startedAt: Date?
        let auditedBy: String?
        let settings: AuditSettings?
        /// The domain's JSON in the page's data block.
        let json: Data

        public init(_ detail: FleetDomainDetail) throws {
            domain = detail.domain
            signer = detail.file.flatMap { file in
                file.signer.map { SignerKey(subject: $0, notAfter: file.signerNotAfter) }
            }
            startedAt = detail.startedAt
            auditedBy = detail.auditedBy
            settings = detail.settings
            json = FleetPage.escapedForScript(try FleetPage.encoder.encode(detail))
        }
    }

    struct SignerKey: Hashable, Sendable {
        let subject: String
        let notAfter: Date?
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// The whole document for `report` and its domains (one entry each), for a test or a
    /// small fleet; ``write(report:entries:context:to:)`` streams it.
    public static func html(report: FleetReport, domains: [FleetDomainDetail], context: Context) throws -> String {
        var page = Data()
        try write(report: report, entries: domains.map(Entry.init), context: context) { page.append($0) }
        return String(decoding: page, as: UTF8.self)
    }

    /// Writes the document for `report` and its domains' entries to `output`, part by part (the
    /// data block one domain at a time): a page of 100,000 domains is never one string.
    public static func write(
        report: FleetReport, entries: [Entry], context: Context, to output: (Data) -> Void
    ) throws {
        let style = FleetPageStyle.text
        let script = FleetPageScript.text
        let policy =
            "default-src 'none'; script-src '\(try hashSource(script))'; style-src '\(try hashSource(style))'; "
            + "img-src 'none'; base-uri 'none'; form-action 'none'"
        var head = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(policy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="aasa \(ReportText.xml(context.version))">
            <title>aasa fleet report: \(report.domains) domain\(report.domains == 1 ? "" : "s")</title>
            <style>\(style)</style>
            </head>
            <body>

            """
        head += headline(report, entries: entries, context: context)
        head += FleetPageCharts.verdictBar(report)
        head += signers(report, entries: entries, context: context)
        head += rules(report)
        head += table(report)
        head += "<script type=\"application/json\" id=\"aasa-data\">{\"fixes\":"
        output(Data(head.utf8))
        output(escapedForScript(try encoder.encode(fixes(report))))
        output(Data(",\"domains\":[".utf8))
        var chunk = Data()
        for (index, entry) in entries.enumerated() {
            if index > 0 { chunk.append(UInt8(ascii: ",")) }
            chunk.append(entry.json)
            if chunk.count >= 1 << 20 {
                output(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        output(chunk)
        output(Data("]}</script>\n<script>\(script)</script>\n</body>\n</html>\n".utf8))
    }

    /// The CSP source of `text`: `sha256-` and its digest in base64.
    static func hashSource(_ text: String) throws -> String {
        "sha256-" + Data(try SHA256Digest.digest(Array(text.utf8))).base64EncodedString()
    }

    /// JSON that cannot end the script element it is in: `<`, `>` and `&` as `\u` escapes, and
    /// so are controls, bidi characters and U+2028/U+2029 (line terminators in older
    /// JavaScript), so that none is raw anywhere in the page. Runs of bytes that need nothing are
    /// copied at once; a multi-byte character is decoded only to ask whether it is hidden.
    static func escapedForScript(_ json: Data) -> Data {
        json.withUnsafeBytes { input -> Data in
            var output = [UInt8]()
            output.reserveCapacity(input.count + input.count / 16)
            let hexDigits = Array("0123456789abcdef".utf8)
            var copied = 0  // input before this is in output
            func copy(upTo end: Int) {
                if end > copied { output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[copied..<end])) }
            }
            func escape(_ value: UInt32, replacing range: Range<Int>) {
                copy(upTo: range.lowerBound)
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
                for shift in stride(from: 12, through: 0, by: -4) {
                    output.append(hexDigits[Int(value >> UInt32(shift)) & 0xF])
                }
                copied = range.upperBound
            }
            var index = 0
            while index < input.count {
                let byte = input[index]
                if byte < 0x80 {
                    switch byte {
                    case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), 0x00...0x1F, 0x7F:
                        escape(UInt32(byte), replacing: index..<index + 1)
                    default: break
                    }
                    index += 1
                    continue
                }
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let end = min(index + length, input.count)
                var decoder = UTF8()
                var iterator = input[index..<end].makeIterator()
                if case .scalarValue(let scalar) = decoder.decode(&iterator), TerminalText.isControl(scalar) {
                    escape(scalar.value, replacing: index..<end)
                }
                index = end
            }
            copy(upTo: input.count)
            return Data(output)
        }
    }

    /// The next step of each rule of the report that has one.
    private static func fixes(_ report: FleetReport) -> [String: String] {
        var fixes: [String: String] = [:]
        for rule in report.rules { fixes[rule.rule] = FleetPageRules.fix(of: rule.rule) }
        return fixes
    }

    private static func headline(_ report: FleetReport, entries: [Entry], context: Context) -> String {
        let files = report.files.map { ReportText.xml($0.path) }.joined(separator: ", ")
        let started = entries.compactMap(\.startedAt)
        let versions = Set(entries.compactMap(\.auditedBy)).sorted().map(ReportText.xml).joined(separator: ", ")
        var audited = ""
        if let first = started.min(), let last = started.max() {
            audited = " Audited \(InternetDateTime.string(from: first))"
            audited += first == last ? "" : " to \(InternetDateTime.string(from: last))"
            audited += versions.isEmpty ? "." : " by aasa \(versions)."
        }
        return """
            <header>
            <h1>Fleet report</h1>
            <p class="lede"><strong id="domain-total">\(report.domains)</strong> domain\(report.domains == 1 ? "" : "s") audited\
            \(duplicates(report.duplicates)).
            \(audited) Signers judged at \(InternetDateTime.string(from: report.at)); this page written by aasa \
            \(ReportText.xml(context.version))\(files.isEmpty ? "" : " from \(files)").</p>
            \(settings(entries))
            </header>

            """
    }

    /// The most distinct settings the headline lists before it counts the rest.
    static let settingsListed = 5

    /// How the records were audited (``AuditSettings/summary``), for the headline: one line when
    /// every record has the same settings, else each set of settings with its domains.
    private static func settings(_ entries: [Entry]) -> String {
        var counts: [AuditSettings: Int] = [:]
        var unrecorded = 0
        for entry in entries {
            if let settings = entry.settings { counts[settings, default: 0] += 1 } else { unrecorded += 1 }
        }
        let untold =
            unrecorded == 0
            ? "" : " \(unrecorded) record\(unrecorded == 1 ? " does" : "s do") not say how (aasa 0.2.0 and earlier)."
        func words(_ settings: AuditSettings) -> String {
            settings.summary.map { "<code>\(ReportText.xml($0))</code>" }.joined(separator: ", ")
        }
        switch counts.count {
        case 0:
            return entries.isEmpty ? "" : "<p id=\"settings\">Settings:\(untold)</p>"
        case 1:
            return "<p id=\"settings\">Settings: \(words(counts.keys.first!)).\(untold)</p>"
        default:
            let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : words($0.key) < words($1.key) }
            var items = sorted.prefix(settingsListed).map { settings, count in
                "<li>\(count) domain\(count == 1 ? "" : "s"): \(words(settings))</li>"
            }
            if sorted.count > settingsListed {
                let rest = sorted.dropFirst(settingsListed).reduce(0) { $0 + $1.value }
                items.append(
                    "<li>\(rest) domain\(rest == 1 ? "" : "s") audited with \(sorted.count - settingsListed) other settings</li>"
                )
            }
            return
                "<p id=\"settings\">The records were audited with \(counts.count) different settings:\(untold)</p>\n<ul class=\"settings\">\(items.joined())</ul>"
        }
    }

    /// What the merge of shards did, for the headline: "" when no record replaced another.
    private static func duplicates(_ count: Int) -> String {
        switch count {
        case 0: ""
        case 1: " (1 later record replaced an earlier one of its domain)"
        default: " (\(count) later records replaced earlier ones of their domains)"
        }
    }

    private static func signers(_ report: FleetReport, entries: [Entry], context: Context) -> String {
        var byIdentity: [SignerKey: [String]] = [:]
        for entry in entries {
            if let signer = entry.signer { byIdentity[signer, default: []].append(entry.domain) }
        }
        var html = "<section id=\"signers\">\n<h2>Signers by expiry</h2>\n"
        guard !report.signers.isEmpty else {
            return html + "<p>No domain serves a signed file whose signer was read.</p>\n</section>\n"
        }
        html += FleetPageCharts.timeline(report, horizonDays: context.horizonDays)
        html +=
            "<table class=\"signers\"><thead><tr><th>Signer</th><th>Expires</th><th>Status</th><th>Domains</th></tr></thead><tbody>\n"
        for signer in report.signers {
            let status = FleetPageCharts.expiry(signer, at: report.at, horizonDays: context.horizonDays)
            let names = (byIdentity[SignerKey(subject: signer.subject, notAfter: signer.notAfter)] ?? []).sorted()
            let shown = names.prefix(20).map { "<li>\(ReportText.xml($0))</li>" }.joined()
            let filter = signer.subject.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let rest =
                names.count > 20
                ? "<li>and \(names.count - 20) more: <a href=\"#signer=\(filter)\">the table of this signer's domains</a></li>"
                : ""
            html += """
                <tr class="signer \(status.rawValue)"><td>\(ReportText.xml(signer.subject))<br><small>issuer: \
                \(ReportText.xml(signer.issuer))</small></td><td>\(InternetDateTime.string(from: signer.notAfter))</td>\
                <td>\(status.label)</td><td><details><summary>\(signer.domains)</summary><ul>\(shown)\(rest)</ul>\
                </details></td></tr>

                """
        }
        return html + "</tbody></table>\n</section>\n"
    }

    private static func rules(_ report: FleetReport) -> String {
        var html = "<section id=\"rules\">\n<h2>Findings by rule</h2>\n"
        guard !report.rules.isEmpty else { return html + "<p>No findings.</p>\n</section>\n" }
        html +=
            "<table class=\"rules\"><thead><tr><th>Rule</th><th>Severity</th><th>Domains</th><th>Findings</th></tr></thead><tbody>\n"
        for rule in report.rules {
            let id = ReportText.xml(rule.rule)
            let share = FleetPageCharts.percent(rule.domains, of: report.domains)
            let documentation = FleetPageRules.description(of: rule.rule)
            html += """
                <tr id="rule-\(id)" class="rule sev-\(rule.severity.rawValue)"><td><details><summary><code>\(id)</code>\
                </summary>\(documentation)</details></td><td>\(rule.severity.rawValue)</td>\
                <td><a href="#rule=\(id)">\(rule.domains)</a> (\(share))</td><td>\(rule.findings)</td></tr>

                """
        }
        return html + "</tbody></table>\n</section>\n"
    }

    private static func table(_ report: FleetReport) -> String {
        let verdicts = AuditVerdict.allCases.map { "<option value=\"\($0.rawValue)\">\($0.rawValue)</option>" }.joined()
        let rules = report.rules.map { rule in
            let id = ReportText.xml(rule.rule)
            return "<option value=\"\(id)\">\(id)</option>"
        }.joined()
        return """
            <section id="domains">
            <h2>Domains</h2>
            <div class="filters">
            <label>Verdict <select id="filter-verdict"><option value="">any</option>\(verdicts)</select></label>
            <label>Rule <select id="filter-rule"><option value="">any</option>\(rules)</select></label>
            <label>Text <input id="filter-text" type="search" placeholder="domain, signer, app ID, message"></label>
            <span id="row-count"></span>
            <button id="page-previous" type="button">Previous</button><button id="page-next" type="button">Next</button>
            </div>
            <table class="domains"><thead><tr><th data-sort="domain">Domain</th><th data-sort="verdict">Verdict</th>\
            <th data-sort="findings">Findings</th><th>Signer</th><th data-sort="expiry">Signer expires</th></tr></thead>
            <tbody id="domain-rows"></tbody></table>
            <noscript><p>The table needs JavaScript; the counts above do not.</p></noscript>
            </section>

            """
    }
}
