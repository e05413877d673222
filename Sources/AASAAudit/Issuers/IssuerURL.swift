import Foundation

/// A caIssuers URI that may be fetched: `http://` or `https://`, a host, an optional port and
/// a path, in ASCII without spaces or controls. Anything else (`file:`, `ldap:`, user
/// information, a missing host) is refused with the reason, before any connection.
struct IssuerURL: Sendable, Equatable {
    /// The longest URI fetched; a certificate may hold a longer one, which is refused.
    static let maximumLength = 2_048

    let isHTTPS: Bool
    let host: String
    let port: Int
    /// The request target: the path (at least "/") and the query.
    let target: String
    /// The text as given (for the report).
    let text: String

    /// The Host header: the host, and the port when it is not the scheme's default.
    var authority: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return port == (isHTTPS ? 443 : 80) ? shown : "\(shown):\(port)"
    }

    /// Parses `text`, or says why it is not fetched.
    static func parse(_ text: String) -> Result<IssuerURL, IssuerFetchFailure> {
        guard text.utf8.count <= maximumLength else {
            return .failure(.refusedURL("longer than \(maximumLength) characters"))
        }
        guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            return .failure(.refusedURL("not printable ASCII without spaces"))
        }
        guard let colon = text.firstIndex(of: ":") else { return .failure(.refusedURL("no scheme")) }
        let scheme = text[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else {
            return .failure(.refusedURL("the scheme \"\(scheme)\" is never fetched (only http and https)"))
        }
        guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
            return .failure(.refusedURL("not a URL with a host"))
        }
        guard components.user == nil, components.password == nil else {
            return .failure(.refusedURL("it carries user information"))
        }
        let isHTTPS = scheme == "https"
        let port = components.port ?? (isHTTPS ? 443 : 80)
        guard (1...65_535).contains(port) else { return .failure(.refusedURL("port \(port) is out of range")) }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let query = components.percentEncodedQuery.map { "?\($0)" } ?? ""
        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return .success(IssuerURL(isHTTPS: isHTTPS, host: bareHost, port: port, target: path + query, text: text))
    }

    /// Where a redirect's `Location` points, resolved against this URL, or why it is not followed.
    func resolving(_ location: String) -> Result<IssuerURL, IssuerFetchFailure> {
        guard let base = URL(string: text), let resolved = URL(string: location, relativeTo: base)?.absoluteString
        else {
            return .failure(.refusedRedirect(location, "not a URL"))
        }
        switch Self.parse(resolved) {
        case .success(let url): return .success(url)
        case .failure(.refusedURL(let why)): return .failure(.refusedRedirect(location, why))
        case .failure(let failure): return .failure(failure)
        }
    }
}
