import AASATestSupport
import Foundation
import Testing

/// The shape of `Sources/AASA`, checked from the sources themselves (issue #14): the folders
/// depend on each other one way only, and no source file grows into a god-file.
@Suite("Architecture")
struct ArchitectureTests {
    static let library = Repository.root.appendingPathComponent("Sources/AASA", isDirectory: true)

    /// Every Swift file of the library, by its top folder (`Crypto`, `Verification`, …).
    static func sourcesByFolder() throws -> [String: [URL]] {
        let enumerator = try #require(FileManager.default.enumerator(at: library, includingPropertiesForKeys: nil))
        var result: [String: [URL]] = [:]
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let relative = url.path.dropFirst(library.path.count + 1)
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

    /// Which folders each folder uses: a name declared in one folder and used in another.
    static func folderGraph() throws -> [String: Set<String>] {
        let folders = try sourcesByFolder()
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

    @Test("the library has its folders (the walk found the sources)")
    func foldersFound() throws {
        let folders = try Self.sourcesByFolder()
        #expect(folders.count >= 12, "\(folders.keys.sorted())")
        #expect(folders["Crypto"] != nil && folders["Verification"] != nil && folders["Detection"] != nil)
    }

    @Test("no folder of Sources/AASA depends on itself through others (no cycle)")
    func noFolderCycle() throws {
        let graph = try Self.folderGraph()
        #expect(graph["Verification"]?.contains("Crypto") == true, "the check sees a known dependency")
        // Depth-first search for a back edge; report the cycle's folders.
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
        #expect(cycles.isEmpty, "folder cycles: \(cycles.map { $0.joined(separator: " → ") })")
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
