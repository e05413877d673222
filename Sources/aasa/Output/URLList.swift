import AASA
import Foundation

/// Reads the URLs of a `--urls-file`: one URL a line, or a web server access log.
enum URLList {
    /// The URL on one line, or nil for a blank line or a `#` comment.
    ///
    /// A line holding a quoted request, as in the common and combined log formats
    /// (`1.2.3.4 - - [date] "GET /path?x=1 HTTP/1.1" 200 …`), or a bare request line
    /// (`GET /path HTTP/1.1`), gives its request target; any other line is the URL as a
    /// whole, as for `aasa match --urls-file`.
    static func url(from line: String) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        let start = trimmed.firstIndex(of: "\"").map { trimmed.index(after: $0) } ?? trimmed.startIndex
        let request = trimmed[start...].split(separator: " ", maxSplits: 2)
        if request.count >= 2, request[0].allSatisfy({ $0.isASCII && $0.isUppercase }),
            request[1].hasPrefix("/") || request[1].contains("://")
        {
            return String(request[1])
        }
        return trimmed
    }

    /// The URLs of a file ('-' for standard input), read lazily, line by line; lines longer
    /// than `maximumURLLength` (`--max-url-length`) are skipped, and said so once at the end
    /// (how many, and the first line number): a skipped line is never silent. The file is
    /// opened now, so an unreadable file fails before anything is written.
    static func open(_ path: String, maximumURLLength: Int) throws -> AnySequence<String> {
        let reader = try LineReader.opening(path, maximumLineLength: maximumURLLength)
        var lineNumber = 0
        var skipped = 0
        var firstSkipped = 0
        var finished = false
        return AnySequence {
            AnyIterator {
                while let (line, truncated) = reader.next() {
                    lineNumber += 1
                    if truncated {
                        skipped += 1
                        if firstSkipped == 0 { firstSkipped = lineNumber }
                        continue
                    }
                    if let url = url(from: line) { return url }
                }
                guard !finished else { return nil }
                finished = true
                if skipped > 0 {
                    Diagnostics.emit(
                        path, .warning,
                        "\(skipped) \(skipped == 1 ? "line" : "lines") longer than \(maximumURLLength) bytes (--max-url-length) skipped, the first at line \(firstSkipped)",
                        code: "url-too-long")
                }
                if let error = reader.readError {
                    Diagnostics.emit(path, .error, "cannot read URL list: \(error); the URLs before it were used")
                }
                return nil
            }
        }
    }
}
