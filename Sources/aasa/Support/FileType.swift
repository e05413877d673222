import Foundation

/// The kind of file a `stat` mode names, as messages say it.
enum FileType {
    /// "a regular file", "a FIFO", "a symbolic link", …
    static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "a file of unknown type"
        }
    }
}
