import AASATestSupport
import Foundation
import Testing

/// Every relative link and image of README.md and docs/*.md leads somewhere: the file exists,
/// and a `#fragment` into a Markdown page names one of its headings (GitHub's anchors: lower
/// case, punctuation but `-` dropped, spaces as `-`, a repeated heading numbered) or an explicit
/// `<a id>`. Links inside code blocks are not links; addresses with a scheme are not followed.
@Suite struct DocsLinkTests {
    static let pages: [URL] = {
        let docs = Repository.root.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return [Repository.root.appendingPathComponent("README.md")]
            + names.filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
    }()

    /// `text` without its fenced code blocks.
    static func prose(_ text: String) -> String {
        var kept: [Substring] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if !inFence { kept.append(line) }
        }
        return kept.joined(separator: "\n")
    }

    /// GitHub's anchor of a heading's text.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == " " || $0 == "_"
            }.map { $0 == " " ? "-" : Character($0) })
    }

    static func anchors(of page: URL) throws -> Set<String> {
        let text = prose(try String(contentsOf: page, encoding: .utf8))
        var anchors = Set<String>()
        var seen: [String: Int] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("#") {
            let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let base = anchor(heading)
            if let count = seen[base] {
                seen[base] = count + 1
                anchors.insert("\(base)-\(count + 1)")
            } else {
                seen[base] = 0
                anchors.insert(base)
            }
        }
        let explicit = try NSRegularExpression(pattern: #"<a (?:id|name)="([^"]+)""#)
        for match in explicit.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            if let range = Range(match.range(at: 1), in: text) { anchors.insert(String(text[range])) }
        }
        return anchors
    }

    @Test("every relative link and image of README.md and docs/ resolves, fragments included")
    func relativeLinksResolve() throws {
        #expect(Self.pages.count >= 15, "the pages were found: \(Self.pages.count)")
        let link = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        var checked = 0
        var broken: [String] = []
        for page in Self.pages {
            let text = Self.prose(try String(contentsOf: page, encoding: .utf8))
            for match in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                let target = String(text[range])
                if target.range(of: #"^[a-z]+:"#, options: .regularExpression) != nil { continue }
                checked += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let file = path.isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(path)
                guard FileManager.default.fileExists(atPath: file.standardizedFileURL.path) else {
                    broken.append("\(page.lastPathComponent): \(target) (no such file)")
                    continue
                }
                if parts.count == 2, file.pathExtension == "md",
                    !(try Self.anchors(of: file.standardizedFileURL)).contains(String(parts[1]))
                {
                    broken.append("\(page.lastPathComponent): \(target) (no such heading)")
                }
            }
        }
        #expect(checked >= 100, "links checked: \(checked)")
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    @Test("the anchor of a heading is GitHub's")
    func anchorsAreGitHubs() {
        #expect(Self.anchor("Missing intermediates: `--fetch-issuers`") == "missing-intermediates---fetch-issuers")
        #expect(Self.anchor("convert, migrate, diff") == "convert-migrate-diff")
        #expect(Self.anchor("The report to hand on: `--format html`") == "the-report-to-hand-on---format-html")
    }
}
