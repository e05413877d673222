import Foundation

/// Reads a whole input file, or standard input for "-", with a size limit.
enum InputFile {
    /// Inputs larger than this are refused before being read (AASA files are at most 128 KB).
    static let defaultLimit = 16 * 1024 * 1024

    static func read(_ path: String, what: String = "input", limit: Int = defaultLimit) throws -> Data {
        if path == "-" {
            let data = FileHandle.standardInput.readData(ofLength: limit + 1)
            guard data.count <= limit else {
                throw CLIFailure(path, "\(what) is larger than the \(limit / 1024 / 1024) MiB limit")
            }
            return data
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CLIFailure(path, "cannot read \(what): \(String(cString: strerror(errno)))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw CLIFailure(path, "cannot read \(what): it is a directory") }
        if (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) > limit {
            throw CLIFailure(path, "\(what) is \(info.st_size) bytes, larger than the \(limit / 1024 / 1024) MiB limit")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIFailure(path, "cannot read \(what): \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else {
                throw CLIFailure(path, "\(what) is larger than the \(limit / 1024 / 1024) MiB limit")
            }
            return data
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure(path, "cannot read \(what): \(error.localizedDescription)")
        }
    }
}
