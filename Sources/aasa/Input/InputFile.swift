import Foundation

/// Reads a whole input file, or standard input for "-", with a size limit.
enum InputFile {
    /// Inputs larger than this are refused before being read (AASA files are at most 128 KB).
    static let defaultLimit = 16 * 1024 * 1024

    /// Reads `path` whole, refusing more than `limit` bytes. `limitFlag`, when the limit can be
    /// changed, is named in the message (`--max-input-size`).
    static func read(_ path: String, what: String = "input", limit: Int = defaultLimit, limitFlag: String? = nil) throws
        -> Data
    {
        let tooLarge = "larger than the \(describe(limit)) limit" + (limitFlag.map { " (\($0))" } ?? "")
        if path == "-" {
            let data: Data
            do {
                data = try FileHandle.standardInput.read(upToCount: limit + 1) ?? Data()
            } catch {
                throw CLIFailure(path, "cannot read \(what): \(StandardStreams.describe(error))")
            }
            guard data.count <= limit else { throw CLIFailure(path, "\(what) is \(tooLarge)") }
            return data
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CLIFailure(path, "cannot read \(what): \(String(cString: strerror(errno)))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw CLIFailure(path, "cannot read \(what): it is a directory") }
        if (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) > limit {
            throw CLIFailure(path, "\(what) is \(info.st_size) bytes, \(tooLarge)")
        }
        // POSIX calls, not FileHandle: a batch reads thousands of small files.
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CLIFailure(path, "cannot read \(what): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let expected = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 64 * 1024
        var data = Data(count: min(limit, expected) + 1)
        var filled = 0
        while true {
            if filled == data.count {
                guard data.count <= limit else { break }
                data.count = min(limit + 1, data.count * 2)
            }
            let room = data.count - filled
            let n = data.withUnsafeMutableBytes { readBytes(fd, $0.baseAddress! + filled, room) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIFailure(path, "cannot read \(what): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            filled += n
        }
        guard filled <= limit else { throw CLIFailure(path, "\(what) is \(tooLarge)") }
        data.count = filled
        return data
    }

    /// A size limit as said in messages: "16 MiB" when it is whole mebibytes, else "131072 bytes".
    static func describe(_ limit: Int) -> String {
        limit % (1024 * 1024) == 0 ? "\(limit / 1024 / 1024) MiB" : "\(limit) bytes"
    }
}

/// `read(2)` (the name `read` is taken inside ``InputFile``).
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
