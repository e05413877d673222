import AASA
import AASAReports
import Foundation
import Testing

@testable import AASAAudit

/// What the html-hostile host of ``NginxServer`` serves: markup and script where a report
/// shows the domain's text (app IDs, a path, the Content-Type), U+202E, and a 10,000-character
/// app ID. Each script would set the page's title to "pwned".
extension Fixtures {
    static let htmlHostileContentType = "application/json; x=<script>document.title='pwned'</script>"
    static let longValue = String(repeating: "A", count: 10_000)
    static let htmlHostile = Data(
        (#"""
        {"applinks": {"details": [{"appIDs": ["ABCDE12345.<script>document.title='pwned'</script>", "ABCDE12345.\"><img src=x onerror=\"document.title='pwned'\">", "ABCDE12345.</script><script>document.title='pwned'</script>", "ABCDE12345.com.example.\u202Egnp.exe", "ABCDE12345.
        """# + longValue + #"""
            "], "components": [{"/": "/<b>bold</b>/*"}]}]}}

            """#).utf8)
}

/// `aasa audit summarize --format html` (issue #30): the page's escaping and policy without a
/// browser, then real audits of the test nginx loaded in headless Chromium: the DOM after the
/// page's script ran is checked against the records (counts, a filter, the timeline, no
/// console error), and a hostile server's text stays text.
@Suite struct FleetPageTests {
    @Test("a domain's entry cannot end the data block, and the policy allows the page's own script and style only")
    func dataBlockAndPolicy() throws {
        let domain = FleetDomainDetail(
            domain: "x.example", verdict: .broken, paths: [], tls: nil, file: nil,
            findings: [
                .init(
                    rule: "invalid-app-id", severity: .error,
                    message: "</script><!-- \u{2028}&\u{202E}\u{9B} é 😀 \u{FEFF}", url: nil
                )
            ])
        let block = String(decoding: try FleetPage.Entry(domain).json, as: UTF8.self)
        #expect(!block.contains("<") && !block.contains(">") && !block.contains("&"))
        #expect(
            !block.unicodeScalars.contains { TerminalText.isControl($0) },
            "a control or bidi character raw in the block")
        let decoded = try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any]
        let findings = decoded?["findings"] as? [[String: Any]]
        #expect(findings?.first?["message"] as? String == "</script><!-- \u{2028}&\u{202E}\u{9B} é 😀 \u{FEFF}")

        let report = FleetSummary().report(at: Date(timeIntervalSince1970: 1_800_000_000))
        let page = try FleetPage.html(report: report, domains: [], context: .init(version: "9.9.9"))
        let script = try #require(Self.between(page, "<script>", "</script>"))
        let style = try #require(Self.between(page, "<style>", "</style>"))
        let policy = try #require(Self.between(page, "http-equiv=\"Content-Security-Policy\" content=\"", "\""))
        #expect(policy.hasPrefix("default-src 'none'; "))
        #expect(policy.contains("script-src '\(try Self.sha256Source(script))'"), "\(policy)")
        #expect(policy.contains("style-src '\(try Self.sha256Source(style))'"), "\(policy)")
        #expect(!page.contains("http://") && !page.contains("https://"), "the page names no address")
    }

    @Test("the page's script puts no text into the page as markup")
    func scriptWritesNoMarkup() {
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "Function("] {
            #expect(!FleetPageScript.text.contains(sink), "the script uses \(sink)")
        }
        #expect(FleetPageScript.text.contains("node.textContent = visible(String(text))"))
    }

    /// `sha256-` and the base64 of the digest, computed by the openssl CLI (not by the code under test).
    static func sha256Source(_ text: String) throws -> String {
        let digest = ProcessRunner.run(Executables.openssl, ["dgst", "-sha256", "-binary"], stdin: Data(text.utf8))
        try #require(digest.succeeded, "\(digest)")
        return "sha256-" + digest.stdout.base64EncodedString()
    }

    static func between(_ text: String, _ start: String, _ end: String) -> String? {
        guard let from = text.range(of: start), let to = text.range(of: end, range: from.upperBound..<text.endIndex)
        else { return nil }
        return String(text[from.upperBound..<to.lowerBound])
    }

    // MARK: In a browser

    /// The audit of `hosts` as JSON lines, and the HTML page summarize makes of it, in `directory`.
    static func auditAndPage(
        _ server: NginxServer, _ hosts: [NginxServer.Host], in directory: URL
    ) throws -> (records: [[String: Any]], page: URL) {
        let audit = TestProcess.aasa(
            ["audit"] + hosts.map(server.domain) + ["--format", "jsonl"] + server.auditOptions)
        let records = try audit.jsonLines()
        try #require(records.count == hosts.count, "\(audit)")
        let results = directory.appendingPathComponent("results.jsonl")
        try audit.stdout.write(to: results)
        let summary = TestProcess.aasa(["audit", "summarize", results.path, "--format", "html"])
        try #require(summary.status == 0, "\(summary)")
        let page = directory.appendingPathComponent("report.html")
        try summary.stdout.write(to: page)
        return (records, page)
    }

    static func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    /// Every match of `pattern`'s first group in `text`.
    static func captures(_ pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test(
        "the report of a real audit renders in Chromium: verdict counts, a filter, one timeline mark per signer",
        .enabled(if: NginxServer.isAvailable, NginxServer.skipReason),
        .enabled(if: HeadlessChromium.isAvailable, Comment(rawValue: HeadlessChromium.skipReason)))
    func rendersInChromium() throws {
        let hosts: [NginxServer.Host] = [
            .plain, .signedRoot, .both, .missing, .wrongType, .expiredSigner, .foreignSigner, .sha1Signed, .apex,
            .redirect,
        ]
        try withNginx { server in
            try Self.withDirectory { directory in
                let (records, page) = try Self.auditAndPage(server, hosts, in: directory)
                var verdicts: [String: Int] = [:]
                var signers = Set<String>()
                for record in records {
                    verdicts[try #require(record["verdict"] as? String), default: 0] += 1
                    let signature = (record["file"] as? [String: Any])?["signature"] as? [String: Any]
                    if let signer = signature?["signer"] as? [String: Any] {
                        signers.insert(try #require(signer["sha256Fingerprint"] as? String))
                    }
                }
                try #require(verdicts.count >= 3 && signers.count >= 2, "the audit covers several verdicts and signers")

                let load = try HeadlessChromium.dumpDOM(page)
                #expect(load.status == 0, "\(load.log)")
                #expect(load.dom.contains("data-ready=\"true\""), "the page's script ran to its end")
                #expect(load.consoleErrors.isEmpty, "\(load.consoleErrors)")
                // The legend's count of each verdict is the records'.
                let legend = try Self.captures(#"data-verdict="([a-z-]+)" data-count="[0-9]+""#, in: load.dom)
                #expect(Set(legend) == Set(verdicts.keys), "\(legend)")
                for (verdict, count) in verdicts {
                    #expect(load.dom.contains("data-verdict=\"\(verdict)\" data-count=\"\(count)\""), "\(verdict)")
                }
                #expect(load.dom.contains("data-matching=\"\(records.count)\""))
                // One mark per signer on the timeline.
                let marks = try Self.captures(#"<circle class="mark (expired|soon|later)""#, in: load.dom)
                #expect(marks.count == signers.count, "\(marks.count) marks for \(signers.count) signers")

                // The filter of the address: exactly the broken domains' rows.
                let broken = try #require(verdicts["broken"])
                let filtered = try HeadlessChromium.dumpDOM(page, fragment: "verdict=broken")
                let rows = try Self.captures(#"<tr class="domain verdict-([a-z-]+)""#, in: filtered.dom)
                #expect(rows.count == broken && rows.allSatisfy { $0 == "broken" }, "\(rows)")
                #expect(filtered.dom.contains("data-matching=\"\(broken)\""))

                // The signers' link to the table (`#signer=`, percent-encoded as the page writes
                // it): exactly the rows of the signer that signs for most domains.
                var bySigner: [String: Int] = [:]
                for record in records {
                    let signature = (record["file"] as? [String: Any])?["signature"] as? [String: Any]
                    if let subject = (signature?["signer"] as? [String: Any])?["subject"] as? String {
                        bySigner[subject, default: 0] += 1
                    }
                }
                let (subject, count) = try #require(bySigner.max { $0.value < $1.value })
                let encoded = try #require(subject.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
                let signed = try HeadlessChromium.dumpDOM(page, fragment: "signer=\(encoded)")
                let signedRows = try Self.captures(#"<tr class="domain verdict-([a-z-]+)""#, in: signed.dom)
                #expect(signedRows.count == count, "\(subject): \(signedRows)")
                #expect(signed.dom.contains("data-matching=\"\(count)\""), "\(subject)")

                // The headline says how the audit ran.
                #expect(
                    load.dom.contains(
                        "Settings: <code>trust: 1 extra anchor only (--no-system-roots)</code>, "
                            + "<code>--timeout 10 s</code>, <code>--retries 2</code>."), "\(load.dom.prefix(2000))")

                // A screenshot for a person to look at, kept beside the build (its path in the log).
                let screenshot = Repository.root.appendingPathComponent(".build/fleet-report-screenshot.png")
                let shot = try HeadlessChromium.screenshot(page, to: screenshot)
                let png = try Data(contentsOf: screenshot)
                #expect(shot.status == 0 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(shot.log)")
                print("fleet report screenshot: \(screenshot.path) (\(png.count) bytes)")
            }
        }
    }

    @Test(
        "a hostile server's markup, scripts, bidi controls and 10,000-character values stay text in the page",
        .enabled(if: NginxServer.isAvailable, NginxServer.skipReason),
        .enabled(if: HeadlessChromium.isAvailable, Comment(rawValue: HeadlessChromium.skipReason)))
    func hostileTextStaysText() throws {
        try withNginx { server in
            try Self.withDirectory { directory in
                let (records, page) = try Self.auditAndPage(server, [.htmlHostile, .hostile], in: directory)
                // JSON lines come in the order the audits end.
                let domain = try #require(
                    records.compactMap { $0["domain"] as? String }.first {
                        $0.hasPrefix(NginxServer.Host.htmlHostile.rawValue)
                    })
                let html = try String(contentsOf: page, encoding: .utf8)
                #expect(!html.contains("<img") && !html.contains("<b>bold"), "raw markup in the page")
                #expect(html.components(separatedBy: "<script").count == 3, "the data block and the page's script only")

                let load = try HeadlessChromium.dumpDOM(page, fragment: "open=\(domain)")
                #expect(load.dom.contains("data-ready=\"true\""), "\(load.log)")
                #expect(load.consoleErrors.isEmpty, "\(load.consoleErrors)")
                #expect(!load.dom.contains("pwned</title>"), "a script of the server ran")
                #expect(load.dom.contains("<title>aasa fleet report: 2 domains</title>"))
                #expect(!load.dom.contains("<img") && !load.dom.contains("<b>"), "markup of the server became elements")
                // The detail shows the server's text, as text: its Content-Type, escaped in the DOM's serialisation.
                #expect(
                    load.dom.contains("x=&lt;script&gt;document.title='pwned'&lt;/script&gt;"),
                    "\(load.dom.prefix(3000))")
                #expect(!load.dom.contains("\u{202E}"), "a bidi override reached the page raw")
                #expect(load.dom.contains(Fixtures.longValue), "the 10,000-character value is shown whole")
            }
        }
    }
}
