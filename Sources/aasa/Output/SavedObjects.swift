import AASA
import Foundation

/// The content-addressed store of `aasa audit --save DIR`: `DIR/.objects/SHA256` holds each
/// distinct body and TLS chain once, and a domain's `apple-app-site-association` and
/// `tls-chain.pem` are hard links to it, so that 100,000 domains that serve a few distinct files
/// take the space of those few. A saved file is still a plain file at its domain's path (`aasa
/// verify DIR/DOMAIN/apple-app-site-association` reads it as before).
///
/// Written by hand: no package does content-addressed storage of a few files over `linkat`.
/// An object is written atomically (``OutputFile``) and linked into place through a temporary
/// name and `renameat`, all relative to the directories' descriptors. An object whose bytes
/// are not the content its name says (changed by hand) is written again; where no hard link can
/// be made (a file system without them, a link count at its limit), the file is written as a
/// copy.
final class SavedObjects {
    /// The store's folder below `DIR` (no domain's name starts with a dot).
    static let folderName = ".objects"

    private let folder: DirectoryHandle
    /// `DIR/.objects`, for messages.
    private let path: String
    private var temporaries = 0
    /// Objects written or checked in this run: not read again for every domain that shares them.
    private var known: Set<String> = []

    init(in root: DirectoryHandle, path: String) throws {
        folder = try root.child(Self.folderName, creating: true)
        self.path = path
    }

    /// Puts `data` at `name` in `directory` (`shownAs` in messages): a link to its object.
    func place(_ data: Data, in directory: DirectoryHandle, name: String, shownAs: String) throws {
        let policy = OutputFile.Policy(durable: false)
        let existing = directory.entry(name)
        // Not a regular file there: OutputFile refuses it with its own message. (The digest
        // cannot fail but for OpenSSL's allocation; the file is then written as a copy.)
        guard existing.map({ ($0.st_mode & S_IFMT) == S_IFREG }) ?? true,
            let object = try? SHA256Digest.hex([UInt8](data))
        else {
            return try OutputFile.write(data, in: directory, name: name, path: shownAs, policy: policy)
        }
        if !known.contains(object) {
            if !holds(object, data) {
                try OutputFile.write(data, in: folder, name: object, path: path + "/" + object, policy: policy)
            }
            known.insert(object)
        }
        temporaries += 1
        let temporary = ".\(name).aasa-link-\(getpid())-\(temporaries)"
        guard linkat(folder.descriptor, object, directory.descriptor, temporary, 0) == 0 else {
            return try OutputFile.write(data, in: directory, name: name, path: shownAs, policy: policy)
        }
        guard renameat(directory.descriptor, temporary, directory.descriptor, name) == 0 else {
            let code = errno
            unlinkat(directory.descriptor, temporary, 0)
            throw CLIFailure(shownAs, "cannot save (--save): \(String(cString: strerror(code)))")
        }
    }

    /// Whether the object `name` is there, a regular file, with exactly `data`.
    private func holds(_ name: String, _ data: Data) -> Bool {
        guard let entry = folder.entry(name), (entry.st_mode & S_IFMT) == S_IFREG, Int(entry.st_size) == data.count
        else { return false }
        let descriptor = openat(folder.descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: data.count + 1)
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + total, $0.count - total) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            total += count
        }
        return total == data.count && bytes.prefix(total).elementsEqual(data)
    }
}
