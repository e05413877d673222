import Foundation

/// `--resolve HOST:PORT:ADDRESS`, as curl has it: connections to HOST on PORT go to ADDRESS,
/// while the TLS server name (SNI), the certificate check and the `Host` header stay HOST.
///
/// Beyond curl, HOST may be a pattern: `*.example.com` (any name below example.com, at any
/// depth, but not example.com itself) or `*` (every name); PORT may be `*` (every port).
public struct ResolveRule: Sendable, Hashable, CustomStringConvertible {
    /// The host name or pattern, lower-case.
    public let host: String
    /// The port, or nil for any.
    public let port: Int?
    /// The IPv4 or IPv6 address to connect to.
    public let address: String

    public init(host: String, port: Int?, address: String) {
        self.host = host.lowercased()
        self.port = port
        self.address = address
    }

    public var description: String {
        let shownAddress = address.contains(":") ? "[\(address)]" : address
        return "\(host):\(port.map(String.init) ?? "*"):\(shownAddress)"
    }

    /// Why a `--resolve` value cannot be used.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Parses `HOST:PORT:ADDRESS`; an IPv6 address may be written with or without brackets.
    public static func parse(_ text: String) throws -> ResolveRule {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw ParseError(description: "'\(text)' is not HOST:PORT:ADDRESS (for example example.com:443:127.0.0.1)")
        }
        let host = String(parts[0]).lowercased()
        guard !host.isEmpty else { throw ParseError(description: "'\(text)': no host") }
        if host != "*" {
            let name = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
            do {
                try AuditDomain.validateHostName(name, original: text)
            } catch let error as AuditDomain.ParseError {
                throw ParseError(description: error.description)
            }
        }
        let port: Int?
        if parts[1] == "*" {
            port = nil
        } else if let value = Int(parts[1]), (1...65_535).contains(value) {
            port = value
        } else {
            throw ParseError(description: "'\(text)': the port must be a number from 1 to 65535, or *")
        }
        var address = String(parts[2])
        if address.hasPrefix("[") && address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        guard Self.isIPAddress(address) else {
            throw ParseError(description: "'\(text)': '\(address)' is not an IPv4 or IPv6 address")
        }
        return ResolveRule(host: host, port: port, address: address)
    }

    /// Whether the rule applies to `host` on `port`.
    public func matches(host name: String, port number: Int) -> Bool {
        if let port, port != number { return false }
        let name = name.lowercased()
        if host == "*" { return true }
        if host.hasPrefix("*.") { return name.hasSuffix(String(host.dropFirst())) }
        return host == name
    }

    /// How specific the rule is, so that `a.example.com` wins over `*.example.com` over `*`.
    var specificity: Int {
        (host == "*" ? 0 : host.hasPrefix("*.") ? host.count : 1_000) * 2 + (port == nil ? 0 : 1)
    }

    static func isIPAddress(_ text: String) -> Bool {
        // Room for an in6_addr (16 bytes); raw bytes keep the C struct types out of it.
        var buffer = [UInt8](repeating: 0, count: 16)
        return text.withCString { name in
            buffer.withUnsafeMutableBytes { bytes in
                inet_pton(AF_INET, name, bytes.baseAddress) == 1 || inet_pton(AF_INET6, name, bytes.baseAddress) == 1
            }
        }
    }
}

extension Array where Element == ResolveRule {
    /// The most specific rule for `host` on `port` (exact names before patterns, a given port
    /// before `*`; among equals, the first given).
    func address(forHost host: String, port: Int) -> String? {
        var best: ResolveRule?
        for rule in self where rule.matches(host: host, port: port) {
            if best == nil || rule.specificity > best!.specificity { best = rule }
        }
        return best?.address
    }
}
