import AASATestSupport
import Foundation
import Testing

/// The docs' other commands (issue #27): every ```sh block of README.md and docs/*.md is run
/// as printed in the examples directory (`docs/examples/setup.sh`) and must exit 0, or the
/// status its page states (`<!-- exits: N -->` on the line before the block), unless that
/// line says why it is not run here (`<!-- not run: REASON -->`: it contacts the domains it
/// names, installs a package system-wide, is a benchmark, …). docs/ci.md's commands are
/// run by ``CIRecipeTests`` in the repository layout that page describes.
@Suite("docs: shell blocks run, or say why not")
struct DocsShellBlockTests {
    /// One ```sh block: where it is, its text, and what the line before it says.
    struct Block {
        var page: String
        var line: Int
        var text: String
        /// `not run: …`'s reason.
        var notRun: String?
        /// `exits: N`.
        var status: Int32
    }

    static let languages: Set<String> = ["sh", "bash", "shell"]

    /// The blocks of `markdown`.
    static func blocks(page: String, markdown: String) -> [Block] {
        var blocks: [Block] = []
        var current: Block?
        var previous = ""
        for (index, line) in markdown.components(separatedBy: "\n").enumerated() {
            if var block = current {
                if line.hasPrefix("```") {
                    blocks.append(block)
                    current = nil
                } else {
                    block.text += line + "\n"
                    current = block
                }
            } else if line.hasPrefix("```"), languages.contains(String(line.dropFirst(3))) {
                var block = Block(page: page, line: index + 1, text: "", notRun: nil, status: 0)
                let note = previous.trimmingCharacters(in: .whitespaces)
                if note.hasPrefix("<!-- not run: "), note.hasSuffix(" -->") {
                    block.notRun = String(note.dropFirst("<!-- not run: ".count).dropLast(" -->".count))
                } else if note.hasPrefix("<!-- exits: "), note.hasSuffix(" -->"),
                    let status = Int32(note.dropFirst("<!-- exits: ".count).prefix { $0.isNumber })
                {
                    block.status = status
                }
                current = block
            }
            if !line.trimmingCharacters(in: .whitespaces).isEmpty { previous = line }
        }
        return blocks
    }

    static var pages: [String] {
        let docs = Repository.root.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") && $0 != "ci.md" }.sorted().map { "docs/" + $0 }
    }

    static func allBlocks() throws -> [Block] {
        try pages.flatMap { page in
            blocks(
                page: page,
                markdown: try String(contentsOf: Repository.root.appendingPathComponent(page), encoding: .utf8))
        }
    }

    @Test("every shell block is run or says why not, with a reason")
    func everyBlockIsAccountedFor() throws {
        let blocks = try Self.allBlocks()
        #expect(blocks.count >= 20, "\(blocks.count) shell blocks")
        for block in blocks where block.notRun != nil {
            #expect(block.notRun!.count >= 10, "\(block.page):\(block.line): a reason in words")
        }
        #expect(blocks.contains { $0.notRun == nil }, "no shell block is run")
    }

    @Test("the shell blocks that run exit as their pages say")
    func blocksRunAsPrinted() throws {
        let run = try Self.allBlocks().filter { $0.notRun == nil }
        try #require(!run.isEmpty)
        try DocsExamplesDirectory.with { directory, environment in
            for block in run {
                let result = ProcessRunner.run(
                    URL(fileURLWithPath: "/bin/bash"), ["-e", "-c", block.text], environment: environment,
                    in: directory)
                #expect(result.status == block.status, "\(block.page):\(block.line):\n\(block.text)\(result)")
            }
        }
    }
}
