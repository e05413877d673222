import AASAAudit
import AASAReports
import Foundation

/// `aasa audit --resume FILE` (issue #17): FILE is the `--format jsonl` output of earlier runs
/// of the same scan. Opening it reads which domains it already reports, drops a last line cut
/// short (a run killed mid-write), and takes a lock; the run then appends a line per domain.
///
/// A file that is not such output (another tool's lines, a line that is not JSON, a domain
/// that is not a domain) is refused before anything is written: its content is never lost.
final class ResumeLog {
    /// The file, as given.
    let path: String
    /// The domains FILE reports with a verdict (normalised, as ``AuditDomain/description``);
    /// a domain reported only `not-audited` (a local problem) is not among them.
    private(set) var reported: Set<String> = []
    /// Lines of FILE kept, and how many of them were `not-audited`.
    private(set) var lines = 0
    private(set) var notAuditedLines = 0
    /// Bytes of a last line cut short, dropped from FILE.
    private(set) var droppedBytes = 0
    /// The first failure to append, after which nothing more is written.
    private(set) var writeError: String?
    private var descriptor: Int32 = -1
    private let decoder = AuditLine.decoder()

    /// What every line of `aasa audit --format jsonl` starts with (keys are sorted).
    static let linePrefix = Data(#"{"aasaVersion":"#.utf8)
    /// The longest line read (a domain's report is far smaller).
    static let maximumLineLength = 64 * 1024 * 1024

    /// Opens (or creates) FILE, reads it and truncates a cut last line.
    /// - Throws: ``CLIFailure`` (exit 2) when FILE cannot be opened, read, locked or
    ///   truncated, or is not `aasa audit` JSON lines; FILE is then unchanged.
    init(path: String) throws {
        self.path = path
        let name = Diagnostics.displayName(path)
        let fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CLIFailure(name, "cannot open the --resume file: \(Self.lastError())") }
        descriptor = fd
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close()
            throw CLIFailure(name, "the --resume file must be a regular file")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno == EWOULDBLOCK ? "another run is using it" : Self.lastError()
            close()
            throw CLIFailure(name, "cannot lock the --resume file: \(reason)")
        }
        do {
            let keep = try read(name: name)
            if droppedBytes > 0 {
                guard ftruncate(fd, off_t(keep)) == 0 else {
                    throw CLIFailure(name, "cannot drop the cut last line: \(Self.lastError())")
                }
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Reads every line, returns the length of the complete lines kept.
    private func read(name: String) throws -> Int {
        var pending = Data()
        var offset = 0  // of `pending` in the file
        var lineNumber = 0
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIFailure(name, "cannot read the --resume file: \(Self.lastError())")
            }
            if count == 0 { break }
            pending.append(contentsOf: chunk[0..<count])
            // The complete lines are taken in place and dropped once per chunk: removing each
            // line from the front would move the rest of the buffer once per line.
            var lineStart = pending.startIndex
            while let newline = pending[lineStart...].firstIndex(of: 0x0A) {
                lineNumber += 1
                try take(pending[lineStart..<newline], origin: "\(name):\(lineNumber)")
                offset += newline - lineStart + 1
                lineStart = newline + 1
            }
            pending.removeSubrange(pending.startIndex..<lineStart)
            if pending.count > Self.maximumLineLength {
                throw CLIFailure("\(name):\(lineNumber + 1)", "not a line of 'aasa audit --format jsonl': too long")
            }
        }
        guard !pending.isEmpty else { return offset }
        // A last line without its newline: a run killed while writing it. Dropped, and its
        // domain audited again, when it is the start of a line audit writes; otherwise FILE is
        // someone else's and stays as it is.
        let start = pending.prefix(Self.linePrefix.count)
        guard Self.linePrefix.starts(with: start) else {
            throw CLIFailure(
                "\(name):\(lineNumber + 1)",
                "not a line of 'aasa audit --format jsonl' (nothing was written to the file)")
        }
        droppedBytes = pending.count
        return offset
    }

    /// Records the domain of one complete line, or refuses the file. The line is read by
    /// ``AuditLine/parse(_:decoder:)-(Data,_)``, as `audit summarize` reads it; a resumed
    /// scan also needs the domain in its normalised form, as audit writes it.
    private func take(_ line: Data, origin: String) throws {
        func refuse(_ why: String) -> CLIFailure {
            CLIFailure(origin, "not a line of 'aasa audit --format jsonl': \(why) (nothing was written to the file)")
        }
        let record: DomainReport
        switch AuditLine.parse(line, decoder: decoder) {
        case .success(let read): record = read.report
        case .failure(let problem): throw refuse(problem.description)
        }
        guard let parsed = try? AuditDomain.parse(record.domain), parsed.description == record.domain else {
            throw refuse("its \"domain\" is not a domain as audit writes it")
        }
        lines += 1
        if record.verdict == .notAudited {
            notAuditedLines += 1
        } else {
            reported.insert(record.domain)
        }
    }

    /// Appends `data` (whole lines); after a failure, records it and writes nothing more.
    func append(_ data: Data) {
        guard writeError == nil, descriptor >= 0 else { return }
        var written = 0
        while written < data.count {
            let count = data.withUnsafeBytes { bytes in
                Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                writeError = Self.lastError()
                return
            }
            written += count
        }
    }

    /// Releases the lock and closes FILE.
    func close() {
        guard descriptor >= 0 else { return }
        _ = Foundation.close(descriptor)
        descriptor = -1
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
