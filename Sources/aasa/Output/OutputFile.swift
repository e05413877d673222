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
///
/// Every step after the target's directory is opened happens relative to that directory's
/// descriptor (``DirectoryHandle``): the look at the target (`fstatat`), the temporary
/// (`openat` with `O_CREAT | O_EXCL | O_NOFOLLOW`), the owner and mode (`fchown`, `fchmod` of
/// the temporary), and putting it in place (`renameat`, or `linkat` for `--no-clobber`). A
/// directory of a batch's tree that another user swaps for a symbolic link is never written
/// through (issue #24).
enum OutputFile {
    /// How a target is put in place.
    struct Policy {
        /// Flush the file to disk before renaming it (one `fsync` per file). A batch passes
        /// false and calls ``flush(_:)`` once at the end instead: the rename still makes each
        /// file appear whole or not at all.
        var durable = true
        /// Never replace a file that exists (`--no-clobber`): the new file is linked into place
        /// (`linkat` fails if the name exists, atomically), and an existing one is an error.
        var noClobber = false
        /// The file that must be at the name when it is replaced: the input of
        /// `convert --in-place`, as it was read. Anything else there is refused.
        var replacing: FileIdentity? = nil
    }

    /// Writes `data` to `requestedPath`, a path the user named: "-" is standard output, a
    /// symbolic link stays a link (its target is replaced), a device or FIFO is written
    /// directly.
    ///
    /// - Parameters:
    ///   - durable: see ``Policy/durable``.
    ///   - noClobber: see ``Policy/noClobber``.
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
        if stat(path, &existing) == 0 && (existing.st_mode & S_IFMT) != S_IFREG {
            // A device, FIFO or terminal (/dev/stdout, /dev/null, a pipe): write to it as it is.
            // Renaming a temporary file over it would replace the device node itself.
            try writeDirectly(data, to: path)
            return
        }
        // String operations, not URL: a batch writes thousands of files.
        let directory: String
        let name: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
            name = String(path[path.index(after: slash)...])
        } else {
            directory = "."
            name = path
        }
        let handle: DirectoryHandle
        do {
            handle = try DirectoryHandle(opening: directory)
        } catch let failure as DirectoryHandle.CannotOpen {
            throw CLIFailure(path, "cannot write output: \(String(cString: strerror(failure.code)))")
        }
        try put(
            data, in: handle, name: name, path: path, reportedAs: requestedPath,
            policy: Policy(durable: durable, noClobber: noClobber))
    }

    /// Writes `data` to `relative` under `directory` (a batch's `--out-dir`, named by the
    /// user): the directory is made if missing and opened as named; the directories of
    /// `relative` are made or opened one by one without following a symbolic link; and an
    /// output name that is a symbolic link or not a regular file is refused, not followed.
    /// `path` names the output in messages.
    static func write(_ data: Data, under directory: String, relative: String, path: String, policy: Policy) throws {
        let (parent, name): (DirectoryHandle, String)
        do {
            var info = stat()
            if stat(directory, &info) != 0 {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            (parent, name) = try DirectoryHandle(opening: directory).descend(to: relative, creating: true)
        } catch let change as TreeChange {
            throw change.failure(for: path, "not written")
        } catch let failure as DirectoryHandle.CannotOpen {
            throw CLIFailure(path, "cannot write output: \(failure.description)")
        } catch {
            throw CLIFailure(path, "cannot write output: cannot create the directory \(directory)")
        }
        try put(data, in: parent, name: name, path: path, reportedAs: path, policy: policy)
    }

    /// Writes `data` as `name` in `directory`, a directory of a batch's tree opened without
    /// following links (`convert --in-place` of a file a walk found): the file is replaced
    /// only if it is still ``Policy/replacing``.
    static func write(_ data: Data, in directory: DirectoryHandle, name: String, path: String, policy: Policy) throws {
        try put(data, in: directory, name: name, path: path, reportedAs: path, policy: policy)
    }

    /// The atomic write itself, relative to `directory`'s descriptor. `path` names the target
    /// in messages; `reportedAs`, the name `--no-clobber` refusals give (the path as asked).
    private static func put(
        _ data: Data, in directory: DirectoryHandle, name: String, path: String, reportedAs: String, policy: Policy
    ) throws {
        let existing = directory.entry(name)
        if policy.noClobber && existing != nil { throw Self.exists(reportedAs) }
        if let existing, (existing.st_mode & S_IFMT) != S_IFREG {
            // Only a name the user gave is followed or written directly (``write(_:to:durable:noClobber:)``).
            throw CLIFailure(
                path,
                "cannot write output: it is \(FileType.describe(existing.st_mode)), not a regular file: "
                    + "aasa does not follow or replace it inside a directory it walks; nothing written")
        }
        if let expected = policy.replacing {
            guard let existing, FileIdentity(existing) == expected else {
                let change = existing == nil ? "was removed" : "is another file now, not the one that was read"
                throw TreeChange(path: path, change: change).failure(for: path, "not written")
            }
        }
        // Created and registered as one step, so that an interruption removes it (InterruptCleanup).
        var fd: Int32 = -1
        var createError: Int32 = 0
        let created = InterruptCleanup.shared.creatingTemporary(in: directory.descriptor) { () -> String? in
            for _ in 0..<100 {
                let temporaryName = WriterTemporary.name(for: name)
                fd = openat(
                    directory.descriptor, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                createError = errno
                if fd >= 0 { return temporaryName }
                if createError != EEXIST { return nil }
            }
            return nil
        }
        guard let temporary = created else {
            throw CLIFailure(path, "cannot write output: \(String(cString: strerror(createError)))")
        }
        var committed = false
        defer {
            if !committed {
                InterruptCleanup.shared.finishingTemporary(temporary) {
                    _ = unlinkat(directory.descriptor, temporary.name, 0)
                }
            }
        }
        // A replaced file keeps its owner, group and permissions (a web server must still be
        // able to read what it serves); a new one gets the usual 0666 less the umask.
        if let existing, existing.st_uid != geteuid() || existing.st_gid != getegid() {
            guard fchown(fd, existing.st_uid, existing.st_gid) == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw CLIFailure(
                    path,
                    "cannot write output: cannot keep its owner and group (\(existing.st_uid):\(existing.st_gid)): \(reason); nothing written"
                )
            }
        }
        fchmod(fd, existing.map { $0.st_mode & 0o7777 } ?? (0o666 & ~processUmask))
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
        guard written, !policy.durable || fsync(fd) == 0 else {
            let reason = String(cString: strerror(written ? errno : writeError))
            close(fd)
            throw CLIFailure(path, "cannot write output: \(reason)")
        }
        guard close(fd) == 0 else { throw CLIFailure(path, "cannot write output: \(String(cString: strerror(errno)))") }
        // The directory must still be where the batch found it: one moved or swapped for a
        // link meanwhile is reported, not written into under another path.
        do {
            try directory.stillInPlace()
        } catch let change as TreeChange {
            throw change.failure(for: path, "not written")
        }
        let renameError = InterruptCleanup.shared.finishingTemporary(temporary) { () -> Int32 in
            guard policy.noClobber else {
                return renameat(directory.descriptor, temporary.name, directory.descriptor, name) == 0 ? 0 : errno
            }
            guard linkat(directory.descriptor, temporary.name, directory.descriptor, name, 0) == 0 else { return errno }
            unlinkat(directory.descriptor, temporary.name, 0)
            return 0
        }
        if renameError == EEXIST && policy.noClobber { throw Self.exists(reportedAs) }
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
        private var paths: [FileIdentity: String] = [:]

        init(_ inputs: [String?]) {
            for case let input? in inputs.reversed() where input != "-" {
                var info = stat()
                if stat(input, &info) == 0 {
                    paths[FileIdentity(info)] = input
                }
            }
        }

        /// The first input that is the same file as `path`, if any.
        func input(sameAs path: String) -> String? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return paths[FileIdentity(info)]
        }
    }
}
