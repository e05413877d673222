import Foundation

/// One run of benchmarks/wan-sim.sh (the WAN simulation, issue #17), shared by the
/// WANSimulationTests: 2,000 generated domains behind nginx, dnsmasq, hang listeners and refused
/// addresses, reached over a delay line (40 ms RTT ± 5 ms, no loss: a lost SYN or DNS packet
/// would make a verdict depend on chance). Inside the client namespace a driver runs the built
/// `aasa audit` with the system resolver (no `--resolve`):
///
/// 1. with `--resume FILE`, killed with SIGKILL once 400 lines are written, then resumed to
///    the end;
/// 2. `--shard 1/3`, `2/3` and `3/3`, at once (as three jobs of a batch engine would);
/// 3. the first ``politeDomains`` of the list with `--max-per-address` ``politeCap``, then
///    with `--rate` ``politeRate``.
///
/// nginx's access log is kept for runs 2 (the control: no limits) and 3.
///
/// The simulation needs root and network namespaces; where it cannot be built the script exits
/// 77 and ``shared`` holds the reason, which every test reports as a failure (never a pass).
struct WANSimulationRun: Sendable {
    /// What the mix says of a domain (manifest.tsv).
    struct Expectation: Sendable, Hashable {
        let category: String
        let verdict: String
        /// The rule the report must contain, or nil ("-"): no warning or error at all.
        let rule: String?
    }

    /// One domain's JSON line.
    struct Report: Sendable, Hashable {
        let domain: String
        let verdict: String
        let rules: Set<String>
        /// The rules of its warnings and errors.
        let seriousRules: Set<String>
        /// Their messages (a failing check prints them: a timeout says in which phase it ran out).
        let seriousMessages: [String]
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let domainCount = 2000
    /// Lines written before the resumable run is killed.
    static let killAfterLines = 400
    /// The audit's options (besides the trust and the input): the timeout must stay well above
    /// a served domain's time on a loaded 2-core machine running a debug build. It is the tool's
    /// default, 10 s: with 5 s, a CI run (three shards of 100 connections each, beside the
    /// other suites) once saw 16 of 2,000 domains time out in the same few seconds.
    static let auditOptions = ["--timeout", "10", "--concurrency", "100"]

    /// The polite run: its domains, `--max-per-address` and `--rate`.
    static let politeDomains = 300
    static let politeCap = 4
    static let politeRate = 40

    /// The manifest's domains, in scan order.
    let domains: [String]
    let expectations: [String: Expectation]
    /// mix.json's count per category.
    let categoryCounts: [String: Int]
    /// The killed run's wait status (128 + signal) and the complete lines it left.
    let killedStatus: Int32
    let linesAtKill: Int
    let resumedStatus: Int32
    let resumedStderr: String
    /// The --resume file after the resumed run.
    let resumed: [Report]
    let shardStatuses: [Int32]
    let shards: [[Report]]
    /// nginx's lines for the three shards' requests (no politeness options).
    let shardsLog: AccessLog
    /// A run of the first ``politeDomains`` with a politeness option.
    struct PoliteRun: Sendable {
        let status: Int32
        let stderr: String
        let reports: [Report]
        /// nginx's lines for its requests.
        let log: AccessLog
    }
    /// With `--max-per-address`.
    let capped: PoliteRun
    /// With `--rate`.
    let paced: PoliteRun

    /// `aasa audit summarize --format html` of the resumed run's file, loaded in headless
    /// Chromium; nil where Chromium is not installed.
    let page: PageLoad?

    struct PageLoad: Sendable {
        let summarizeStatus: Int32
        let summarizeStderr: String
        /// The page's size in bytes.
        let bytes: Int
        /// Distinct signers (by fingerprint) of the records.
        let signers: Int
        let load: HeadlessChromium.Load
        /// The page filtered to the legacy domains (the signed files), the first one's detail open.
        let legacy: HeadlessChromium.Load
        let firstLegacy: String?
    }

    /// The run, made once for all tests (or why it could not be).
    static let shared: Result<WANSimulationRun, Failure> = {
        do {
            return .success(try WANSimulationRun())
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(description: "the WAN simulation's output cannot be read: \(error)"))
        }
    }()

