import AASAAudit
import ArgumentParser
import Foundation

/// `aasa audit --proxy URL` and `--noproxy LIST`, over the environment's `https_proxy`,
/// `HTTPS_PROXY`, `all_proxy`, `ALL_PROXY`, `no_proxy` and `NO_PROXY`, as curl combines them.
struct ProxyOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Tunnel through this HTTP proxy with CONNECT: http://[user:password@]host[:port] (port 1080 when not given, as in curl); '' connects directly whatever HTTPS_PROXY says. Default: https_proxy, HTTPS_PROXY, all_proxy or ALL_PROXY from the environment.",
            valueName: "url"))
    var proxy: String?

    @Option(
        help: ArgumentHelp(
            "Hosts reached without the proxy, as curl's --noproxy: comma-separated names (each also matches the names below it), IP addresses or CIDR ranges, or * for all; overrides no_proxy and NO_PROXY ('' for none).",
            valueName: "list"))
    var noproxy: String?

    /// The configuration, from the options and `environment`.
    /// - Throws: `ValidationError` (exit 64) for a proxy URL that cannot be used.
    func configuration(environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> ProxyConfiguration
    {
        do {
            return try ProxyConfiguration.resolve(
                proxyFlag: proxy, noProxyFlag: noproxy, environment: environment, flagName: "--proxy")
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
