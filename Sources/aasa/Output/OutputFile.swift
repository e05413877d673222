import Foundation

/// The process's umask, read once: reading it means setting it, which is not safe while other
/// threads create files.
private let processUmask: mode_t = {
    let mask = umask(0)
    umask(mask)
    return mask
}()

/// Writes a command's output: to standard output for "-", otherwise atomically.
///
/// A file is written to a temporary file beside it, flushed to disk, then renamed over the
/// target: on any failure the target is untouched and no partial file is left behind, and an
/// interruption (SIGINT, SIGTERM, SIGHUP) removes the temporary before the process ends.
enum OutputFile {
    /// - Parameters:
    ///   - durable: flush the file to disk before renaming it (one `fsync` per file). A batch
    ///     passes false and calls ``flush(_:)`` once at the end instead: the rename still makes
    ///     each file appear whole or not at all.
    ///   - noClobber: never replace a file that exists (`--no-clobber`): the new file is linked
    ///     into place (`link` fails if the name exists, atomically), and an existing one is an
    ///     error for this output.
    static func write(_ data: Data, to requestedPath: String, durable: Bool = true, noClobber: Bool = false) throws {
        if requestedPath == "-" {
            do {
                try StandardStreams.writeOut(data)
            } catch {
                throw StandardStreams.outputFailure(error)  // ends the process for EPIPE
            }
            return
        }
        var present = stat()
        if noClobber && lstat(requestedPath, &present) == 0 { throw Self.exists(requestedPath) }
        // A symbolic link stays a link: its target is what gets replaced (issue #15: the link
        // was replaced by a regular file, and the signed target stayed as it was).
        let path = try resolvingSymbolicLink(requestedPath)
        var existing = stat()
        let exists = stat(path, &existing) == 0
        if exists && (existing.st_mode & S_IFMT) != S_IFREG {
            // A device, FIFO or terminal (/dev/stdout, /dev/null, a pipe): write to it as it is.
            // Renaming a temporary file over it would replace the device node itself.
            try writeDirectly(data, to: path)
            return
        }
        // The temporary file beside the target (``WriterTemporary``; string operations, not
        // URL: a batch writes thousands of files).
        let directory: String
        let name: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
            name = String(path[path.index(after: slash)...])
        } else {
            directory = "."
            name = path
        }
        // Created and registered as one step, so that an interruption removes it (InterruptCleanup).
        var fd: Int32 = -1
        var createError: Int32 = 0
        let created = InterruptCleanup.shared.creatingTemporary { () -> String? in
            var template = Array(WriterTemporary.template(in: directory, for: name).utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            createError = errno
            guard fd >= 0 else { return nil }
            return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard let temporary = created else {
            throw CLIFailure(path, "cannot write output: \(String(cString: strerror(createError)))")
        }
        var committed = false
        defer {
            if !committed { InterruptCleanup.shared.finishingTemporary(temporary) { _ = unlink(temporary) } }
        }
        // A replaced file keeps its owner, group and permissions (a web server must still be
        // able to read what it serves); a new one gets the usual 0666 less the umask.
        if exists && (existing.st_uid != geteuid() || existing.st_gid != getegid()) {
            guard fchown(fd, existing.st_uid, existing.st_gid) == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw CLIFailure(
                    path,
                    "cannot write output: cannot keep its owner and group (\(existing.st_uid):\(existing.st_gid)): \(reason); nothing written"
                )
            }
        }
        fchmod(fd, exists ? existing.st_mode & 0o7777 : 0o666 & ~processUmask)
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
        guard written, !durable || fsync(fd) == 0 else {
            let reason = String(cString: strerror(written ? errno : writeError))
            close(fd)
            throw CLIFailure(path, "cannot write output: \(reason)")
        }
        guard close(fd) == 0 else { throw CLIFailure(path, "cannot write output: \(String(cString: strerror(errno)))") }
        let renameError = InterruptCleanup.shared.finishingTemporary(temporary) { () -> Int32 in
            guard noClobber else { return rename(temporary, path) == 0 ? 0 : errno }
            guard link(temporary, path) == 0 else { return errno }
            unlink(temporary)
            return 0
        }
        if renameError == EEXIST && noClobber { throw Self.exists(requestedPath) }
        guard renameError == 0 else {
            throw CLIFailure(path, "cannot write output: \(String(cString: strerror(renameError)))")
        }
        committed = true
    }

    /// The failure of a `--no-clobber` output whose name is taken.
    private static func exists(_ path: String) -> CLIFailure {
        CLIFailure(path, "cannot write output: the file exists and --no-clobber keeps it; nothing written")
    }

    /// `path`, or the file a symbolic link at `path` leads to (a dangling link: where it points).
    static func resolvingSymbolicLink(_ path: String) throws -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return path }
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else {
            throw CLIFailure(path, "cannot write output: cannot read the symbolic link")
        }
        return target.hasPrefix("/")
            ? target : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
    }

    /// Flushes the file systems that hold `paths` to disk, once each (Linux `syncfs`; `sync`
    /// elsewhere): what a batch does instead of one `fsync` per file.
    static func flush(_ paths: [String]) {
        var directories = Set<String>()
        for path in paths where path != "-" {
            directories.insert((path as NSString).deletingLastPathComponent)
        }
        guard !directories.isEmpty else { return }
        #if os(Linux)
            typealias SyncFS = @convention(c) (Int32) -> Int32
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") {
                let syncfs = unsafeBitCast(symbol, to: SyncFS.self)
                var devices = Set<UInt64>()
                for directory in directories {
                    var info = stat()
                    let name = directory.isEmpty ? "." : directory
                    guard stat(name, &info) == 0, devices.insert(UInt64(info.st_dev)).inserted else { continue }
                    let fd = open(name, O_RDONLY | O_CLOEXEC)
                    guard fd >= 0 else { continue }
                    _ = syncfs(fd)
                    close(fd)
                }
                return
            }
        #endif
        sync()
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
        try ensureDistinct(output: output, from: FileIdentities(inputs))
    }

    /// ``ensureDistinct(output:from:)`` against inputs identified once, for a batch.
    static func ensureDistinct(output: String, from inputs: FileIdentities) throws {
        guard output != "-", let input = inputs.input(sameAs: output) else { return }
        throw CLIFailure(
            output, "the output is the input file \(input); refusing to overwrite it", status: ExitStatus.usage)
    }

    /// The files a command reads, by device and inode, so that each output of a batch is
    /// checked against all of them at once.
    struct FileIdentities {
        private var paths: [FileID: String] = [:]

        private struct FileID: Hashable {
            var device: UInt64
            var inode: UInt64
        }

        init(_ inputs: [String?]) {
            for case let input? in inputs.reversed() where input != "-" {
                var info = stat()
                if stat(input, &info) == 0 {
                    paths[FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))] = input
                }
            }
        }

        /// The first input that is the same file as `path`, if any.
        func input(sameAs path: String) -> String? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return paths[FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))]
        }
    }
}
