import Foundation

/// Reads a file (or standard input for "-") line by line in fixed-size chunks, so a large
/// access log never sits in memory whole. Lines end at LF; a CR before it is dropped.
final class LineReader {
    private let handle: FileHandle
    private let closesHandle: Bool
    private var buffer = Data()
    private var atEnd = false
    private let chunkSize = 64 * 1024
    /// Lines longer than this are cut off and flagged, instead of growing the buffer without end.
    let maximumLineLength: Int

    init(path: String, maximumLineLength: Int = 64 * 1024) throws {
        self.maximumLineLength = maximumLineLength
        if path == "-" {
            handle = FileHandle.standardInput
            closesHandle = false
        } else {
            var info = stat()
            if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
                throw CLIFailure(path, "cannot read URL list: it is a directory")
            }
            guard let opened = FileHandle(forReadingAtPath: path) else {
                throw CLIFailure(path, "cannot read URL list: \(String(cString: strerror(errno)))")
            }
            handle = opened
            closesHandle = true
        }
    }

    deinit {
        if closesHandle { try? handle.close() }
    }

    /// The next line (without its line end), or nil at the end of the input.
    func next() -> (line: String, truncated: Bool)? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                var line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                if line.last == 0x0D { line = line.dropLast() }
                let truncated = line.count > maximumLineLength
                return (String(decoding: line.prefix(maximumLineLength), as: UTF8.self), truncated)
            }
            if atEnd {
                guard !buffer.isEmpty else { return nil }
                var line = buffer
                buffer = Data()
                if line.last == 0x0D { line = line.dropLast() }
                return (String(decoding: line.prefix(maximumLineLength), as: UTF8.self), line.count > maximumLineLength)
            }
            let chunk = handle.readData(ofLength: chunkSize)
            if chunk.isEmpty {
                atEnd = true
            } else {
                buffer.append(chunk)
                if buffer.count > maximumLineLength * 2, buffer.firstIndex(of: 0x0A) == nil {
                    // An over-long line: keep its start, drop the middle until its end arrives.
                    buffer = buffer.prefix(maximumLineLength + 1)
                }
            }
        }
    }
}
