import Foundation
import Testing

/// `aasa audit --shard K/N` and `--resume FILE` (issue #17) as a user runs them: the built
/// binary against nginx on 127.0.0.1 (any name below example.com answers, a 404 from the
/// default server). Hostile `--resume` files and usage errors need no server: every run still
/// sends its connections to 127.0.0.1 (`--resolve '*:*:127.0.0.1'`).
@Suite(.serialized)
struct AuditLargeScanTests {
    static let schema = Repository.root.appendingPathComponent("docs/schemas/audit.schema.json")
    /// Options that keep every connection on 127.0.0.1 and trust only the test root.
    static let local = [
        "--resolve", "*:*:127.0.0.1", "--ca-file", TestPaths.cert("ca-bundle.pem"), "--no-system-roots",
    ]

    /// `count` names below example.com on the server's port.
    func names(_ server: NginxServer, _ count: Int) -> [String] {
        (1...count).map { "d\($0).example.com:\(server.port)" }
    }

    /// Runs `body` with a fresh temporary directory, removed afterwards.
    func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    /// The domains of a `--resume` file's lines, in order; every line must be a JSON object.
    func reportedDomains(_ file: URL) throws -> [String] {
        let data = try Data(contentsOf: file)
        #expect(data.last == 0x0A, "the file ends with a whole line")
        return try data.split(separator: 0x0A).map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            return try #require(object["domain"] as? String)
        }
    }

    @Test(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
    func allShardsTogetherAuditEachDomainExactlyOnce() throws {
        try withNginx { server in
            try withDirectory { directory in
                let domains = names(server, 24)
                // Upper case and the default port written out: the same domains, the same shards.
                let written = domains.enumerated().map { $0.offset % 3 == 0 ? $0.element.uppercased() : $0.element }
                let list = directory.appendingPathComponent("domains.txt")
                try Data((written + ["not a domain"]).joined(separator: "\n").utf8).write(to: list)
                var seen: [String] = []
                for shard in 1...3 {
                    let result = TestProcess.aasa(
                        ["audit", "--domains-file", list.path, "--shard", "\(shard)/3", "--format", "json"]
                            + server.auditOptions)
                    // Every shard reports the entry that is not a domain (it has no shard): exit 2.
                    #expect(result.status == 2, "\(result)")
                    #expect(result.stderrLines.count == 1, "\(result)")
                    #expect(result.stderr.contains("domains.txt:25: error:"), "\(result)")
                    #expect(SchemaValidation.json(result.stdout, schema: Self.schema).valid, "\(result)")
                    let document = try result.jsonObject()
                    let reports = try #require(document["domains"] as? [[String: Any]])
                    let mine = reports.compactMap { $0["domain"] as? String }
                    #expect(mine.count == reports.count)
                    #expect(!mine.isEmpty, "shard \(shard) of 24 domains is empty")
                    let summary = try #require(document["summary"] as? [String: Any])
                    #expect(summary["otherShards"] as? Int == domains.count - mine.count, "\(summary)")
                    #expect(summary["invalidEntries"] as? Int == 1)
                    seen += mine
                }
                // The text summary counts them too.
                let text = TestProcess.aasa(["audit"] + written + ["--shard", "2/3"] + server.auditOptions)
                #expect(text.status == 1, "\(text)")
                let blocks = text.stdoutText.split(separator: "\n").filter { $0.hasSuffix(": broken") }.count
                #expect(blocks > 0 && blocks < domains.count)
                #expect(
                    text.stdoutText.contains("\(domains.count - blocks) domains were left to other shards (--shard)"),
                    "\(text)")
                #expect(seen.count == domains.count, "no domain in two shards: \(seen.sorted())")
                #expect(Set(seen) == Set(domains))
            }
        }
    }

    @Test func invalidShardsAndResumeUsesAreUsageErrors() throws {
        let runs: [[String]] = [
            ["--shard", "0/3"], ["--shard", "4/3"], ["--shard", "1/0"], ["--shard", "three"], ["--shard", "1/2/3"],
            ["--resume", "-"], ["--resume", "out.jsonl", "--format", "json"],
            ["--shard-index", "3/3"], ["--shard-index", "-1/3"], ["--shard-index", "1/3", "--shard", "2/3"],
        ]
        #expect(runs.count == 10)
        for extra in runs {
            let result = TestProcess.aasa(["audit", "d1.example.com:1"] + extra + Self.local)
            #expect(result.status == 64, "\(extra): \(result)")
            #expect(result.stdout.isEmpty)
        }
        #expect(TestProcess.aasa(["audit", "a.example.com:1", "--shard", "5/3"] + Self.local).stderr.contains("5"))
        let both = TestProcess.aasa(
            ["audit", "a.example.com:1", "--shard-index", "1/3", "--shard", "2/3"] + Self.local)
        #expect(both.stderr.contains("--shard and --shard-index name the same shard two ways: give one"), "\(both)")
    }

    @Test("--exit-zero: findings at --fail-on leave the status 0 and the summary says so; input errors stay 2")
    func exitZero() throws {
        try withNginx { server in
            let domain = "d1.example.com:\(server.port)"  // broken: the test nginx has no file for it
            let plain = TestProcess.aasa(["audit", domain] + server.auditOptions)
            #expect(plain.status == 1, "\(plain)")
            #expect(plain.stdoutText.contains("1 domain has findings at or above error (exit status 1)"), "\(plain)")
            let zero = TestProcess.aasa(["audit", domain, "--exit-zero"] + server.auditOptions)
            #expect(zero.status == 0, "\(zero)")
            #expect(
                zero.stdoutText.contains("1 domain has findings at or above error (--exit-zero: exit status 0)"),
                "\(zero)")
            let bad = TestProcess.aasa(
                ["audit", "--domains-file", "-", "--exit-zero"] + server.auditOptions,
                stdin: Data("\(domain)\nnot a domain\n".utf8))
            #expect(bad.status == 2, "\(bad)")
        }
    }

    /// A 30-domain scan killed with SIGKILL once some lines are written, then resumed: every
    /// domain once in the file, the lines written before the kill kept byte for byte.
    @Test(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
    func scanKilledWithSIGKILLAndResumedReportsEveryDomainOnce() throws {
        try withNginx { server in
            try withDirectory { directory in
                var domains = names(server, 29)
                // The slow host (a timeout) keeps the run going while the first lines are written.
                domains.insert(server.domain(.slow), at: 9)
                #expect(domains.count == 30)
                let file = directory.appendingPathComponent("scan.jsonl")
                let arguments =
                    ["audit"] + domains + ["--resume", file.path, "--concurrency", "1", "--timeout", "3"]
                    + server.auditOptions
                let process = Process()
                process.executableURL = TestPaths.aasa
                process.arguments = arguments
                process.standardInput = FileHandle.nullDevice
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                let deadline = Date().addingTimeInterval(60)
                while process.isRunning && Date() < deadline {
                    if let data = try? Data(contentsOf: file), data.filter({ $0 == 0x0A }).count >= 5 { break }
                    usleep(1_000)
                }
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                try #require(
                    process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
                    "the run must end by SIGKILL, not finish first")
                let before = try Data(contentsOf: file)
                let written = try reportedDomains(file)
                try #require(written.count >= 5 && written.count < domains.count, "\(written)")

                let resumed = TestProcess.aasa(arguments)
                #expect(resumed.status == 1, "\(resumed)")  // the 404s are errors
                #expect(resumed.stdout.isEmpty, "\(resumed)")
                #expect(
                    resumed.stderr.contains(
                        "\(written.count) domains were already reported there; \(domains.count - written.count) appended"
                    ),
                    "\(resumed)")
                let after = try Data(contentsOf: file)
                #expect(after.starts(with: before), "the lines written before the kill are kept")
                let reported = try reportedDomains(file)
                #expect(reported.count == domains.count, "\(reported)")
                #expect(Set(reported) == Set(domains))
                let outcome = SchemaValidation.json(after, schema: Self.schema, lines: true)
                #expect(outcome.valid, "\(outcome)")

                // Resumed once more: nothing left to audit, nothing appended.
                let again = TestProcess.aasa(arguments)
                #expect(again.status == 0, "\(again)")
                #expect(try Data(contentsOf: file) == after)
            }
        }
    }

    /// A file whose last line was cut in the middle: the cut line is dropped and its domain
    /// audited again; a domain reported only `not-audited` is audited again too.
    @Test(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
    func cutLastLineIsDroppedAndNotAuditedDomainsAreAuditedAgain() throws {
        try withNginx { server in
            try withDirectory { directory in
                let domains = names(server, 4)
                let file = directory.appendingPathComponent("scan.jsonl")
                let first = TestProcess.aasa(
                    ["audit"] + domains + ["--resume", file.path, "--concurrency", "1"] + server.auditOptions)
                #expect(first.status == 1, "\(first)")
                let whole = try Data(contentsOf: file)
                let lines = whole.split(separator: 0x0A).map { Data($0) + Data([0x0A]) }
                try #require(lines.count == 4)
                // Line 1 kept, line 2 marked not-audited, line 3 cut in its middle, line 4 gone.
                let notAudited = String(decoding: lines[1], as: UTF8.self)
                    .replacingOccurrences(of: #""verdict":"broken""#, with: #""verdict":"not-audited""#)
                #expect(notAudited.contains("not-audited"))
                let kept = lines[0] + Data(notAudited.utf8)
                try (kept + lines[2].prefix(lines[2].count / 2)).write(to: file)

                // domains[3] listed twice: audited once.
                let resumed = TestProcess.aasa(
                    ["audit"] + domains + [domains[3], "--resume", file.path] + server.auditOptions)
                #expect(resumed.status == 1, "\(resumed)")
                #expect(resumed.stderr.contains("2 domains were already reported there; 3 appended"), "\(resumed)")
                #expect(resumed.stderr.contains("a last line cut short"), "\(resumed)")
                let after = try Data(contentsOf: file)
                #expect(after.starts(with: kept))
                let reported = try reportedDomains(file)
                #expect(reported.count == 5, "\(reported)")
                #expect(Set(reported) == Set(domains))
                // The not-audited domain: its old line, then its new report.
                #expect(reported.filter { $0 == domains[1] }.count == 2)
                #expect(SchemaValidation.json(after, schema: Self.schema, lines: true).valid)
            }
        }
    }

    /// A domain list that can be read once (a pipe, `--domains-file <(…)`): with the progress
    /// bar on, its total is not counted by reading it first (which would consume the list and
    /// audit nothing); every domain is audited, the bar without a total.
    @Test("--domains-file FIFO with --progress: the list is read once and every domain audited")
    func aPipedListIsReadOnce() throws {
        try withDirectory { directory in
            let fifo = directory.appendingPathComponent("domains")
            try #require(mkfifo(fifo.path, 0o600) == 0)
            let domains = ["d1.example.com:1", "d2.example.com:1", "d3.example.com:1"]
            #expect(domains.count == 3)
            let writer = Thread {
                // Blocks until the audit opens the pipe for reading; one pass, then EOF.
                guard let handle = FileHandle(forWritingAtPath: fifo.path) else { return }
                handle.write(Data((domains.joined(separator: "\n") + "\n").utf8))
                try? handle.close()
            }
            writer.start()
            let result = TestProcess.aasa(
                ["audit", "--domains-file", fifo.path, "--progress", "--format", "jsonl"] + Self.local)
            let reported = result.stdoutText.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["domain"] as? String
            }
            #expect(reported.sorted() == domains, "\(result)")  // in the order they finish
        }
    }

    /// A whole record as aasa 0.2.0 wrote it (keys sorted; no `settings`, which later versions
    /// add): what a resumed file of that version holds.
    static func recordOfVersion020(_ host: String, port: Int) -> String {
        let domain = port == 443 ? host : "\(host):\(port)"
        return #"{"aasaVersion":"0.2.0","cdn":null,"diagnostics":[],"domain":"\#(domain)","durationMs":1.5,"#
            + #""file":null,"host":"\#(host)","paths":[],"port":\#(port),"schemaVersion":1,"#
            + #""startedAt":"2026-11-23T00:00:00Z","tls":null,"verdict":"broken"}"# + "\n"
    }

    /// Issue #24, at the exact boundary: a run killed while writing its first bytes leaves a
    /// last line shorter than the prefix every line starts with (`{"aasaVersion":`). Each such
    /// cut, down to one byte, is the start of a line audit writes: dropped, its domain audited
    /// again; never refused as another tool's file. One byte more than the prefix, too.
    @Test func cutLastLineShorterThanThePrefixIsDropped() throws {
        try withDirectory { directory in
            let line =
                Self.recordOfVersion020("d2.example.com", port: 1)
            let prefix = #"{"aasaVersion":"#
            let lengths = [1, 2, prefix.utf8.count - 1, prefix.utf8.count, prefix.utf8.count + 1]
            #expect(lengths.count == 5)
            for length in lengths {
                let file = directory.appendingPathComponent("cut-\(length).jsonl")
                let cut = String(line.prefix(length))
                try Data((line + cut).utf8).write(to: file)
                let result = TestProcess.aasa(
                    ["audit", "d1.example.com:1", "d2.example.com:1", "--resume", file.path] + Self.local)
                #expect(result.status == 1, "cut at \(length): \(result)")
                #expect(
                    result.stderr.contains("a last line cut short (\(length) bytes) was dropped"),
                    "cut at \(length): \(result)")
                let reported = try reportedDomains(file)
                #expect(reported == ["d2.example.com:1", "d1.example.com:1"], "cut at \(length)")
            }
        }
    }

    /// A `--resume` file that is not audit's JSON lines: one error line, exit 2, the file as it
    /// was, nothing audited.
    @Test func hostileResumeFilesAreRefusedAndKept() throws {
        try withDirectory { directory in
            let cases: [(name: String, content: String, line: Int)] = [
                ("other-tool", "{\"path\":\"a.json\",\"kind\":\"json\"}\n", 1),
                ("not-json", "hello world\n", 1),
                (
                    "cut-foreign",
                    Self.recordOfVersion020("a.example.com", port: 443) + "hello",
                    2
                ),
                (
                    "bad-domain",
                    "{\"aasaVersion\":\"0.2.0\",\"domain\":\"A B\",\"diagnostics\":[],\"schemaVersion\":1,\"verdict\":\"broken\"}\n",
                    1
                ),
                ("escape", "\u{1B}[2Jgotcha\n", 1),
                (
                    "no-diagnostics",
                    "{\"aasaVersion\":\"0.2.0\",\"domain\":\"a.example.com\",\"schemaVersion\":1,\"verdict\":\"broken\"}\n",
                    1
                ),
            ]
            #expect(cases.count == 6)
            for (name, content, line) in cases {
                let file = directory.appendingPathComponent("\(name).jsonl")
                try Data(content.utf8).write(to: file)
                let result = TestProcess.aasa(["audit", "d1.example.com:1", "--resume", file.path] + Self.local)
                #expect(result.status == 2, "\(name): \(result)")
                #expect(result.stderrLines.count == 1, "\(name): \(result)")
                #expect(result.stderr.hasPrefix("\(file.path):\(line): error: not a line of"), "\(name): \(result)")
                #expect(!result.stderr.contains("\u{1B}"))
                #expect(try String(decoding: Data(contentsOf: file), as: UTF8.self) == content, "\(name)")
            }
            // A file another run holds (its lock): refused, untouched.
            let held = directory.appendingPathComponent("held.jsonl")
            try Data().write(to: held)
            let fd = open(held.path, O_RDWR)
            try #require(fd >= 0 && flock(fd, LOCK_EX) == 0)
            let locked = TestProcess.aasa(["audit", "d1.example.com:1", "--resume", held.path] + Self.local)
            close(fd)
            #expect(locked.status == 2, "\(locked)")
            #expect(locked.stderr == "\(held.path): error: cannot lock the --resume file: another run is using it\n")
            #expect(try Data(contentsOf: held).isEmpty)
            let result = TestProcess.aasa(["audit", "d1.example.com:1", "--resume", directory.path] + Self.local)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("error: cannot open the --resume file: Is a directory"), "\(result)")
        }
    }
}
