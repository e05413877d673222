import Foundation

/// Which proxy, if any, the audit tunnels through, and which hosts bypass it: from `--proxy`
/// and `--noproxy`, or from the environment as curl reads it for `https://` URLs.
public struct ProxyConfiguration: Sendable, Hashable {
    /// The proxy, or nil to connect directly.
    public var proxy: ProxyURL?
    /// The hosts reached directly even with a proxy.
    public var noProxy: NoProxyList
    /// Where the proxy came from (`--proxy`, `https_proxy`, …), for messages; nil without one.
    public var source: String?

    public init(proxy: ProxyURL? = nil, noProxy: NoProxyList = .none, source: String? = nil) {
        self.proxy = proxy
        self.noProxy = noProxy
        self.source = source
    }

    /// Direct connections.
    public static let direct = ProxyConfiguration()

    /// The proxy variables curl reads for an `https://` URL, in its order: the first one set
    /// (even to an empty value, which means no proxy) is used.
    public static let proxyVariables = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
    /// The bypass variables, in curl's order.
    public static let noProxyVariables = ["no_proxy", "NO_PROXY"]

    /// The configuration for `--proxy` (nil: not given; empty: no proxy, whatever the
    /// environment says) and `--noproxy` (nil: not given, so `no_proxy`/`NO_PROXY` apply),
    /// as curl combines them with `environment`.
    /// `flagName` names `proxyFlag` in errors and in ``source`` (the CLI passes `--proxy`).
    public static func resolve(
        proxyFlag: String?, noProxyFlag: String?, environment: [String: String], flagName: String = "the proxy URL"
    ) throws -> ProxyConfiguration {
        let noProxy: NoProxyList
        if let noProxyFlag {
            noProxy = NoProxyList(noProxyFlag)
        } else {
            noProxy = noProxyVariables.lazy.compactMap { environment[$0] }.first.map(NoProxyList.init) ?? .none
        }
        if let proxyFlag {
            guard !proxyFlag.isEmpty else { return ProxyConfiguration(noProxy: noProxy) }
            return ProxyConfiguration(
                proxy: try ProxyURL.parse(proxyFlag, source: flagName), noProxy: noProxy, source: flagName)
        }
        guard let name = proxyVariables.first(where: { environment[$0] != nil }), let value = environment[name],
            !value.trimmingCharacters(in: .whitespaces).isEmpty
        else {
            return ProxyConfiguration(noProxy: noProxy)
        }
        return ProxyConfiguration(
            proxy: try ProxyURL.parse(value, source: "the environment variable \(name)"), noProxy: noProxy,
            source: name)
    }

    /// The proxy to use for `host`, or nil to connect directly.
    func proxy(forHost host: String) -> ProxyURL? {
        guard let proxy, !noProxy.bypasses(host: host) else { return nil }
        return proxy
    }
}

/// Where one fetch connects: to the origin, or to a proxy that tunnels to it. `--resolve`
/// applies to the host connected to (the proxy's name, when there is a proxy), as in curl; a
/// proxied origin is sent by name in the CONNECT request and resolved by the proxy.
struct ConnectionRoute {
    /// The host and port of the TCP connection.
    let connect: FetchTarget
    /// The address from `--resolve` for ``connect``, if a rule applies.
    let address: String?
    /// The proxy, when the connection goes through one.
    let proxy: ProxyURL?

    init(to target: FetchTarget, configuration: AuditConfiguration) {
        proxy = configuration.proxy.proxy(forHost: target.host)
        connect = proxy?.target ?? target
        address = configuration.resolve.address(forHost: connect.host, port: connect.port)
    }

    /// The tunnel to open first, when there is a proxy.
    func tunnel(to target: FetchTarget, userAgent: String) -> ProxyTunnelHandler.Request? {
        proxy.map { ProxyTunnelHandler.Request(proxy: $0, target: target, userAgent: userAgent) }
    }

    /// The failure when the timeout runs out before the tunnel is open (nil without a proxy):
    /// no TCP connection to the proxy is the proxy's failure, as a refused one is; a proxy that
    /// has not answered the CONNECT may be waiting for the domain (a proxy answers at once when
    /// it cannot connect), so that is the domain's timeout, naming the proxy.
    func timeoutBeforeTunnel(seconds: String, connected: Bool) -> FetchFailure? {
        guard let proxy else { return nil }
        guard connected else {
            return .proxy("cannot use the proxy \(proxy): no connection to it within \(seconds) s")
        }
        return .timeout(
            "no complete answer within \(seconds) s: gave up while waiting for the proxy \(proxy) to open the tunnel (it had not answered the CONNECT)"
        )
    }

    /// A failure to connect, as the report says it: about the proxy when the connection was to
    /// the proxy (not the domain's fault), unchanged otherwise. A shortage of descriptors stays
    /// one.
    func connectFailure(_ failure: FetchFailure) -> FetchFailure {
        guard let proxy else { return failure }
        if case .descriptorLimit = failure { return failure }
        return .proxy("cannot use the proxy \(proxy): \(failure.message)")
    }
}
