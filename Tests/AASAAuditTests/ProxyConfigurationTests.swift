import Foundation
import NIOCore
import Testing

@testable import AASAAudit

/// Issue #17, proxies without a proxy: the proxy URL as curl reads it, the environment's
/// variables in curl's order, NO_PROXY matching at its boundaries, and the CONNECT tunnel's
/// reading of a proxy's answer.
struct ProxyConfigurationTests {
    // MARK: - The proxy URL

    @Test func urlWithoutSchemeOrPortIsHTTPOnPort1080AsInCurl() throws {
        let proxy = try ProxyURL.parse("proxy.corp.example")
        #expect(proxy.host == "proxy.corp.example")
        #expect(proxy.port == 1080)
        #expect(proxy.authorization == nil)
        #expect(proxy.description == "http://proxy.corp.example:1080")
        let explicit = try ProxyURL.parse("HTTP://Proxy.Corp.Example:3128/")
        #expect(explicit.host == "proxy.corp.example" && explicit.port == 3128)
    }

    @Test func credentialsArePercentDecodedSentAsBasicAndNeverShown() throws {
        let proxy = try ProxyURL.parse("http://al%69ce:p%40ss%3Aword@127.0.0.1:3128")
        // "alice:p@ss:word": only the user name may not hold ':'.
        #expect(proxy.authorization == "Basic " + Data("alice:p@ss:word".utf8).base64EncodedString())
        #expect(proxy.description == "http://***@127.0.0.1:3128")
        #expect(!proxy.description.contains("p%40ss") && !proxy.description.contains("alice"))
        let emptyPassword = try ProxyURL.parse("http://bob@127.0.0.1:3128")
        #expect(emptyPassword.authorization == "Basic " + Data("bob:".utf8).base64EncodedString())
    }

    @Test func ipv6ProxyInBrackets() throws {
        let proxy = try ProxyURL.parse("http://[::1]:3128")
        #expect(proxy.host == "::1" && proxy.port == 3128)
        #expect(proxy.description == "http://[::1]:3128")
    }

    @Test func unsupportedSchemesAndShapesAreRefusedWithoutThePassword() {
        let refused: [(String, String)] = [
            ("https://u:hunter2@proxy:443", "https:// proxies (TLS to the proxy) are not supported"),
            ("socks5://u:hunter2@proxy:1080", "SOCKS proxies are not supported"),
            ("ftp://proxy:21", "is not a proxy scheme"),
            ("http://u:hunter2@proxy:3128/path", "without a path"),
            ("http://u:hunter2@proxy:3128?q", "without a path, query or fragment"),
            ("http://proxy:0", "the port must be from 1 to 65535"),
            ("http://proxy:65536", "the port must be from 1 to 65535"),
            ("http://", "not a proxy URL"),
        ]
        for (text, reason) in refused {
            do {
                _ = try ProxyURL.parse(text, source: "HTTPS_PROXY")
                Issue.record("'\(text)' was accepted")
            } catch {
                let message = "\(error)"
                #expect(message.hasPrefix("HTTPS_PROXY '"), "\(message)")
                #expect(message.contains(reason), "\(text): \(message)")
                #expect(!message.contains("hunter2"), "\(message)")
            }
        }
        #expect(ProxyURL.redacted("http://u:p@h:1") == "http://***@h:1")
        #expect(ProxyURL.redacted("u:p@h:1") == "***@h:1")
        // Everything up to the last '@' is hidden, even past a '/', '?' or '#' (issue #24): a
        // proxy URL has no path, so only a password can hold them there.
        #expect(ProxyURL.redacted("http://h:1/a@b") == "http://***@b")
    }

