import AASA
import Foundation
import Testing

/// The library's chunked line reader (issue #26): lines across chunk boundaries, CRLF, a last
/// line without its end, the length limit at its exact boundary, and the errors it gives.
struct LineReaderTests {
    private func lines(of text: String, maximum: Int = 64 * 1024) throws -> [(String, Bool)] {
        try withScratchDirectory { scratch in
            let path = try scratch.write(Data(text.utf8), to: "lines.txt")
            let reader = try LineReader(path: path, maximumLineLength: maximum)
            var lines: [(String, Bool)] = []
            while let next = reader.next() { lines.append(next) }
            #expect(reader.readError == nil)
            return lines
        }
    }

    @Test("LF and CRLF ends, blank lines and a last line without its end")
    func lineEnds() throws {
        let read = try lines(of: "one\r\ntwo\n\nthree")
        #expect(read.map(\.0) == ["one", "two", "", "three"])
        #expect(read.allSatisfy { !$0.1 })
        #expect(try lines(of: "").isEmpty)
        #expect(try lines(of: "\n").map(\.0) == [""])
    }

    @Test("200,000 lines read through many 64 KiB chunks come back whole and in order")
    func manyChunks() throws {
        let expected = (0..<200_000).map { "line-\($0)" }
        let read = try lines(of: expected.joined(separator: "\n") + "\n")
        #expect(read.count == expected.count)
        #expect(read.map(\.0) == expected)
    }

    @Test("A line of exactly the limit is whole; one byte more is cut at the limit and flagged")
    func limitBoundary() throws {
        let limit = 100
        let exact = String(repeating: "a", count: limit)
        let over = String(repeating: "b", count: limit + 1)
        let huge = String(repeating: "c", count: 300_000)
        let read = try lines(of: "\(exact)\n\(over)\n\(huge)\nafter\n", maximum: limit)
        #expect(read.count == 4)
        #expect(read[0] == (exact, false))
        #expect(read[1] == (String(repeating: "b", count: limit), true))
        #expect(read[2] == (String(repeating: "c", count: limit), true))
        #expect(read[3] == ("after", false))
    }

    @Test("A directory and a missing file are refused with the file's role and the system's reason")
    func unreadable() throws {
        try withScratchDirectory { scratch in
            do throws(AASAError) {
                _ = try LineReader(path: scratch.url.path, what: "domain list")
                Issue.record("a directory was opened")
            } catch {
                #expect(error.code == .unreadableFile)
                #expect(error.message == "cannot read domain list: it is a directory")
            }
            do throws(AASAError) {
                _ = try LineReader(path: scratch.file("missing").path, what: "domain list")
                Issue.record("a missing file was opened")
            } catch {
                #expect(error.message == "cannot read domain list: No such file or directory")
            }
        }
    }

    @Test("A descriptor that fails to read ends the lines and keeps the system's reason")
    func readError() throws {
        try withScratchDirectory { scratch in
            // A directory opened for reading: read(2) fails with EISDIR, as `- < DIR` does.
            let descriptor = open(scratch.url.path, O_RDONLY)
            #expect(descriptor >= 0)
            defer { close(descriptor) }
            let reader = LineReader(descriptor: descriptor)
            #expect(reader.next() == nil)
            #expect(reader.readError == "Is a directory")
        }
    }
}
