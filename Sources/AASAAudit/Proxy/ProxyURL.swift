import Foundation

/// An HTTP proxy to tunnel through (`--proxy`, `HTTPS_PROXY`): `[http://][user:password@]host[:port]`,
/// read as curl reads it: no scheme means `http://`, no port means 1080, and the user name and
/// password are percent-decoded and sent as Basic authentication with each CONNECT.
///
/// Only `http://` proxies are supported: the connection to the proxy is plain TCP, and TLS
/// runs end to end with the origin inside the CONNECT tunnel. `https://` (TLS to the proxy
/// itself) and SOCKS proxies are refused with a reason.
public struct ProxyURL: Sendable, Hashable, CustomStringConvertible {
    /// The proxy's host name or IP address (an IPv6 address without brackets), lower-case.
    public let host: String
    /// The proxy's port.
    public let port: Int
    /// The user name and password for Basic authentication, percent-decoded.
    let credentials: (user: String, password: String)?

    /// curl's default proxy port.
    public static let defaultPort = 1080

    /// Why a proxy URL cannot be used. The text never holds the password.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public init(host: String, port: Int, user: String? = nil, password: String? = nil) {
        self.host = host.lowercased()
        self.port = port
        credentials = user.map { ($0, password ?? "") }
    }

    /// `http://host:port`, with `***` for credentials: the proxy as messages name it.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(credentials == nil ? "" : "***@")\(shownHost):\(port)"
    }

    /// `host:port` as a `--resolve` rule and a connection see it.
    var target: FetchTarget { FetchTarget(host: host, port: port, path: "") }

    /// The `Proxy-Authorization` header's value, when the URL has credentials.
    var authorization: String? {
        credentials.map { "Basic " + Data("\($0.user):\($0.password)".utf8).base64EncodedString() }
    }

    public static func == (left: ProxyURL, right: ProxyURL) -> Bool {
        left.host == right.host && left.port == right.port && left.credentials?.user == right.credentials?.user
            && left.credentials?.password == right.credentials?.password
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(host)
        hasher.combine(port)
        hasher.combine(credentials?.user)
    }

    /// Parses a proxy URL. `source` names where it came from (the CLI says `--proxy`; the
    /// environment variable `HTTPS_PROXY`) in errors.
    public static func parse(_ text: String, source: String = "the proxy URL") throws -> ProxyURL {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let shown = redacted(trimmed)
        func failure(_ reason: String) -> ParseError { ParseError(description: "\(source) '\(shown)': \(reason)") }
        var withScheme = trimmed
        if let separator = schemeSeparator(in: trimmed) {
            let scheme = trimmed[..<separator.lowerBound].lowercased()
            switch scheme {
            case "http": break
            case "https":
                throw failure(
                    "https:// proxies (TLS to the proxy) are not supported: give the proxy's http:// URL (TLS still runs end to end with each domain inside the CONNECT tunnel)"
                )
            case "socks4", "socks4a", "socks5", "socks5h", "socks":
                throw failure("SOCKS proxies are not supported: give an http:// proxy that allows CONNECT")
            default: throw failure("the scheme '\(scheme)' is not a proxy scheme: give http://host:port")
            }
        } else {
            withScheme = "http://" + trimmed
        }
        guard let components = URLComponents(string: withScheme), var host = components.host, !host.isEmpty else {
            throw failure("not a proxy URL: give http://[user:password@]host:port")
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard components.percentEncodedPath.isEmpty || components.percentEncodedPath == "/",
            components.query == nil, components.fragment == nil
        else {
            throw failure("give the proxy as http://[user:password@]host:port, without a path, query or fragment")
        }
        if host.contains(":") && !ResolveRule.isIPAddress(host) {
            throw failure("'\(host)' is not an IPv6 address")
        }
        guard !host.contains("%") || ResolveRule.isIPAddress(host) else {
            throw failure("the host is not a name or an address")
        }
        let port = components.port ?? defaultPort
        guard (1...65_535).contains(port) else { throw failure("the port must be from 1 to 65535") }
        let user = components.percentEncodedUser.map(decode)
        let password = components.percentEncodedPassword.map(decode)
        if let user, user.contains(":") {
            throw failure("the user name holds ':', which Basic authentication cannot carry")
        }
        return ProxyURL(host: host, port: port, user: user, password: password)
    }

    /// The `://` after a scheme (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`), or
    /// nil: in `user:pa://ss@host` the `://` is inside the password, which no message may show.
    private static func schemeSeparator(in text: String) -> Range<String.Index>? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return separator
    }

    private static func decode(_ text: String) -> String { text.removingPercentEncoding ?? text }

    /// `text` with everything between `://` (or the start) and the last `@` replaced by `***`,
    /// so that no error message shows a password.
    ///
    /// The last `@` of the whole text, not of the authority as a URL parser would end it: a
    /// password that holds `/`, `?` or `#` unencoded ends the authority early for a parser, and
    /// the message must hide it all the same (issue #24). A proxy URL has no path, query or
    /// fragment, so nothing after its host is hidden by this.
    static func redacted(_ text: String) -> String {
        let authorityStart = schemeSeparator(in: text)?.upperBound ?? text.startIndex
        guard let at = text[authorityStart...].lastIndex(of: "@") else { return text }
        return String(text[..<authorityStart]) + "***" + String(text[at...])
    }
}