    /// Issue #24: a password holding '/', '?', '#' or '://' unencoded ends a URL parser's
    /// authority early; the refusal showed the whole URL, password in clear.
    @Test(arguments: ["hun/ter2", "hun?ter2", "hun#ter2", "hun://ter2", "hun/ter2@x/y"])
    func passwordsWithURLDelimitersAreNotShown(password: String) {
        for url in ["http://alice:\(password)@127.0.0.1:3128", "alice:\(password)@127.0.0.1:3128"] {
            do {
                let proxy = try ProxyURL.parse(url, source: "HTTPS_PROXY")
                #expect(!proxy.description.contains("ter2"), "\(proxy)")
            } catch {
                let message = "\(error)"
                #expect(message.hasPrefix("HTTPS_PROXY '"), "\(message)")
                #expect(!message.contains("ter2") && !message.contains("hun"), "\(message)")
                #expect(message.contains("***@"), "\(message)")
            }
        }
    }

    // MARK: - The environment, in curl's order

    @Test func environmentOrderIsHttpsProxyThenHTTPSProxyThenAllProxy() throws {
        func proxy(_ environment: [String: String]) throws -> String? {
            try ProxyConfiguration.resolve(proxyFlag: nil, noProxyFlag: nil, environment: environment).proxy?
                .description
        }
        #expect(try proxy([:]) == nil)
        #expect(try proxy(["HTTP_PROXY": "a:1", "http_proxy": "a:1"]) == nil, "http_proxy is for http:// URLs")
        #expect(try proxy(["https_proxy": "a:1", "HTTPS_PROXY": "b:2", "all_proxy": "c:3"]) == "http://a:1")
        #expect(try proxy(["HTTPS_PROXY": "b:2", "all_proxy": "c:3", "ALL_PROXY": "d:4"]) == "http://b:2")
        #expect(try proxy(["all_proxy": "c:3", "ALL_PROXY": "d:4"]) == "http://c:3")
        #expect(try proxy(["ALL_PROXY": "d:4"]) == "http://d:4")
        // The first variable set wins, even empty: no proxy.
        #expect(try proxy(["https_proxy": "", "HTTPS_PROXY": "b:2"]) == nil)
        let source = try ProxyConfiguration.resolve(
            proxyFlag: nil, noProxyFlag: nil, environment: ["HTTPS_PROXY": "b:2"]
        ).source
        #expect(source == "HTTPS_PROXY")
    }

