import Foundation

/// Reads a file (or standard input for "-") line by line in fixed-size chunks, so a large
/// access log never sits in memory whole. Lines end at LF; a CR before it is dropped.
final class LineReader {
    private let handle: FileHandle
    private let closesHandle: Bool
    /// Bytes read and not yet returned start at `start`; no line end before `searched`.
    private var buffer: [UInt8] = []
    private var start = 0
    private var searched = 0
    private var atEnd = false
    /// Why reading stopped early (an I/O error, EISDIR for a directory given as "-"): the
    /// lines before it were returned; the caller reports this.
    private(set) var readError: String?
    private let chunkSize = 64 * 1024
    /// Lines longer than this are cut off and flagged, instead of growing the buffer without end.
    let maximumLineLength: Int

    /// `what` names the file in the error thrown when it cannot be opened ("URL list").
    init(path: String, maximumLineLength: Int = 64 * 1024, what: String = "URL list") throws {
        self.maximumLineLength = maximumLineLength
        if path == "-" {
            handle = FileHandle.standardInput
            closesHandle = false
        } else {
            var info = stat()
            if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
                throw CLIFailure(path, "cannot read \(what): it is a directory")
            }
            guard let opened = FileHandle(forReadingAtPath: path) else {
                throw CLIFailure(path, "cannot read \(what): \(String(cString: strerror(errno)))")
            }
            handle = opened
            closesHandle = true
        }
    }

    /// Reads from `handle` where it stands, which the caller keeps open and closes.
    init(handle: FileHandle, maximumLineLength: Int = 64 * 1024) {
        self.maximumLineLength = maximumLineLength
        self.handle = handle
        closesHandle = false
    }

    deinit {
        if closesHandle { try? handle.close() }
    }

    /// The next line (without its line end), or nil at the end of the input.
    func next() -> (line: String, truncated: Bool)? {
        while true {
            if let newline = nextLineEnd() {
                let line = take(upTo: newline)
                start = newline + 1
                searched = start
                return line
            }
            searched = buffer.count
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = take(upTo: buffer.count)
                buffer.removeAll()
                start = 0
                searched = 0
                return line
            }
            // Keep only what is not returned yet, then read on (one read per chunk, not per line).
            if start > 0 {
                buffer.removeSubrange(0..<start)
                searched -= start
                start = 0
            }
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: chunkSize) ?? Data()
            } catch {
                readError = StandardStreams.describe(error)
                chunk = Data()
            }
            if chunk.isEmpty {
                atEnd = true
            } else {
                buffer.append(contentsOf: chunk)
                if buffer.count > maximumLineLength * 2, nextLineEnd() == nil {
                    // An over-long line: keep its start, drop the middle until its end arrives.
                    buffer.removeSubrange((maximumLineLength + 1)...)
                    searched = buffer.count
                }
            }
        }
    }

    /// The index of the next LF at or after `searched`.
    private func nextLineEnd() -> Int? {
        guard searched < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard let found = memchr(bytes.baseAddress! + searched, 0x0A, bytes.count - searched) else { return nil }
            return bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The line from `start` to `end` (a CR before the end dropped), cut at the maximum length.
    private func take(upTo end: Int) -> (line: String, truncated: Bool) {
        var last = end
        if last > start && buffer[last - 1] == 0x0D { last -= 1 }
        let count = last - start
        return (
            String(decoding: buffer[start..<(start + min(count, maximumLineLength))], as: UTF8.self),
            count > maximumLineLength
        )
    }
}
