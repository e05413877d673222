import Foundation

/// The root directory that a batch's thread opened last, kept open for the next file found in
/// it. The files of a walk share their root, and opening it by its path again for each file was
/// three of the nine system calls that reading a found file cost (docs/performance.md, "Many
/// cores").
///
/// One per thread, so that no lock is taken per file and at most one descriptor per worker is
/// held; ``BatchRunner`` forgets it when a batch ends, on the workers and on the calling thread,
/// so no handle outlives the batch that opened it. The directory is the one the user named,
/// opened as ``DirectoryHandle/init(opening:)`` opens it (symbolic links followed, once per
/// batch and thread); every directory below it is still opened for each file without following
/// a link, so a subdirectory swapped for a link during the batch is refused as before.
enum RecentDirectory {
    private final class Entry {
        let path: String
        let handle: DirectoryHandle

        init(path: String, handle: DirectoryHandle) {
            self.path = path
            self.handle = handle
        }
    }

    /// The thread-specific slot (an `Entry` retained by the slot, released when the thread ends).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { raw in
            if let raw { Unmanaged<AnyObject>.fromOpaque(raw).release() }
        }
        precondition(created == 0, "pthread_key_create: \(created)")
        return key
    }()

    /// The directory at `path`, opened by this thread before in the same batch or now.
    static func opening(_ path: String) throws -> DirectoryHandle {
        if let raw = pthread_getspecific(key) {
            let entry = Unmanaged<Entry>.fromOpaque(raw).takeUnretainedValue()
            if entry.path == path { return entry.handle }
        }
        let handle = try DirectoryHandle(opening: path)
        forget()
        pthread_setspecific(key, Unmanaged.passRetained(Entry(path: path, handle: handle)).toOpaque())
        return handle
    }

    /// Closes this thread's directory (unless a file still holds it) and forgets it.
    static func forget() {
        guard let raw = pthread_getspecific(key) else { return }
        pthread_setspecific(key, nil)
        Unmanaged<Entry>.fromOpaque(raw).release()
    }
}
