import Foundation

/// The hosts reached without the proxy (`NO_PROXY`, `no_proxy`, `--noproxy`), matched as curl
/// matches them (CURLOPT_NOPROXY):
///
/// - entries are separated by commas (and spaces); empty entries are ignored;
/// - `*` bypasses the proxy for every host (curl documents it as the whole list; here it may
///   also be one entry among others);
/// - a name matches itself and every name below it: `example.com` and `.example.com` (the
///   leading dot is optional) both match `example.com` and `www.example.com`, never
///   `badexample.com`; case and a trailing dot do not matter;
/// - an IPv4 or IPv6 address (IPv6 without brackets, which are tolerated) matches the same
///   address given as a literal host, and `ADDRESS/BITS` matches a CIDR range; an address entry
///   never matches a name, since the proxy, not this machine, resolves names;
/// - the port plays no part: an entry matches the host on every port, and an entry written with
///   a port (`example.com:8443`) is not a pattern curl knows, so it matches nothing.
public struct NoProxyList: Sendable, Hashable {
    /// The entries as given, lower-case, without empty ones.
    public let entries: [String]

    public init(_ text: String) {
        entries =
            text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" })
            .map { $0.lowercased() }
    }

    /// No host bypasses the proxy.
    public static let none = NoProxyList("")

    /// Whether `host` (a name or an IP literal, IPv6 with or without brackets) is reached directly.
    public func bypasses(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        let address = IPAddressBytes(name)
        for entry in entries {
            if entry == "*" { return true }
            if let address {
                if Self.matches(address: address, entry: entry) { return true }
            } else if Self.matches(name: name, entry: entry) {
                return true
            }
        }
        return false
    }

    private static func matches(name: String, entry: String) -> Bool {
        var suffix = Substring(entry)
        if suffix.hasPrefix(".") { suffix = suffix.dropFirst() }
        if suffix.hasSuffix(".") { suffix = suffix.dropLast() }
        guard !suffix.isEmpty else { return false }
        if name == suffix { return true }
        return name.hasSuffix("." + suffix)
    }

    private static func matches(address: IPAddressBytes, entry: String) -> Bool {
        var text = Substring(entry)
        var bits: Int?
        if let slash = text.lastIndex(of: "/") {
            guard let value = Int(text[text.index(after: slash)...]) else { return false }
            bits = value
            text = text[..<slash]
        }
        if text.hasPrefix("[") && text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        guard let network = IPAddressBytes(String(text)), network.bytes.count == address.bytes.count else {
            return false
        }
        let width = address.bytes.count * 8
        let prefix = bits ?? width
        guard (0...width).contains(prefix) else { return false }
        return address.sharesPrefix(with: network, bits: prefix)
    }
}

/// An IPv4 (4 bytes) or IPv6 (16 bytes) address in network order.
struct IPAddressBytes: Equatable {
    let bytes: [UInt8]

    init?(_ text: String) {
        var buffer = [UInt8](repeating: 0, count: 16)
        let family: Int32? = text.withCString { name in
            buffer.withUnsafeMutableBytes { raw in
                if inet_pton(AF_INET, name, raw.baseAddress) == 1 { return AF_INET }
                if inet_pton(AF_INET6, name, raw.baseAddress) == 1 { return AF_INET6 }
                return nil
            }
        }
        guard let family else { return nil }
        bytes = family == AF_INET ? Array(buffer.prefix(4)) : buffer
    }

    /// Whether the first `bits` bits are the same.
    func sharesPrefix(with other: IPAddressBytes, bits: Int) -> Bool {
        for index in 0..<bytes.count {
            let remaining = bits - index * 8
            if remaining <= 0 { return true }
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if bytes[index] & mask != other.bytes[index] & mask { return false }
        }
        return true
    }
}
