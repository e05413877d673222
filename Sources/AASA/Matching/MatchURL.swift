/// A URL as the universal-link matcher sees it: the raw (percent-encoded) path, query and
/// fragment.
///
/// Accepted input:
/// - an absolute URL with an authority, `scheme://host[:port]/path?query#fragment` (any
///   scheme; the host is not checked beyond being present);
/// - a bare path starting with `/`: `/a/b?x=1#f` (everything up to the first `?` or `#` is the
///   path, so `//a` is a path too).
///
/// The path ends at the first `?` or `#`, the query at the first `#`. An empty path (as in
/// `https://example.com` or `https://example.com?x=1`) is `/`.
///
/// Characters that may not appear in a URL (controls, space, non-ASCII, `"` `<` `>` `\` `^`
/// `` ` `` `{` `|` `}`) are percent-encoded as UTF-8 the way Safari does before iOS sees
/// the URL, so `/café` is matched as `/caf%C3%A9`. A `%` not followed by two hex digits, a
/// missing or malformed scheme, a missing host, or a control character or space in the host
/// make the URL unparseable (``MatchURLError``).
public struct MatchURL: Sendable, Hashable {
    /// The URL as matched (with invalid characters percent-encoded).
    public let string: String
    let layout: URLLayout

    /// Splits `text`.
    /// - Throws: ``MatchURLError`` when the text is not a URL or a path.
    public init(_ text: String) throws(MatchURLError) {
        var copy = text
        let result = copy.withUTF8 { URLLayout.scan($0) }
        switch result {
        case .failure(let error): throw error
        case .success(let layout):
            self.string = text
            self.layout = layout
        case .needsEncoding:
            let encoded = URLLayout.encodingInvalidCharacters(text)
            var encodedCopy = encoded
            guard case .success(let layout) = encodedCopy.withUTF8({ URLLayout.scan($0) }) else {
                throw MatchURLError(message: "cannot percent-encode the URL")
            }
            self.string = encoded
            self.layout = layout
        }
    }

    /// The raw path (`/` when the URL has none).
    public var path: String {
        let path = slice(layout.path)
        return path.isEmpty ? "/" : path
    }

    /// The raw query without `?` (nil when there is no `?`).
    public var query: String? { layout.query.map(slice) }

    /// The raw fragment without `#` (nil when there is no `#`).
    public var fragment: String? { layout.fragment.map(slice) }

    private func slice(_ range: Range<Int>) -> String {
        let utf8 = string.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let end = utf8.index(utf8.startIndex, offsetBy: range.upperBound)
        return String(string[start..<end])
    }
}

/// Why a URL could not be split for matching.
public struct MatchURLError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(message: String) { self.message = message }

    public var description: String { message }
}

/// Byte offsets (into the URL's UTF-8) of the path, query and fragment.
struct URLLayout: Sendable, Hashable {
    var path: Range<Int>
    var query: Range<Int>?
    var fragment: Range<Int>?

    enum ScanResult {
        case success(URLLayout)
        /// The URL holds characters that must be percent-encoded first.
        case needsEncoding
        case failure(MatchURLError)
    }

    /// Splits the URL in one pass; nothing is allocated unless the URL is invalid.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> ScanResult {
        let count = bytes.count
        guard count > 0 else { return .failure(MatchURLError(message: "empty URL")) }
        var index = 0
        if bytes[0] != UInt8(ascii: "/") {
            // scheme ":" "//" authority
            guard isLetter(bytes[0]) else { return .failure(notAURL) }
            index = 1
            while index < count, isSchemeCharacter(bytes[index]) { index += 1 }
            guard index < count, bytes[index] == UInt8(ascii: ":") else { return .failure(notAURL) }
            index += 1
            guard index + 1 < count,
                bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/")
            else {
                return .failure(MatchURLError(message: "no '//host' after the scheme"))
            }
            index += 2
            let hostStart = index
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                if byte <= 0x20 || byte == 0x7F {
                    return .failure(MatchURLError(message: "a space or control character in the host"))
                }
                index += 1
            }
            guard index > hostStart else { return .failure(MatchURLError(message: "no host")) }
        }
        let pathStart = index
        var pathEnd = count
        var queryStart = -1
        var fragmentStart = -1
        var needsEncoding = false
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "?") where queryStart < 0 && fragmentStart < 0:
                pathEnd = index
                queryStart = index + 1
            case UInt8(ascii: "#") where fragmentStart < 0:
                if queryStart < 0 { pathEnd = index }
                fragmentStart = index + 1
            case UInt8(ascii: "%"):
                guard index + 2 < count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    let end = min(count, index + 3)
                    let escape = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
                    return .failure(MatchURLError(message: "invalid percent-escape '\(escape)'"))
                }
                index += 2
            default:
                if mustBeEncoded(byte) { needsEncoding = true }
            }
            index += 1
        }
        if needsEncoding { return .needsEncoding }
        let queryEnd = fragmentStart >= 0 ? fragmentStart - 1 : count
        return .success(
            URLLayout(
                path: pathStart..<pathEnd,
                query: queryStart >= 0 ? queryStart..<queryEnd : nil,
                fragment: fragmentStart >= 0 ? fragmentStart..<count : nil))
    }

    /// `text` with the characters of ``mustBeEncoded(_:)`` percent-encoded (the host included:
    /// the scan rejects the ones that matter there).
    static func encodingInvalidCharacters(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if mustBeEncoded(byte) {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let notAURL = MatchURLError(
        message: "not an absolute URL (scheme://host/path) or a path starting with '/'")
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    static func isSchemeCharacter(_ byte: UInt8) -> Bool {
        isLetter(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
    }

    /// Bytes RFC 3986 does not allow anywhere in a URL.
    static func mustBeEncoded(_ byte: UInt8) -> Bool {
        switch byte {
        case 0...0x20, 0x7F...0xFF: return true
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"),
            UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
            return true
        default: return false
        }
    }
}
