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
        // POSIX calls, not FileHandle: a batch reads thousands of small files. A file named
        // by the user is opened as named: a FIFO blocks until a writer comes (`<(…)`).
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CLIFailure(path, "cannot read \(what): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let expected = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 64 * 1024
        return try readAll(fd, path: path, what: what, expected: expected, limit: limit, tooLarge: tooLarge)
    }

    /// Reads `name` in `directory`, a file that a directory walk found (`path` names it in
    /// messages), and what `fstat` says of it.
    ///
    /// It is opened with `O_NOFOLLOW | O_NONBLOCK` relative to the directory's descriptor: a
    /// name that another user has turned into a symbolic link since the walk is refused, not
    /// followed, and a FIFO put in the file's place cannot block the batch (issue #24). What
    /// is not a regular file once opened is refused with one line; `O_NONBLOCK` is cleared
    /// before the file is read, except on Linux, where it does not apply to regular files.
    static func read(
        _ name: String, in directory: DirectoryHandle, path: String, limit: Int = defaultLimit,
        limitFlag: String? = nil
    ) throws -> (data: Data, info: stat) {
        let what = "input"
        let fd = openat(directory.descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let error = errno
            if error == ELOOP, let now = directory.entry(name), (now.st_mode & S_IFMT) == S_IFLNK {
                throw TreeChange(path: path, change: TreeChange.symbolicLink).failure(for: path, "not read")
            }
            throw CLIFailure(path, "cannot read \(what): \(String(cString: strerror(error)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw CLIFailure(path, "cannot read \(what): \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw CLIFailure(path, "cannot read \(what): it is \(FileType.describe(info.st_mode)), not a regular file")
        }
        #if !os(Linux)
            let flags = fcntl(fd, F_GETFL)
            guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
                throw CLIFailure(path, "cannot read \(what): \(String(cString: strerror(errno)))")
            }
        #endif
        // On Linux, O_NONBLOCK "has no effect for regular files and block devices" (open(2)), so
        // it is left set: clearing it cost two system calls per file.
        let tooLarge = "larger than the \(describe(limit)) limit" + (limitFlag.map { " (\($0))" } ?? "")
        if Int(info.st_size) > limit { throw CLIFailure(path, "\(what) is \(info.st_size) bytes, \(tooLarge)") }
        let data = try readAll(
            fd, path: path, what: what, expected: Int(info.st_size), limit: limit, tooLarge: tooLarge)
        return (data, info)
    }

    /// Reads `fd` to its end, refusing more than `limit` bytes; `expected` is the size to
    /// start with.
    private static func readAll(_ fd: Int32, path: String, what: String, expected: Int, limit: Int, tooLarge: String)
        throws -> Data
    {
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
