import AASATestSupport
import Foundation
import Testing

/// The docs run as written: every ```console block of the pages below is run, command by
/// command, in a directory made by `docs/examples/setup.sh` (what the pages tell a reader to
/// run first), with the `aasa` under test on PATH, and what each command prints (standard
/// output and standard error together, as a terminal shows them) is compared with the page
/// (``ConsoleTranscript/matches(_:_:)``: `…` stands for lines or text the page leaves out).
/// The blocks of a page share one directory and run in order, so a file one example writes is
/// there for the next; `$ echo $?` lines check exit statuses.
@Suite("docs: console examples run as printed")
struct DocsConsoleTests {
    /// The pages whose examples run. A page joins when its examples match the tool.
    static let pages = [
        "docs/verify-a-signed-file.md", "docs/convert-to-plain-json.md", "docs/exit-codes.md",
        "docs/configuration.md", "docs/json.md", "docs/signing-compatibility.md", "README.md", "docs/cli.md",
        "docs/convert-and-migrate.md",
    ]

    /// Pages with console examples that do not run as printed yet, each with what is left.
    /// ``everyPageIsRunOrListed`` keeps this list honest: a page is in one list or the other.
    /// Pages with console examples that do not run as printed yet, each with what is left
    /// (none today). ``everyPageIsRunOrListed`` keeps this list honest.
    static let pending: [String: String] = [:]

    @Test("every page with console examples is run, or listed as pending with what is left")
    func everyPageIsRunOrListed() throws {
        let docs = Repository.root.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
        var withExamples = Set<String>()
        for name in names + ["../README.md"] {
            let text = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
            if !ConsoleTranscript(markdown: text).blocks.isEmpty {
                withExamples.insert(name == "../README.md" ? "README.md" : "docs/" + name)
            }
        }
        #expect(withExamples.count >= 8, "\(withExamples.sorted())")
        #expect(withExamples == Set(Self.pages).union(Self.pending.keys), "\(withExamples.sorted())")
        #expect(Set(Self.pages).isDisjoint(with: Self.pending.keys))
    }

    /// One command that printed something else than its page shows.
    struct Mismatch: CustomStringConvertible {
        let page: String
        let step: ConsoleTranscript.Step
        let actual: [String]

        var description: String {
            "\(page):\(step.line): $ \(step.command)\n--- the page shows:\n"
                + step.expected.joined(separator: "\n") + "\n--- aasa printed:\n" + actual.joined(separator: "\n")
        }
    }

    /// Runs every console block of `page` (a path under the repository) and returns the
    /// commands that printed something else, with how many commands ran.
    static func run(page: String) throws -> (ran: Int, mismatches: [Mismatch]) {
        let markdown = try String(contentsOf: Repository.root.appendingPathComponent(page), encoding: .utf8)
        let transcript = ConsoleTranscript(markdown: markdown)
        return try DocsExamplesDirectory.with { directory, environment in
            var ran = 0
            var mismatches: [Mismatch] = []
            for block in transcript.blocks {
                let outputs = try runBlock(block, in: directory, environment: environment)
                for (step, actual) in zip(block, outputs) {
                    ran += 1
                    if !ConsoleTranscript.matches(step.expected, actual) {
                        mismatches.append(Mismatch(page: page, step: step, actual: actual))
                    }
                }
            }
            return (ran, mismatches)
        }
    }

    /// Runs the steps of one block in one shell (so `echo $?` sees the command before it) and
    /// returns each step's output lines.
    static func runBlock(_ block: [ConsoleTranscript.Step], in directory: URL, environment: [String: String]) throws
        -> [[String]]
    {
        let marker = "@@aasa-docs-step@@"
        var script = "exec 2>&1\n"
        // The marker keeps the status of the command before it, for a `$ echo $?` after it.
        for step in block {
            script += "__status=$?; printf '\\n\(marker)\\n'; (exit $__status)\n\(step.command)\n"
        }
        let result = ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", script], environment: environment, in: directory, timeout: 120)
        try #require(!result.timedOut && result.launched, "\(result)")
        var chunks = String(decoding: result.stdout, as: UTF8.self).components(separatedBy: "\n\(marker)\n")
        try #require(chunks.count == block.count + 1, "the block's steps did not all run: \(result)")
        chunks.removeFirst()
        return chunks.map { chunk in
            var lines = chunk.components(separatedBy: "\n")
            if lines.last == "" { lines.removeLast() }
            return lines
        }
    }

    @Test("every console example of the pages prints what its page shows", arguments: pages)
    func pageRunsAsPrinted(page: String) throws {
        let (ran, mismatches) = try Self.run(page: page)
        #expect(ran > 0, "\(page) has no console example")
        for mismatch in mismatches { Issue.record("\(mismatch)") }
        if ProcessInfo.processInfo.environment["AASA_DOCS_BLESS"] == "1", !mismatches.isEmpty {
            try Self.bless(page: page, mismatches)
        }
    }

