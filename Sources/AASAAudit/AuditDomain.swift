import Foundation

/// One domain to audit: a host name, and a port when it is not 443 (`staging.example.com:8443`).
public struct AuditDomain: Sendable, Hashable, CustomStringConvertible {
    /// The host name, lower-case, without a trailing dot.
    public let host: String
    /// The TCP port (443 unless given).
    public let port: Int

    /// Whether a port other than 443 was given.
    public var hasExplicitPort: Bool { port != 443 }

    /// `host`, or `host:port` for a port other than 443.
    public var description: String { hasExplicitPort ? "\(host):\(port)" : host }

    /// The `Host` header value (RFC 9110: the port only when it is not the scheme's default).
    var authority: String { description }

    public init(host: String, port: Int = 443) {
        self.host = host
        self.port = port
    }

    /// Why a text is not a domain.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Parses `example.com`, `staging.example.com:8443`, and, leniently, what lists often hold:
    /// `https://example.com/`, a trailing dot, upper case.
    /// - Throws: ``ParseError`` with a reason, for anything else (paths, IP addresses, other
    ///   schemes, non-ASCII names, bad ports).
    public static func parse(_ text: String) throws -> AuditDomain {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if rest.isEmpty { throw ParseError(description: "empty domain") }
        if let range = rest.range(of: "://") {
            let scheme = rest[..<range.lowerBound].lowercased()
            guard scheme == "https" else {
                throw ParseError(description: "'\(text)': Apple fetches over https only; give the domain name")
            }
            rest = rest[range.upperBound...]
            if let slash = rest.firstIndex(of: "/") {
                guard rest[slash...].allSatisfy({ $0 == "/" }) else {
                    throw ParseError(description: "'\(text)': give the domain only; the paths are fixed")
                }
                rest = rest[..<slash]
            }
        }
        if rest.contains("/") || rest.contains("?") || rest.contains("#") || rest.contains("@") {
            throw ParseError(description: "'\(text)': give the domain only (host or host:port)")
        }
        var host = rest
        var port = 443
        if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            let portText = rest[rest.index(after: colon)...]
            guard let value = Int(portText), (1...65_535).contains(value), portText.allSatisfy(\.isASCII) else {
                throw ParseError(description: "'\(text)': the port must be a number from 1 to 65535")
            }
            port = value
        }
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        try validateHostName(name, original: text)
        return AuditDomain(host: name, port: port)
    }

    /// A DNS host name: ASCII letters, digits, hyphens and dots; labels of 1-63 characters.
    static func validateHostName(_ name: String, original: String) throws {
        guard !name.isEmpty else { throw ParseError(description: "'\(original)': no host name") }
        guard name.allSatisfy(\.isASCII) else {
            throw ParseError(description: "'\(original)': give an internationalised name in its ASCII (xn--) form")
        }
        guard name.utf8.count <= 253 else { throw ParseError(description: "'\(original)': the name is too long") }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        if labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) {
            throw ParseError(description: "'\(original)': an IP address is not an associated domain; give its name")
        }
        for label in labels {
            guard (1...63).contains(label.count) else {
                throw ParseError(description: "'\(original)': '\(name)' is not a host name (empty or over-long label)")
            }
            guard label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
                label.first != "-", label.last != "-"
            else {
                throw ParseError(description: "'\(original)': '\(name)' is not a host name")
            }
        }
    }
}
