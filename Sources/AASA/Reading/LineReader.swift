import Foundation

/// Reads a file (or standard input for `-`) line by line in fixed-size chunks, so that a list of
/// any length, or an access log, never sits in memory whole. Lines end at LF; a CR before it is
/// dropped. A line longer than ``maximumLineLength`` comes back cut off and flagged, instead of
/// growing the buffer without end.
///
/// Written by hand on `read(2)`: Foundation's `FileHandle` reads whole files or arbitrary
/// chunks, and no package mirrored here splits a stream into bounded lines.
///
/// ```swift
/// let reader = try LineReader(path: "domains.txt", maximumLineLength: 4_096, what: "domain list")
/// while let (line, truncated) = reader.next() { … }
/// if let error = reader.readError { … }  // the lines before it were returned
/// ```
public final class LineReader {
    private let descriptor: Int32
    private let closesDescriptor: Bool
    /// Bytes read and not yet returned start at `start`; no line end before `searched`.
    private var buffer: [UInt8] = []
    private var start = 0
    private var searched = 0
    private var atEnd = false
    private static let chunkSize = 64 * 1024
    /// Why reading stopped early (an I/O error, EISDIR for a directory given as `-`), in the
    /// system's words: the lines before it were returned; the caller reports this.
    public private(set) var readError: String?
    /// Lines longer than this many bytes are cut off and flagged.
    public let maximumLineLength: Int

    /// Opens `path` (`-` for standard input). `what` names the file in the error thrown when it
    /// cannot be opened ("URL list", "domain list").
    /// - Throws: ``AASAError`` `.unreadableFile` for a directory or a file that cannot be opened.
    public init(path: String, maximumLineLength: Int = 64 * 1024, what: String = "URL list") throws(AASAError) {
        self.maximumLineLength = maximumLineLength
        if path == "-" {
            descriptor = STDIN_FILENO
            closesDescriptor = false
            return
        }
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            throw AASAError(.unreadableFile, "cannot read \(what): it is a directory")
        }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            throw AASAError(.unreadableFile, "cannot read \(what): \(String(cString: strerror(errno)))")
        }
        descriptor = opened
        closesDescriptor = true
    }

    /// Reads from `descriptor` where it stands; the caller keeps it open and closes it.
    public init(descriptor: Int32, maximumLineLength: Int = 64 * 1024) {
        self.maximumLineLength = maximumLineLength
        self.descriptor = descriptor
        closesDescriptor = false
    }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    /// The next line (without its line end), or nil at the end of the input.
    public func next() -> (line: String, truncated: Bool)? {
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
            let count = readChunk()
            if count == 0 {
                atEnd = true
            } else if buffer.count > maximumLineLength * 2, nextLineEnd() == nil {
                // An over-long line: keep its start, drop the middle until its end arrives.
                buffer.removeSubrange((maximumLineLength + 1)...)
                searched = buffer.count
            }
        }
    }

    /// Appends up to one chunk to `buffer`; the number of bytes read, 0 at the end or on an
    /// error (kept in ``readError``).
    private func readChunk() -> Int {
        let old = buffer.count
        buffer.reserveCapacity(old + Self.chunkSize)
        var count = 0
        buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
        while true {
            count = buffer.withUnsafeMutableBytes { bytes in
                read(descriptor, bytes.baseAddress! + old, Self.chunkSize)
            }
            if count >= 0 || errno != EINTR { break }
        }
        if count < 0 {
            readError = String(cString: strerror(errno))
            count = 0
        }
        buffer.removeSubrange((old + count)...)
        return count
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
