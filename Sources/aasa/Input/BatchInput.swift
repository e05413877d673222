import ArgumentParser
import Foundation

/// One file of a batch.
struct BatchInput: Sendable {
    /// The path to read.
    var path: String
    /// Its name relative to the directory it was found in (its own name when given directly):
    /// where it goes under `--out-dir`.
    var relative: String
    /// Named on the command line (as opposed to found in a directory).
    var explicit: Bool
    /// The directory named by the user that a walk found this file in (``relative`` is under
    /// it); nil for a file named itself.
    var root: String? = nil

    /// The directory that holds this file, opened, and the file's name there. A found file's
    /// directories are opened from ``root`` (kept open by the thread for the batch:
    /// ``RecentDirectory``) down without following a symbolic link (``DirectoryHandle``): one
    /// that has become a link since the walk is refused.
    func location() throws -> (directory: DirectoryHandle, name: String) {
        do {
            if let root { return try RecentDirectory.opening(root).descend(to: relative) }
            let directory = (path as NSString).deletingLastPathComponent
            return (try DirectoryHandle(opening: directory), Self.ownName(path))
        } catch let change as TreeChange {
            throw change.failure(for: path, "not read")
        } catch let failure as DirectoryHandle.CannotOpen {
            throw CLIFailure(path, "cannot read input: \(failure.description)")
        }
    }

    /// Reads the file, refusing more than `limit` bytes: a file named by the user as it is
    /// named (``InputFile/read(_:what:limit:limitFlag:)``), a found one relative to its
    /// directory's descriptor, never through a symbolic link and never blocking on what is
    /// not a regular file (``InputFile/read(_:in:path:limit:limitFlag:)``).
    func read(limit: Int, limitFlag: String?) throws -> Data {
        guard root != nil else { return try InputFile.read(path, limit: limit, limitFlag: limitFlag) }
        let (directory, name) = try location()
        return try InputFile.read(name, in: directory, path: path, limit: limit, limitFlag: limitFlag).data
    }

