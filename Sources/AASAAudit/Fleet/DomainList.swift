import AASA
import AASAReports
import Foundation

/// The domains of a fleet audit, read lazily: a list of names first (`host` or `host:port`,
/// the command line's), then a file (one a line, `#` comments and blank lines skipped, `-` for
/// standard input), so that a list of any length never sits in memory. Each line that is not a
/// domain, and a read error, comes back as an ``FleetEntry/invalid(origin:message:)`` entry in
/// its place (`FILE:LINE`): a skipped entry is never silent.
///
/// ```swift
/// let list = try DomainList(file: "domains.txt")
/// let outcome = FleetAudit(auditor: auditor, concurrency: 64).run(list) { report in … }
/// ```
public final class DomainList: FleetEntrySource {
    /// The longest line read as a domain (a DNS name has at most 253 characters).
    public static let maximumLineLength = 4_096

    private var names: IndexingIterator<[String]>
    private let file: String?
    private let reader: LineReader?
    private var lineNumber = 0
    private var reportedReadError = false
    /// The shard and the domains already reported: entries outside it are skipped and counted
    /// there (``DomainSelection/otherShards``, ``DomainSelection/alreadyReported``).
    public var selection = DomainSelection()

    /// Opens `file` now (nil for none), so that an unreadable file fails before any audit.
    /// - Throws: ``AASAError`` `.unreadableFile` when `file` cannot be opened.
    public init(names: [String] = [], file: String?) throws(AASAError) {
        self.names = names.makeIterator()
        self.file = file
        reader = try file.map { path throws(AASAError) in
            try LineReader(path: path, maximumLineLength: Self.maximumLineLength, what: "domain list")
        }
    }

    /// The number of entries, when it is cheap to know: the names, and a regular file counted
    /// in one pass without keeping it; nil for standard input and anything that is not a
    /// regular file (a pipe, `<(…)`: read twice, the count would consume the list).
    public static func count(names: [String], file: String?) -> Int? {
        guard let file else { return names.count }
        var info = stat()
        guard file != "-", stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            let reader = try? LineReader(path: file, maximumLineLength: maximumLineLength, what: "domain list")
        else { return nil }
        // A read error ends the count; reading the entries reports it.
        var count = 0
        while let (line, _) = reader.next() {
            if !strip(line).isEmpty { count += 1 }
        }
        return names.count + count
    }

    /// A line without its `#` comment and surrounding white space.
    private static func strip(_ line: String) -> String {
        let content = line.firstIndex(of: "#").map { line[..<$0] } ?? Substring(line)
        return content.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The next entry of the ``selection``, or nil at the end.
    public func next() -> FleetEntry? {
        while let entry = nextListed() {
            guard case .domain(let domain) = entry else { return entry }
            do throws(AASAError) {
                if try selection.admits(domain) { return entry }
            } catch {
                return .invalid(origin: domain.description, message: "cannot place it in a shard: \(error.message)")
            }
        }
        return nil
    }

    /// The next entry listed, or nil at the end.
    private func nextListed() -> FleetEntry? {
        if let name = names.next() { return .parsing(name, origin: name) }
        guard let reader, let file else { return nil }
        let name = ReportSubject.displayName(file)
        while let (line, truncated) = reader.next() {
            lineNumber += 1
            let text = Self.strip(line)
            if text.isEmpty { continue }
            let origin = "\(name):\(lineNumber)"
            if truncated { return .invalid(origin: origin, message: "the line is too long to be a domain") }
            return .parsing(text, origin: origin)
        }
        if let error = reader.readError, !reportedReadError {
            reportedReadError = true
            return .invalid(origin: name, message: "cannot read the domains file: \(error)")
        }
        return nil
    }
}