    /// What bless writes for one command: the lines of `actual` that the page's lines match
    /// (the page's own line kept where it has a `…` in it), in order, and a `…` line for each
    /// run of other lines, so that the page's elisions survive.
    static func elided(page: [String], actual: [String]) -> [String] {
        let shown = page.filter { $0.trimmingCharacters(in: .whitespaces) != "…" }
        // Longest common subsequence of the page's shown lines and the actual lines.
        var table = Array(repeating: Array(repeating: 0, count: actual.count + 1), count: shown.count + 1)
        for i in stride(from: shown.count - 1, through: 0, by: -1) {
            for j in stride(from: actual.count - 1, through: 0, by: -1) {
                table[i][j] =
                    ConsoleTranscript.lineMatches(
                        ConsoleTranscript.trimmedEnd(shown[i]), ConsoleTranscript.trimmedEnd(actual[j]))
                    ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        guard table[0][0] > 0 else { return actual }
        var result: [String] = []
        var (i, j) = (0, 0)
        var skipping = false
        while j < actual.count {
            if i < shown.count,
                ConsoleTranscript.lineMatches(
                    ConsoleTranscript.trimmedEnd(shown[i]), ConsoleTranscript.trimmedEnd(actual[j])),
                table[i][j] == table[i + 1][j + 1] + 1
            {
                result.append(shown[i].contains("…") ? shown[i] : actual[j])
                (i, j, skipping) = (i + 1, j + 1, false)
            } else if i < shown.count && table[i + 1][j] >= table[i][j + 1] {
                i += 1
            } else {
                if !skipping { result.append(String(actual[j].prefix { $0 == " " }) + "…") }
                (j, skipping) = (j + 1, true)
            }
        }
        return result
    }

    /// For a person updating the docs (`AASA_DOCS_BLESS=1`, never in CI): writes what each
    /// mismatching command printed into the page in place of what the page showed, for review
    /// (put back the `…` of lines that change from run to run). The test still fails.
    static func bless(page: String, _ mismatches: [Mismatch]) throws {
        let url = Repository.root.appendingPathComponent(page)
        var lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        for mismatch in mismatches.sorted(by: { $0.step.line > $1.step.line }) {
            let first = mismatch.step.line - 1 + mismatch.step.command.components(separatedBy: "\n").count
            let indent = String(lines[mismatch.step.line - 1].prefix { $0 == " " })
            var end = first
            while end < lines.count
                && !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("$ ")
                && lines[end].trimmingCharacters(in: .whitespaces) != "```"
            {
                end += 1
            }
            let written = elided(page: mismatch.step.expected, actual: mismatch.actual).map { indent + $0 }
            lines.replaceSubrange(first..<end, with: written)
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
    }

    @Test("the matcher: … stands for lines and for text; anything else differs")
    func matcher() {
        #expect(ConsoleTranscript.matches(["a", "…", "d"], ["a", "b", "c", "d"]))
        #expect(ConsoleTranscript.matches(["a", "  …", "d"], ["a", "d"]))
        #expect(ConsoleTranscript.matches(["x: … (…)"], ["x: error (why)"]))
        #expect(ConsoleTranscript.matches(["a  "], ["a"]))
        #expect(!ConsoleTranscript.matches(["a", "b"], ["a", "c"]))
        #expect(!ConsoleTranscript.matches(["a"], ["a", "b"]))
        #expect(!ConsoleTranscript.matches(["x: … (…)"], ["x: error"]))
    }

    @Test("a page edited so that one example no longer matches fails, naming the line and both outputs")
    func aPlantedMismatchFails() throws {
        let markdown = "```console\n$ aasa --version\n0.0.0-not-this-version\n$ echo $?\n0\n```\n"
        let transcript = ConsoleTranscript(markdown: markdown)
        try #require(transcript.blocks.count == 1 && transcript.blocks[0].count == 2)
        try withTemporaryDirectory { directory in
            let outputs = try Self.runBlock(
                transcript.blocks[0], in: directory,
                environment: ["PATH": CLI.executable.deletingLastPathComponent().path + ":/usr/bin:/bin"])
            let version = transcript.blocks[0][0]
            #expect(!ConsoleTranscript.matches(version.expected, outputs[0]), "\(outputs)")
            #expect(ConsoleTranscript.matches(transcript.blocks[0][1].expected, outputs[1]), "\(outputs)")
            let mismatch = Mismatch(page: "planted.md", step: version, actual: outputs[0])
            #expect(
                mismatch.description.hasPrefix(
                    "planted.md:2: $ aasa --version\n--- the page shows:\n0.0.0-not-this-version\n--- aasa printed:\n"))
        }
    }
}
