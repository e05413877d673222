import AASATestSupport
import Foundation
import Testing

/// Issue #15, probe 4: `audit --concurrency 1000` under a limit of 1,024 open files reported
/// most domains `broken` ("Too many open files"). The soft limit is raised to the hard one at
/// start, and what is left caps the concurrency, with a note; no domain is blamed.
@Suite("Open-file limits")
struct DescriptorLimitTests {
    static func audit(limits: String, concurrency: Int) -> ProcessResult {
        // 127.0.0.1:443, where nothing listens here: each domain fails at once, locally.
        let script = "\(limits); exec \"$0\" \"$@\""
        return ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"),
            [
                "-c", script, CLI.executable.path, "audit", "a.example", "b.example", "--resolve", "*:*:127.0.0.1",
                "--concurrency", String(concurrency), "--timeout", "2", "--retries", "0", "--format", "jsonl",
            ])
    }

    @Test("a hard limit of 512: 112 domains at a time, said once; the domains are judged on what they did")
    func capped() throws {
        let result = Self.audit(limits: "ulimit -n 512", concurrency: 1_000)
        #expect(
            result.stderrLines.filter { $0.hasPrefix("audit: note: --concurrency 1000 needs more open files") }.count
                == 1,
            "\(result)")
        #expect(result.stderr.contains("auditing 112 domains at a time"), "\(result)")
        #expect(!result.stdoutText.contains("Too many open files"), "\(result)")
        #expect(try result.jsonLines().count == 2)
    }

    @Test("a soft limit under a high hard limit is raised: no cap, no note")
    func raised() throws {
        let result = Self.audit(limits: "ulimit -Hn 8192; ulimit -Sn 256", concurrency: 1_000)
        #expect(!result.stderr.contains("needs more open files"), "\(result)")
        #expect(try result.jsonLines().count == 2)
    }
}