    @Test func theFlagsOverrideTheEnvironment() throws {
        let environment = ["HTTPS_PROXY": "env:1", "NO_PROXY": "example.com", "no_proxy": "example.org"]
        let fromEnvironment = try ProxyConfiguration.resolve(
            proxyFlag: nil, noProxyFlag: nil, environment: environment)
        #expect(fromEnvironment.noProxy.entries == ["example.org"], "no_proxy is read before NO_PROXY")
        let flag = try ProxyConfiguration.resolve(proxyFlag: "flag:2", noProxyFlag: "", environment: environment)
        // The library names the setting in its own words; the CLI passes its flag's name.
        #expect(flag.proxy?.description == "http://flag:2" && flag.source == "the proxy URL")
        let named = try ProxyConfiguration.resolve(
            proxyFlag: "flag:2", noProxyFlag: "", environment: environment, flagName: "--proxy")
        #expect(named.source == "--proxy")
        let error = #expect(throws: ProxyURL.ParseError.self) {
            try ProxyConfiguration.resolve(
                proxyFlag: "https://p", noProxyFlag: nil, environment: [:], flagName: "--proxy")
        }
        #expect(
            error?.description.hasPrefix("--proxy 'https://p': https:// proxies") == true,
            "\(String(describing: error))")
        #expect(flag.noProxy.entries.isEmpty)
        let disabled = try ProxyConfiguration.resolve(proxyFlag: "", noProxyFlag: nil, environment: environment)
        #expect(disabled.proxy == nil)
        #expect(throws: ProxyURL.ParseError.self) {
            try ProxyConfiguration.resolve(proxyFlag: nil, noProxyFlag: nil, environment: ["HTTPS_PROXY": "https://p"])
        }
    }

    // MARK: - NO_PROXY

    @Test func namesMatchThemselvesAndBelowNeverASharedSuffix() {
        for list in ["example.com", ".example.com", "EXAMPLE.COM.", " other.org , .example.com"] {
            let noProxy = NoProxyList(list)
            #expect(noProxy.bypasses(host: "example.com"), "\(list)")
            #expect(noProxy.bypasses(host: "www.example.com"), "\(list)")
            #expect(noProxy.bypasses(host: "a.b.example.com."), "\(list)")
            #expect(noProxy.bypasses(host: "WWW.Example.Com"), "\(list)")
            #expect(!noProxy.bypasses(host: "badexample.com"), "\(list)")
            #expect(!noProxy.bypasses(host: "example.com.evil.org"), "\(list)")
            #expect(!noProxy.bypasses(host: "example.co"), "\(list)")
        }
        #expect(!NoProxyList("www.example.com").bypasses(host: "example.com"))
    }

    @Test func starAloneBypassesAllAndEmptyNone() {
        #expect(NoProxyList("*").bypasses(host: "anything.example"))
        #expect(NoProxyList("*").bypasses(host: "10.0.0.1"))
        #expect(!NoProxyList("").bypasses(host: "example.com"))
        #expect(!NoProxyList(",,").bypasses(host: "example.com"))
        // "*.example.com" is not a pattern curl knows: it matches nothing.
        #expect(!NoProxyList("*.example.com").bypasses(host: "www.example.com"))
    }

    @Test func portsPlayNoPart() {
        // An entry matches the host on any port; an entry with a port matches nothing (curl).
        #expect(NoProxyList("example.com").bypasses(host: "example.com"))
        #expect(!NoProxyList("example.com:8443").bypasses(host: "example.com"))
    }

    @Test func addressesMatchLiteralsAndCIDRRangesNeverNames() {
        let list = NoProxyList("127.0.0.1,10.0.0.0/8,::1,[fd00::]/8,192.168.1.0/24")
        #expect(list.bypasses(host: "127.0.0.1"))
        #expect(!list.bypasses(host: "127.0.0.2"))
        #expect(list.bypasses(host: "10.255.3.4"))
        #expect(!list.bypasses(host: "11.0.0.1"))
        #expect(list.bypasses(host: "192.168.1.255"))
        #expect(!list.bypasses(host: "192.168.2.0"))
        #expect(list.bypasses(host: "::1"))
        #expect(list.bypasses(host: "[::1]"))
        #expect(list.bypasses(host: "fdab::1"))
        #expect(!list.bypasses(host: "fe80::1"))
        // An IPv4 entry never matches an IPv6 host, nor an address a name.
        #expect(!NoProxyList("0.0.0.0/0").bypasses(host: "::1"))
        #expect(!NoProxyList("127.0.0.1").bypasses(host: "localhost"))
        #expect(!NoProxyList("10.0.0.0/33").bypasses(host: "10.0.0.1"), "a prefix longer than the address")
        #expect(NoProxyList("10.0.0.0/0").bypasses(host: "200.1.1.1"))
    }

    // MARK: - The route and the tunnel

    @Test func resolveAppliesToTheProxyNotToTheProxiedHost() throws {
        let configuration = AuditConfiguration(
            resolve: [
                try ResolveRule.parse("proxy.test:3128:127.0.0.9"), try ResolveRule.parse("a.test:443:127.0.0.7"),
            ],
            proxy: ProxyConfiguration(proxy: try ProxyURL.parse("proxy.test:3128"), noProxy: NoProxyList("b.test")))
        let proxied = ConnectionRoute(
            to: FetchTarget(host: "a.test", port: 443, path: "/"), configuration: configuration)
        #expect(proxied.connect == FetchTarget(host: "proxy.test", port: 3128, path: ""))
        #expect(proxied.address == "127.0.0.9")
        let bypassed = ConnectionRoute(
            to: FetchTarget(host: "b.test", port: 443, path: "/"), configuration: configuration)
        #expect(bypassed.proxy == nil && bypassed.connect.host == "b.test")
        // A refused connection to the proxy is the proxy's failure; to the domain, the domain's.
        #expect(proxied.connectFailure(.connection("refused")).isLocal)
        #expect(proxied.connectFailure(.connection("refused")).rule == HostingRules.localProxyFailure)
        #expect(!bypassed.connectFailure(.connection("refused")).isLocal)
    }
}
