import Foundation

/// A file as the kernel knows it, whatever its name: its device and inode numbers.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    /// The identity `info` (from `stat`, `fstat` or `fstatat`) gives.
    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
