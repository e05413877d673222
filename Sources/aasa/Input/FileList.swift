import Foundation

/// The names of a `--files-from` list (a file, or standard input for "-"), read one at a time
/// in fixed-size chunks as the batch needs them: a list of a million names never sits in
/// memory whole. Names end at LF, or at NUL with `--null`; each is taken byte for byte (no
/// blank trimming, no CR dropped, no quoting), as `tar -T`, `rsync --files-from` and
/// `xargs -0` take them.
///
/// The list is hostile input. Each entry that names no file is one ``Entry/failure(_:)``,
/// located as `LIST:N` (the N-th name): an empty name, a name that is not UTF-8 (a Swift
/// `String` cannot hold it, so no path built from it would name the file), a name longer than
/// `PATH_MAX`, "-" (standard input is no name in a list), a last name without its separator
/// (the list may have been cut short, and a cut name may name another file), and a read
/// error, which ends the list.
final class FileList {
    /// One entry of the list.
    enum Entry {
        case name(String)
        case failure(CLIFailure)
    }

    /// The list as given ("-" for standard input), for messages.
    let path: String
    /// LF, or NUL with `--null`.
    let separator: UInt8
    /// How many names (and refused entries) were read so far.
    private(set) var count = 0

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// Set while the rest of an over-long name is being skipped.
    private var skipping = false
    private var chunk = [UInt8](repeating: 0, count: FileList.chunkSize)
    private static let chunkSize = 64 * 1024
    /// The longest name taken: Linux's PATH_MAX, counting its NUL.
    static let maximumNameLength = Int(PATH_MAX) - 1

    /// Opens the list; a list that cannot be opened is a ``CLIFailure`` naming it.
    init(path: String, null: Bool) throws {
        self.path = path
        separator = null ? 0 : 0x0A
        if path == "-" {
            descriptor = STDIN_FILENO
        } else {
            var info = stat()
            if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
                throw CLIFailure(path, "cannot read the file list: it is a directory")
            }
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else {
                throw CLIFailure(path, "cannot read the file list: \(String(cString: strerror(errno)))")
            }
            descriptor = opened
        }
    }

    deinit {
        if descriptor != STDIN_FILENO { close(descriptor) }
    }

    /// Where the `count`-th entry is, for messages: `LIST:N` (`<stdin>:N` for standard input).
    private var location: String { "\(Diagnostics.displayName(path)):\(count)" }

    /// The next entry, or nil at the end of the list.
    func next() -> Entry? {
        while true {
            if let end = nextSeparator() {
                let entry = take(start..<end)
                start = end + 1
                if let entry { return entry }
                continue
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let name = take(start..<buffer.count, terminated: false)
                buffer.removeAll()
                start = 0
                if let name { return name }
                continue
            }
            if skipping {
                buffer.removeAll(keepingCapacity: true)
                start = 0
            } else if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            if let failure = readChunk() { return .failure(failure) }
            if !skipping && buffer.count > Self.maximumNameLength && nextSeparator() == nil {
                // An over-long name: refuse it now, then drop its bytes until its separator.
                count += 1
                skipping = true
                buffer.removeAll(keepingCapacity: true)
                return .failure(tooLong)
            }
        }
    }

    private var tooLong: CLIFailure {
        CLIFailure(
            location, "this name is longer than \(Self.maximumNameLength) bytes, the longest path the system takes")
    }

    /// Reads one chunk into the buffer; at the end of the input sets `atEnd`. A read error
    /// ends the list with a failure.
    private func readChunk() -> CLIFailure? {
        while true {
            let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, Self.chunkSize) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                atEnd = true
                buffer.removeAll()
                start = 0
                return CLIFailure(
                    path, "cannot read the file list after \(count) names: \(String(cString: strerror(errno)))")
            }
            if n == 0 {
                atEnd = true
            } else {
                buffer.append(contentsOf: chunk[0..<n])
            }
            return nil
        }
    }

    /// The index of the next separator at or after `start`.
    private func nextSeparator() -> Int? {
        guard start < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard let found = memchr(bytes.baseAddress! + start, Int32(separator), bytes.count - start) else {
                return nil
            }
            return bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The entry made of the bytes in `range`: nil for the tail of an over-long name.
    private func take(_ range: Range<Int>, terminated: Bool = true) -> Entry? {
        if skipping {
            skipping = false
            return nil
        }
        count += 1
        let bytes = buffer[range]
        guard bytes.count <= Self.maximumNameLength else { return .failure(tooLong) }
        guard terminated else {
            let shown = String(decoding: bytes, as: UTF8.self)
            let ending = separator == 0 ? "NUL" : "newline"
            return .failure(
                CLIFailure(
                    location,
                    "the last name, '\(shown)', has no \(ending) after it: the list may have been cut short, so it is not taken; end every name with a \(ending)"
                ))
        }
        guard !bytes.isEmpty else {
            return .failure(CLIFailure(location, "empty name in the file list"))
        }
        guard let name = String(validating: bytes, as: UTF8.self) else {
            return .failure(
                CLIFailure(
                    String(decoding: bytes, as: UTF8.self),
                    "cannot read: the name (\(location)) is not valid UTF-8 (shown with U+FFFD for the bytes that are not): aasa names files in UTF-8; rename the file"
                ))
        }
        if name == "-" {
            return .failure(
                CLIFailure(
                    location,
                    "'-' in a file list names no file (standard input is not read from a list); write ./- for a file named '-'"
                ))
        }
        if separator == 0x0A && name.contains("\0") {
            return .failure(CLIFailure(location, "this name holds a NUL byte, which no file name can"))
        }
        return .name(name)
    }
}