    /// The driver: runs in the client namespace as `sh -c DRIVER sh OUT AASA OPTION...`.
    static let driver = #"""
        set -u
        out="$1"; aasa="$2"; shift 2
        cp "$WAN_SIM_MANIFEST" "$WAN_SIM_MIX" "$out/"
        scan() { "$aasa" audit --domains-file "$WAN_SIM_DOMAINS" --ca-file "$WAN_SIM_CA_FILE" --no-system-roots --no-progress "$@"; }
        "$aasa" audit --domains-file "$WAN_SIM_DOMAINS" --ca-file "$WAN_SIM_CA_FILE" --no-system-roots --no-progress \
            "$@" --resume "$out/resumed.jsonl" 2>/dev/null &
        pid=$!
        while kill -0 "$pid" 2>/dev/null; do
            [ "$(cat "$out/resumed.jsonl" 2>/dev/null | wc -l)" -ge "$KILL_AFTER" ] && break
            sleep 0.02
        done
        kill -KILL "$pid"
        wait "$pid"; echo $? > "$out/killed.status"
        wc -l < "$out/resumed.jsonl" > "$out/killed.lines"
        scan "$@" --resume "$out/resumed.jsonl" 2> "$out/resumed.err"; echo $? > "$out/resumed.status"
        log="$WAN_SIM_DIR/access.log"
        before=$(wc -l < "$log")
        for k in 1 2 3; do
            (scan "$@" --shard "$k/3" --format jsonl > "$out/shard-$k.jsonl" 2> "$out/shard-$k.err"; echo $? > "$out/shard-$k.status") &
        done
        wait
        after=$(wc -l < "$log")
        sed -n "$((before + 1)),${after}p" "$log" > "$out/shards-access.log"
        head -n "$POLITE_DOMAINS" "$WAN_SIM_DOMAINS" > "$out/polite-domains.txt"
        polite() {
            name="$1"; shift
            start=$(wc -l < "$log")
            "$aasa" audit --domains-file "$out/polite-domains.txt" --ca-file "$WAN_SIM_CA_FILE" --no-system-roots \
                --no-progress --format jsonl "$@" > "$out/$name.jsonl" 2> "$out/$name.err"
            echo $? > "$out/$name.status"
            sed -n "$((start + 1)),\$p" "$log" > "$out/$name-access.log"
        }
        polite capped "$@" --max-per-address "$POLITE_CAP"
        polite paced "$@" --rate "$POLITE_RATE"
        """#

    private init() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-wan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = Repository.root.appendingPathComponent("benchmarks/wan-sim.sh").path
        let result = TestProcess.run(
            "/usr/bin/env",
            [
                "KILL_AFTER=\(Self.killAfterLines)", "POLITE_DOMAINS=\(Self.politeDomains)",
                "POLITE_CAP=\(Self.politeCap)", "POLITE_RATE=\(Self.politeRate)", script, "--domains",
                String(Self.domainCount), "--rtt-ms", "40",
                "--jitter-ms", "5", "--loss", "0", "--seed", "17", "--", "/bin/sh", "-c", Self.driver, "sh",
                directory.path, TestPaths.aasa.path,
            ] + Self.auditOptions, timeout: 600)
        guard result.status == 0 else {
            let why = result.status == 77 ? "the WAN simulation cannot run here" : "benchmarks/wan-sim.sh failed"
            throw Failure(description: "\(why) (status \(result.status)): \(result.stderr)")
        }
        func text(_ name: String) throws -> String {
            try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
        func number(_ name: String) throws -> Int32 {
            let value = try text(name).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let parsed = Int32(value) else { throw Failure(description: "\(name) holds \(value)") }
            return parsed
        }
        var domains: [String] = []
        var expectations: [String: Expectation] = [:]
        for line in try text("manifest.tsv").split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5 else { throw Failure(description: "manifest line \(line)") }
            domains.append(fields[0])
            expectations[fields[0]] = Expectation(
                category: fields[1], verdict: fields[3], rule: fields[4] == "-" ? nil : fields[4])
        }
        let mix = try JSONSerialization.jsonObject(with: Data(try text("mix.json").utf8)) as? [String: Any]
        let categories = mix?["categories"] as? [String: [String: Any]] ?? [:]
        self.domains = domains
        self.expectations = expectations
        categoryCounts = categories.compactMapValues { $0["count"] as? Int }
        killedStatus = try number("killed.status")
        linesAtKill = Int(try number("killed.lines"))
        resumedStatus = try number("resumed.status")
        resumedStderr = try text("resumed.err")
        resumed = try Self.reports(directory.appendingPathComponent("resumed.jsonl"))
        shardStatuses = try (1...3).map { try number("shard-\($0).status") }
        shards = try (1...3).map { try Self.reports(directory.appendingPathComponent("shard-\($0).jsonl")) }
        shardsLog = try AccessLog(contentsOf: directory.appendingPathComponent("shards-access.log"))
        func politeRun(_ name: String) throws -> PoliteRun {
            PoliteRun(
                status: try number("\(name).status"), stderr: try text("\(name).err"),
                reports: try Self.reports(directory.appendingPathComponent("\(name).jsonl")),
                log: try AccessLog(contentsOf: directory.appendingPathComponent("\(name)-access.log")))
        }
        capped = try politeRun("capped")
        paced = try politeRun("paced")
        page = HeadlessChromium.isAvailable ? try Self.loadPage(directory.appendingPathComponent("resumed.jsonl")) : nil
    }

    /// The HTML report of `results`, its size and what Chromium made of it; a screenshot of it
    /// beside the build (its path in the log).
    static func loadPage(_ results: URL) throws -> PageLoad {
        let summary = TestProcess.aasa(["audit", "summarize", results.path, "--format", "html"])
        let page = results.deletingLastPathComponent().appendingPathComponent("report.html")
        try summary.stdout.write(to: page)
        var signers = Set<String>()
        var legacy: [String] = []
        for line in try Data(contentsOf: results).split(separator: 0x0A) {
            let record = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
            if record?["verdict"] as? String == "legacy", let domain = record?["domain"] as? String {
                legacy.append(domain)
            }
            let signature = (record?["file"] as? [String: Any])?["signature"] as? [String: Any]
            if let fingerprint = (signature?["signer"] as? [String: Any])?["sha256Fingerprint"] as? String {
                signers.insert(fingerprint)
            }
        }
        let screenshot = Repository.root.appendingPathComponent(".build/fleet-report-wan-screenshot.png")
        _ = try HeadlessChromium.screenshot(page, to: screenshot)
        print("fleet report of the WAN simulation: \(summary.stdout.count) bytes; screenshot: \(screenshot.path)")
        let first = legacy.min()
        let fragment =
            "verdict=legacy"
            + (first.map { "&open=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) } ?? "")
        return PageLoad(
            summarizeStatus: summary.status, summarizeStderr: summary.stderr, bytes: summary.stdout.count,
            signers: signers.count, load: try HeadlessChromium.dumpDOM(page),
            legacy: try HeadlessChromium.dumpDOM(page, fragment: fragment), firstLegacy: first)
    }

    /// The reports of a JSON Lines file; every line must be a whole report.
    static func reports(_ file: URL) throws -> [Report] {
        try Data(contentsOf: file).split(separator: 0x0A).map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let domain = object["domain"] as? String, let verdict = object["verdict"] as? String,
                let diagnostics = object["diagnostics"] as? [[String: Any]]
            else {
                throw Failure(
                    description: "\(file.lastPathComponent): not a report: \(String(decoding: line, as: UTF8.self))")
            }
            let serious = diagnostics.filter { ["warning", "error"].contains($0["severity"] as? String) }
            return Report(
                domain: domain, verdict: verdict, rules: Set(diagnostics.compactMap { $0["rule"] as? String }),
                seriousRules: Set(serious.compactMap { $0["rule"] as? String }),
                seriousMessages: serious.compactMap { $0["message"] as? String })
        }
    }

    /// Whether a report says what the mix dictates for its domain.
    func matches(_ report: Report) -> Bool {
        guard let expected = expectations[report.domain], report.verdict == expected.verdict else { return false }
        guard let rule = expected.rule else { return report.seriousRules.isEmpty }
        return report.rules.contains(rule)
    }
}
