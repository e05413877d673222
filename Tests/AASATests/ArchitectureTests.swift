import AASATestSupport
import Foundation
import Testing

/// The shape of the package's Swift targets, checked from the sources themselves (issues #14
/// and #26): in every target the folders depend on each other one way only, the CLI's folders
/// are floors (each uses only the floors below it), and no source file grows into a god-file.
@Suite("Architecture")
struct ArchitectureTests {
    /// The Swift targets whose folders are checked.
    static let targets = ["AASA", "AASAReports", "AASAAudit", "aasa"]

    static func directory(_ target: String) -> URL {
        Repository.root.appendingPathComponent("Sources/\(target)", isDirectory: true)
    }

    /// Every Swift file under `root`, by its top folder (`Crypto`, `Verification`, …). Files at
    /// the top of the target (its entry points and namespace) belong to no folder.
    static func sourcesByFolder(_ root: URL) throws -> [String: [URL]] {
        let enumerator = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var result: [String: [URL]] = [:]
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let relative = url.path.dropFirst(root.path.count + 1)
            guard let folder = relative.split(separator: "/").first, relative.contains("/") else { continue }
            result[String(folder), default: []].append(url)
        }
        return result
    }

    /// The names a file declares at the top level (types, type aliases, global functions and
    /// constants): those other folders can refer to.
    static func declarations(in text: String) throws -> [String] {
        let pattern = try NSRegularExpression(
            pattern:
                #"^(?:(?:public|internal|package|fileprivate|private|final|indirect)\s+)*(?:struct|enum|class|protocol|typealias|actor|func|let|var)\s+([A-Za-z_]\w*)"#,
            options: [.anchorsMatchLines])
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// The identifiers a file uses, comments left out.
    static func identifiers(in text: String) -> Set<String> {
        let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
        }.joined(separator: "\n")
        var words = Set<String>()
        var current = ""
        for character in code {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else if !current.isEmpty {
                words.insert(current)
                current = ""
            }
        }
        if !current.isEmpty { words.insert(current) }
        return words
    }

    /// Which folders each folder of the target at `root` uses: a name declared in one folder
    /// and used in another.
    static func folderGraph(_ root: URL) throws -> [String: Set<String>] {
        let folders = try sourcesByFolder(root)
        var declaredIn: [String: String] = [:]
        var texts: [String: [String]] = [:]
        for (folder, files) in folders {
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                texts[folder, default: []].append(text)
                for name in try declarations(in: text) where declaredIn[name] == nil { declaredIn[name] = folder }
            }
        }
        var graph: [String: Set<String>] = [:]
        for (folder, folderTexts) in texts {
            for text in folderTexts {
                for word in identifiers(in: text) {
                    if let other = declaredIn[word], other != folder { graph[folder, default: []].insert(other) }
                }
            }
        }
        return graph
    }

    /// Every cycle a depth-first search meets in `graph`, each as its folders in order.
    static func cycles(_ graph: [String: Set<String>]) -> [[String]] {
        var state: [String: Int] = [:]  // 1 on the stack, 2 done
        var stack: [String] = []
        var cycles: [[String]] = []
        func visit(_ folder: String) {
            state[folder] = 1
            stack.append(folder)
            for next in (graph[folder] ?? []).sorted() {
                if state[next] == 1, let start = stack.firstIndex(of: next) {
                    cycles.append(Array(stack[start...]) + [next])
                } else if state[next] == nil {
                    visit(next)
                }
            }
            stack.removeLast()
            state[folder] = 2
        }
        for folder in graph.keys.sorted() where state[folder] == nil { visit(folder) }
        return cycles
    }

    @Test("the library has its folders (the walk found the sources)")
    func foldersFound() throws {
        let folders = try Self.sourcesByFolder(Self.directory("AASA"))
        #expect(folders.count >= 12, "\(folders.keys.sorted())")
        #expect(folders["Crypto"] != nil && folders["Verification"] != nil && folders["Detection"] != nil)
        #expect(try Self.folderGraph(Self.directory("AASA"))["Verification"]?.contains("Crypto") == true)
    }

    @Test("no folder of a Swift target depends on itself through others (no cycle)", arguments: targets)
    func noFolderCycle(target: String) throws {
        let folders = try Self.sourcesByFolder(Self.directory(target))
        #expect(folders.count >= 2, "the check sees the target's folders: \(folders.keys.sorted())")
        let graph = try Self.folderGraph(Self.directory(target))
        let cycles = Self.cycles(graph)
        #expect(cycles.isEmpty, "folder cycles: \(cycles.map { $0.joined(separator: " → ") })")
    }

    @Test("a planted cycle is found: a name of folder B used in A and one of A used in B")
    func plantedCycleIsFound() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("arch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (folder, declared, used) in [("A", "First", "Second"), ("B", "Second", "Third"), ("C", "Third", "Nothing")]
        {
            let directory = root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try "struct \(declared) { let other: \(used)? = nil }\n".write(
                to: directory.appendingPathComponent("\(declared).swift"), atomically: true, encoding: .utf8)
        }
        #expect(Self.cycles(try Self.folderGraph(root)).isEmpty, "A → B → C is no cycle")
        try "struct Back { let first: First? = nil }\n".write(
            to: root.appendingPathComponent("C/Back.swift"), atomically: true, encoding: .utf8)
        #expect(Self.cycles(try Self.folderGraph(root)) == [["A", "B", "C", "A"]])
    }

    /// The CLI's folders from the ground up (issue #26): each uses only the floors below it.
    /// The files at the top of the target (`AASACommand`, the argument runs) are the roof: the
    /// subcommands are declared in `AASACommand`'s namespace.
    static let cliFloors = ["Support", "Output", "Input", "Options", "Batch", "Subcommands"]

    /// AASAAudit's layers from the ground up: what a report holds, connecting, the proxy
    /// tunnel, the fetch, the analysis; the issuer fetching uses none of them; the fleet audit
    /// (many domains through `Auditor`) is the top.
    static let auditFloors = ["Report", "Connecting", "Proxy", "Fetch", "Analysis", "Issuers", "Fleet"]

    @Test(
        "the folders of the CLI and the audit are floors: each uses only those below it",
        arguments: [("aasa", cliFloors), ("AASAAudit", auditFloors)])
    func floors(target: String, floors: [String]) throws {
        let graph = try Self.folderGraph(Self.directory(target))
        #expect(Set(try Self.sourcesByFolder(Self.directory(target)).keys) == Set(floors))
        var upward: [String] = []
        for (folder, uses) in graph {
            guard let level = floors.firstIndex(of: folder) else { continue }
            for other in uses where (floors.firstIndex(of: other) ?? .max) >= level {
                upward.append("\(folder) → \(other)")
            }
        }
        #expect(upward.isEmpty, "folders that use a floor at or above their own: \(upward.sorted())")
    }

    /// A file over this many lines holds more than one concept (issue #14 asks for about 450).
    static let maximumLines = 450

    @Test("no Swift or C source file of the package exceeds the line budget")
    func noGodFiles() throws {
        let sources = Repository.root.appendingPathComponent("Sources", isDirectory: true)
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var checked = 0
        var generated = 0
        var long: [String] = []
        for case let url as URL in enumerator where ["swift", "c", "h"].contains(url.pathExtension) {
            let text = try String(contentsOf: url, encoding: .utf8)
            // Generated data (mozilla_roots.c: certificates as const arrays) is one concept
            // however long; it says so on its first line and is checked by its generator.
            if text.hasPrefix("// GENERATED by ") {
                generated += 1
                continue
            }
            // As `wc -l` counts, plus a last line without its newline.
            let lines = text.utf8.count { $0 == UInt8(ascii: "\n") } + (text.isEmpty || text.hasSuffix("\n") ? 0 : 1)
            checked += 1
            if lines > Self.maximumLines { long.append("\(url.path.dropFirst(sources.path.count + 1)): \(lines)") }
        }
        #expect(checked >= 100, "only \(checked) sources found")
        #expect(generated == 1, "\(generated) generated sources (expected only Sources/CAASACrypto/mozilla_roots.c)")
        #expect(long.isEmpty, "files over \(Self.maximumLines) lines: \(long)")
    }

    /// Foundation calls that end the process with `try!` when the I/O fails, and `try!` itself
    /// (issue #15: `aasa inspect F > /dev/full` died with SIGILL). Sources use the throwing
    /// forms (`write(contentsOf:)`, `read(upToCount:)`, `seek(toOffset:)`, `close()`).
    static let trappingCalls = [
        "try!", ".readDataToEndOfFile()", ".readData(ofLength:", ".seek(toFileOffset:", ".seekToEndOfFile()",
        ".synchronizeFile()", ".closeFile()", ".standardOutput.write(Data", ".standardError.write(Data",
        ".standardOutput.write(data", ".standardError.write(data", "handle.write(Data", "handle?.write(Data",
    ]

    @Test("no source traps on I/O: no try!, no FileHandle call that traps when a read or write fails")
    func noTrappingIO() throws {
        let sources = Repository.root.appendingPathComponent("Sources", isDirectory: true)
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var checked = 0
        var found: [String] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            checked += 1
            let lines = try String(contentsOf: url, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                for call in Self.trappingCalls where code.contains(call) {
                    found.append("\(url.lastPathComponent):\(number + 1): \(call)")
                }
            }
        }
        #expect(checked >= 100)
        #expect(found.isEmpty, "trapping I/O: \(found)")
    }
}
