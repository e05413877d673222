import AASA
import AASAAudit
import Foundation

/// The domains to audit, read lazily: the arguments first, then `--domains-file` (one a line,
/// `#` comments and blank lines skipped, `-` for standard input), so that a list of any length
/// never sits in memory.
final class DomainSource: FleetEntrySource {
    typealias Entry = FleetEntry

    private var arguments: IndexingIterator<[String]>
    private let file: String?
    private var reader: LineReader?
    private var lineNumber = 0
    private var reportedReadError = false
    /// The shard and the domains already reported: entries outside it are skipped and counted.
    var selection = DomainSelection()

    init(arguments: [String], file: String?) throws {
        self.arguments = arguments.makeIterator()
        self.file = file
        if let file { reader = try LineReader(path: file, maximumLineLength: 4_096) }
    }

    /// The number of entries, when it is cheap to know (arguments, and a regular file,
    /// counted in one pass without keeping it); nil for standard input and anything that is not
    /// a regular file (a pipe, `<(…)`: read twice, the count would consume the list).
    static func count(arguments: [String], file: String?) -> Int? {
        guard let file else { return arguments.count }
        var info = stat()
        guard file != "-", stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            let reader = try? LineReader(path: file, maximumLineLength: 4_096, what: "domain list")
        else { return nil }
        // A read error ends the count; reading the entries reports it.
        var count = 0
        while let (line, _) = reader.next() {
            if isDomainLine(line) { count += 1 }
        }
        return arguments.count + count
    }

    private static func strip(_ line: String) -> String {
        let content = line.firstIndex(of: "#").map { line[..<$0] } ?? Substring(line)
        return content.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func isDomainLine(_ line: String) -> Bool { !strip(line).isEmpty }

    /// The next entry of the ``selection``, or nil at the end.
    func next() -> Entry? {
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
    private func nextListed() -> Entry? {
        if let argument = arguments.next() {
            do {
                return .domain(try AuditDomain.parse(argument))
            } catch {
                return .invalid(origin: argument, message: "\(error)")
            }
        }
        guard let reader, let file else { return nil }
        while let (line, truncated) = reader.next() {
            lineNumber += 1
            let text = Self.strip(line)
            if text.isEmpty { continue }
            let origin = "\(Diagnostics.displayName(file)):\(lineNumber)"
            if truncated { return .invalid(origin: origin, message: "the line is too long to be a domain") }
            do {
                return .domain(try AuditDomain.parse(text))
            } catch {
                return .invalid(origin: origin, message: "\(error)")
            }
        }
        if let error = reader.readError, !reportedReadError {
            reportedReadError = true
            return .invalid(origin: Diagnostics.displayName(file), message: "cannot read the domains file: \(error)")
        }
        return nil
    }
}
