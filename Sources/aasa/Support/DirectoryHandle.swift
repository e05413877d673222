import Foundation

/// A directory held by an open descriptor, so that a file read or written in it stays in it
/// whatever happens to the directory's name meanwhile (issue #24).
///
/// A directory that the user named (``init(opening:)``) is opened by its path, symbolic links
/// followed: the user chose it. Every directory below it is opened relative to its parent's
/// descriptor with `O_NOFOLLOW | O_DIRECTORY` (``child(_:creating:)``), as coreutils and rsync
/// do: a component that another user has replaced by a symbolic link since the directory walk
/// is refused, never followed. The temporary file, the rename or link over the target and the
/// copy of owner and mode (``OutputFile``) all happen relative to the descriptor, so a
/// directory swapped after it was opened is not written through either.
final class DirectoryHandle: @unchecked Sendable {
    // @unchecked: every stored property is set in init and never changed; the descriptor is
    // closed in deinit only, when no other reference is left.

    /// The open descriptor (`O_RDONLY | O_DIRECTORY | O_CLOEXEC`).
    let descriptor: Int32
    /// The directory's path as the user would write it, for messages.
    let path: String
    /// The directory this one was opened in and its name there; nil for one opened by path.
    private let parent: (handle: DirectoryHandle, name: String)?
    /// What the descriptor refers to.
    private let identity: FileIdentity

    /// Opens the directory at `path`, following symbolic links (the user named it).
    init(opening path: String) throws {
        let fd = open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw CannotOpen(path: path, code: errno) }
        var info = stat()
        fstat(fd, &info)
        descriptor = fd
        self.path = path
        parent = nil
        identity = FileIdentity(info)
    }

    private init(descriptor: Int32, path: String, parent: DirectoryHandle, name: String, identity: FileIdentity) {
        self.descriptor = descriptor
        self.path = path
        self.parent = (parent, name)
        self.identity = identity
    }

    deinit {
        close(descriptor)
    }

    /// The subdirectory `name`, opened without following a symbolic link; with `creating`, made
    /// first when it does not exist (mode 0777 less the umask, as `mkdir -p` does).
    func child(_ name: String, creating: Bool = false) throws -> DirectoryHandle {
        let childPath = path.hasSuffix("/") ? path + name : path + "/" + name
        var fd = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 && errno == ENOENT && creating {
            guard mkdirat(descriptor, name, 0o777) == 0 || errno == EEXIST else {
                throw CannotOpen(path: childPath, action: "cannot create the directory", code: errno)
            }
            fd = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        }
        guard fd >= 0 else {
            let error = errno
            // A link or a file where the walk found a directory, or nothing: the tree changed.
            if error == ELOOP || error == ENOTDIR || (error == ENOENT && !creating), let change = describeEntry(name) {
                throw TreeChange(path: childPath, change: change)
            }
            throw CannotOpen(path: childPath, code: error)
        }
        var info = stat()
        fstat(fd, &info)
        return DirectoryHandle(descriptor: fd, path: childPath, parent: self, name: name, identity: FileIdentity(info))
    }

    /// The directory that holds `relative` (names separated by "/", no "." or ".."), opened
    /// component by component with ``child(_:creating:)``, and the last name.
    func descend(to relative: String, creating: Bool = false) throws -> (directory: DirectoryHandle, name: String) {
        var components = relative.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let name = components.popLast() else { return (self, ".") }
        var directory = self
        for component in components { directory = try directory.child(component, creating: creating) }
        return (directory, name)
    }

    /// What `name` in this directory is now, without following a link; nil when it is gone.
    func entry(_ name: String) -> stat? {
        var info = stat()
        return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    /// Whether each directory from the one the user named down to this one is still where it
    /// was opened (the same directory under the same name, not a symbolic link). Checked just
    /// before an output is put in place, so that a tree rearranged meanwhile is reported
    /// rather than written into a directory that is no longer at its path.
    func stillInPlace() throws {
        guard let (handle, name) = parent else { return }
        guard let now = handle.entry(name), (now.st_mode & S_IFMT) == S_IFDIR, FileIdentity(now) == identity else {
            throw TreeChange(path: path, change: handle.describeEntry(name) ?? "is another directory now")
        }
        try handle.stillInPlace()
    }

    /// What `name` has become, as ``TreeChange/change`` says it ("is a symbolic link now: …",
    /// "was removed", …), or nil when it is a directory.
    func describeEntry(_ name: String) -> String? {
        guard let info = entry(name) else { return "was removed" }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return nil
        case S_IFLNK: return TreeChange.symbolicLink
        default: return "is \(FileType.describe(info.st_mode)) now"
        }
    }

    /// A directory that could not be opened (or made), and why.
    struct CannotOpen: Error {
        var path: String
        var action = "cannot open the directory"
        /// The `errno` of the failed call.
        var code: Int32

        /// "cannot open the directory site/d: Permission denied".
        var description: String { "\(action) \(path): \(String(cString: strerror(code)))" }
    }
}
