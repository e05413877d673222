import Foundation

/// How a report names an input file as a URI (SARIF's `artifactLocation`): a relative path as
/// a relative reference against `%SRCROOT%` (the directory aasa ran in), an absolute path as a
/// `file://` URI, standard input as `stdin`, an audited URL as itself. Every byte of a file name
/// outside RFC 3986's unreserved characters, `/` and the sub-delimiters other than `;` is
/// percent-encoded, so a name with `:`, `?`, `#`, `%`, spaces or control characters stays one path.
public struct ArtifactURI: Equatable, Sendable {
    public let uri: String
    /// `%SRCROOT%` for a relative path; nil for an absolute URI.
    public let baseID: String?

    /// The base that relative artifact URIs are relative to.
    public static let sourceRoot = "%SRCROOT%"

    public init(path: String) {
        if path == "-" {
            (uri, baseID) = ("stdin", nil)
        } else if path.hasPrefix("/") {
            (uri, baseID) = ("file://" + Self.encoded(path), nil)
        } else {
            (uri, baseID) = (Self.encoded(path), Self.sourceRoot)
        }
    }

    /// An absolute URL (audit): kept as it is.
    public init(url: String) {
        (uri, baseID) = (url, nil)
    }

    /// The directory `path` as a `file://` URI ending in `/` (`originalUriBaseIds`).
    static func directory(_ path: String) -> String {
        return "file://" + encoded(path.hasSuffix("/") ? path : path + "/")
    }

    private static let allowed: Set<UInt8> = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/!$&'()*+,=@".utf8))

    /// `path` with every byte outside ``allowed`` percent-encoded (its UTF-8 bytes, so a name
    /// that is not valid Unicode is encoded byte for byte as the file system gave it).
    public static func encoded(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            if allowed.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
