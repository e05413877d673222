import AASA
import AASAAudit
import Foundation
import Testing

/// The fleet audit's domain list in the library (issue #26): names first, then the file's
/// lines; comments, blank lines, entries that are not domains, over-long lines, the shard and
/// the count, without the CLI.
struct DomainListTests {
    private func withList<T>(_ text: String, _ body: (String) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("domains-\(UUID().uuidString).txt")
            .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    private func entries(_ list: DomainList) -> [String] {
        var out: [String] = []
        while let entry = list.next() {
            switch entry {
            case .domain(let domain): out.append(domain.description)
            case .invalid(let origin, let message): out.append("invalid \(origin): \(message)")
            }
        }
        return out
    }

    @Test("Names, then the file's domains; comments and blank lines skipped; each bad line in its place")
    func readsInOrder() throws {
        let long = String(repeating: "a", count: DomainList.maximumLineLength + 1)
        try withList(
            "# fleet\nexample.org\n\n  shop.example.com:8443  # the shop\nnot a domain\n\(long)\nlast.example\n"
        ) {
            path in
            let list = try DomainList(names: ["first.example"], file: path)
            let read = entries(list)
            #expect(read.count == 6)
            #expect(read[0] == "first.example")
            #expect(read[1] == "example.org")
            #expect(read[2] == "shop.example.com:8443")
            #expect(read[3].hasPrefix("invalid \(path):5: "))
            #expect(read[4] == "invalid \(path):6: the line is too long to be a domain")
            #expect(read[5] == "last.example")
            #expect(DomainList.count(names: ["first.example"], file: path) == 6)
        }
    }

    @Test("A line of exactly the limit is read as a name; one byte more is refused as too long")
    func lineLimit() throws {
        let exact = String(repeating: "a", count: DomainList.maximumLineLength)
        try withList("\(exact)\n\(exact)b\n") { path in
            let read = entries(try DomainList(file: path))
            #expect(read.count == 2)
            // Read whole and judged as a name (a 4,096-character label is no domain), not cut.
            #expect(read[0].hasPrefix("invalid \(path):1: "), "\(read[0].prefix(80))")
            #expect(!read[0].hasSuffix("the line is too long to be a domain"))
            #expect(read[1] == "invalid \(path):2: the line is too long to be a domain")
        }
    }

    @Test("The shard admits its part of the list and counts the rest")
    func shard() throws {
        let names = (0..<200).map { "host\($0).example" }
        try withList(names.joined(separator: "\n")) { path in
            var seen = 0
            for index in 1...2 {
                let list = try DomainList(file: path)
                list.selection = DomainSelection(shard: try AuditShard(index: index, count: 2))
                let read = entries(list)
                seen += read.count
                #expect(list.selection.otherShards == 200 - read.count)
            }
            #expect(seen == 200)
        }
    }

    @Test("An unreadable list fails when opened, before any audit; standard input has no count")
    func unreadable() throws {
        #expect(throws: AASAError.self) { try DomainList(file: "/nonexistent/domains.txt") }
        #expect(DomainList.count(names: ["a.example"], file: "-") == nil)
        #expect(DomainList.count(names: ["a.example", "b.example"], file: nil) == 2)
    }
}
