import Foundation

/// Writes a command's output: to standard output for "-", otherwise atomically.
///
/// A file is written to a temporary file beside it, flushed to disk, then renamed over the
/// target: on any failure the target is untouched and no partial file is left behind.
enum OutputFile {
    static func write(_ data: Data, to path: String) throws {
        if path == "-" {
            do {
                try FileHandle.standardOutput.write(contentsOf: data)
            } catch {
                throw CLIFailure("<stdout>", "cannot write output: \(error.localizedDescription)")
            }
            return
        }
        var existing = stat()
        if stat(path, &existing) == 0 && (existing.st_mode & S_IFMT) != S_IFREG {
            // A device, FIFO or terminal (/dev/stdout, /dev/null, a pipe): write to it as it is.
            // Renaming a temporary file over it would replace the device node itself.
            try writeDirectly(data, to: path)
            return
        }
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var template = Array("\(directory)/.\(url.lastPathComponent).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CLIFailure(path, "cannot write output: \(String(cString: strerror(errno)))") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var committed = false
        defer {
            if !committed { unlink(temporary) }
        }
        // A replaced file keeps its permissions; a new one gets the usual 0666 less the umask.
        if stat(path, &existing) == 0 {
            fchmod(fd, existing.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
        }
        let written = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
        let writeError = errno
        guard written, fsync(fd) == 0 else {
            let reason = String(cString: strerror(written ? errno : writeError))
            close(fd)
            throw CLIFailure(path, "cannot write output: \(reason)")
        }
        guard close(fd) == 0 else { throw CLIFailure(path, "cannot write output: \(String(cString: strerror(errno)))") }
        guard rename(temporary, path) == 0 else {
            throw CLIFailure(path, "cannot write output: \(String(cString: strerror(errno)))")
        }
        committed = true
    }

    /// Writes to an existing non-regular file (device, FIFO) without the temporary-file dance.
    private static func writeDirectly(_ data: Data, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CLIFailure(path, "cannot write output: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw CLIFailure(path, "cannot write output: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
    }

    /// Refuses an output that is the same file as any input (it would be replaced): the
    /// content, but also a key, certificate or trust file.
    static func ensureDistinct(output: String, from inputs: [String?]) throws {
        guard output != "-" else { return }
        var target = stat()
        guard stat(output, &target) == 0 else { return }
        for case let input? in inputs where input != "-" {
            var source = stat()
            if stat(input, &source) == 0 && source.st_dev == target.st_dev && source.st_ino == target.st_ino {
                throw CLIFailure(output, "the output is the input file \(input); refusing to overwrite it", status: ExitStatus.usage)
            }
        }
    }
}