    /// The last component of `path`, as `NSString.lastPathComponent` gives it. A path that does
    /// not end in "/" (every file name, in practice) is cut at its last "/" without NSString's
    /// slash normalisation, which was 16 % of handling 10,000 names on the command line.
    static func ownName(_ path: String) -> String {
        guard !path.hasSuffix("/") else { return (path as NSString).lastPathComponent }
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Where this file goes under `directory`.
    func destination(in directory: String) -> String {
        (directory as NSString).appendingPathComponent(relative)
    }

    /// Where each item goes under `directory`: refused (a usage error, before anything is
    /// written) when two items would be written to one place or an output is one of the
    /// inputs or of `otherInputs` (keys, certificates, trust files).
    static func destinations(for items: [BatchInput], in directory: String, otherInputs: [String?]) throws -> [String] {
        let identities = OutputFile.FileIdentities(items.map(\.path) + otherInputs)
        var seen: [String: String] = [:]
        return try items.map { item in
            let output = item.destination(in: directory)
            // Every output is `directory/relative`, and a relative name has no "." or ".."
            // component (a file's own name, or a path found by walking a directory).
            let key = item.relative
            if let other = seen[key] {
                throw CLIFailure(
                    output, "both \(other) and \(item.path) would be written here; give them separately",
                    status: ExitStatus.usage)
            }
            seen[key] = item.path
            try OutputFile.ensureDistinct(output: output, from: identities)
            return output
        }
    }

    /// The regular files under `directory`, relative to it, sorted; every entry that could not
    /// be read (a subdirectory that cannot be opened: EACCES, EMFILE, ENAMETOOLONG, …; a name
    /// that is not UTF-8), as failures to report: a walk never skips silently; and how many
    /// files `include` left out. Version-control directories and the writer's own temporaries
    /// (``WriterTemporary``, exactly) are left out; symbolic links are not followed (to files or
    /// directories).
    static func files(under directory: String, recursive: Bool = true, include: [String] = []) throws -> (
        files: [String], unreadable: [CLIFailure], leftOut: Int
    ) {
        guard let root = opendir(directory) else {
            throw CLIFailure(directory, "cannot read the directory: \(String(cString: strerror(errno)))")
        }
        var found: [String] = []
        var unreadable: [CLIFailure] = []
        var leftOut = 0
        // readdir with the entry types, not FileManager: a batch walks thousands of files.
        func walk(_ handle: OpaquePointer, path: String, relative: String) {
            defer { closedir(handle) }
            while true {
                errno = 0
                guard let entry = readdir(handle) else {
                    if errno != 0 {
                        unreadable.append(
                            CLIFailure(path, "cannot read the directory: \(String(cString: strerror(errno)))"))
                    }
                    return
                }
                // The name in place, up to its NUL: a record from readdir is only as long as its
                // name, so copying the whole `d_name` array (256 bytes) read past the end of
                // the directory buffer (AddressSanitizer: heap-buffer-overflow).
                let bytes = UnsafeRawPointer(entry).advanced(by: direntNameOffset).assumingMemoryBound(to: CChar.self)
                guard let name = String(validatingCString: bytes) else {
                    // A String cannot hold the name's bytes, so no path built from it would
                    // name the file: report it rather than call it missing (issue #15).
                    unreadable.append(
                        CLIFailure(
                            path + "/" + String(cString: bytes),
                            "cannot read: the name is not valid UTF-8 (aasa names files in UTF-8); rename it"))
                    continue
                }
                if name == "." || name == ".." { continue }
                let childPath = path + "/" + name
                let childRelative = relative.isEmpty ? name : relative + "/" + name
                var type = Int32(entry.pointee.d_type)
                var info = stat()
                if type == Int32(DT_UNKNOWN)
                    || (type != Int32(DT_DIR) && type != Int32(DT_REG) && type != Int32(DT_LNK))
                {
                    guard fstatat(dirfd(handle), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                        unreadable.append(CLIFailure(childPath, "cannot read: \(String(cString: strerror(errno)))"))
                        continue
                    }
                    switch info.st_mode & S_IFMT {
                    case S_IFDIR: type = Int32(DT_DIR)
                    case S_IFREG: type = Int32(DT_REG)
                    case S_IFLNK: continue
                    default:
                        // A FIFO, socket or device: never opened (a FIFO would block the batch),
                        // but said, as every entry a walk does not take is.
                        unreadable.append(
                            CLIFailure(
                                childPath,
                                "cannot read: it is \(FileType.describe(info.st_mode)), not a regular file"))
                        continue
                    }
                }
                if type == Int32(DT_DIR) {
                    guard recursive, ![".git", ".hg", ".svn"].contains(name) else { continue }
                    // Opened relative to its parent without following a link: a directory
                    // replaced by a link since readdir saw it is not walked through.
                    let fd = openat(dirfd(handle), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    guard fd >= 0, let child = fdopendir(fd) else {
                        let error = errno
                        if fd >= 0 { close(fd) }
                        unreadable.append(
                            CLIFailure(childPath, "cannot read the directory: \(String(cString: strerror(error)))"))
                        continue
                    }
                    walk(child, path: childPath, relative: childRelative)
                } else if type == Int32(DT_REG) && !WriterTemporary.matches(name) {
                    if !include.isEmpty && !include.contains(where: { fnmatch($0, name, 0) == 0 }) {
                        leftOut += 1
                        continue
                    }
                    found.append(childRelative)
                }
            }
        }
        walk(
            root, path: directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory,
            relative: "")
        return (found.sorted(), unreadable, leftOut)
    }
}

/// Where `d_name` starts in a `dirent`.
private let direntNameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

/// Whether `path` names a directory ("-" never does).
func isDirectory(_ path: String) -> Bool {
    guard path != "-" else { return false }
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}
