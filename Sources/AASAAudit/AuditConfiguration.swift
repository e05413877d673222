import AASA
import Foundation
import NIOCore

/// How ``Auditor`` fetches and judges each domain.
public struct AuditConfiguration: Sendable {
    /// Apple's CDN, which iOS 14 and later ask instead of the domain itself.
    public static let appleCDNBaseURL = "https://app-site-association.cdn-apple.com/a/v1/"

    /// The largest body read, in bytes: a little over Apple's 128 KB, so that a file just over
    /// the limit is still read, linted and reported with its size. Reading stops past it.
    public static let defaultMaximumBodySize = 131_072 + 4_096

    /// Trust for TLS server certificates and for signers: the system roots and/or extra anchors.
    public var trust: TrustConfiguration
    /// The time certificates are checked at (nil: now).
    public var checkTime: Date?
    /// The longest one request may take, connecting included.
    public var timeout: TimeInterval
    /// How many times a request that could not connect is tried again (never for TLS failures,
    /// HTTP answers or timeouts after connecting).
    public var retries: Int
    /// The pause before the first retry; it doubles for each further one.
    public var retryDelay: TimeInterval
    /// How long, in all, a request waits for a file descriptor when this machine has none free
    /// (EMFILE, ENFILE) before the domain is reported ``AuditVerdict/notAudited``. The waits
    /// are not retries: they never count against ``retries``.
    public var descriptorWait: TimeInterval
    /// Bytes read at most from one body (see ``defaultMaximumBodySize``).
    public var maximumBodySize: Int
    /// The JSON depth and certificate count allowed in a fetched file.
    public var limits: InputLimits
    /// Connections to these names go to these addresses (`--resolve`). With a proxy, a rule
    /// applies to the proxy's name, not to the proxied domains (as in curl).
    public var resolve: [ResolveRule]
    /// The HTTP proxy to tunnel through, and the hosts that bypass it.
    public var proxy: ProxyConfiguration
    /// Also fetch Apple's CDN copy and compare it with the origin's.
    public var checkCDN: Bool
    /// The CDN's base URL; the domain is appended (`--cdn-base-url`, for tests and mirrors).
    public var cdnBaseURL: String
    /// The `User-Agent` sent.
    public var userAgent: String
    /// Event-loop threads (default: one per core).
    public var threads: Int
    /// Name lookups in flight at once (each blocks a thread of the resolver's own pool).
    public var resolverThreads: Int
    /// Requests started per second at most over the whole run (`--rate`; nil: no limit), from
    /// ``rateRange`` (a rate outside it is taken as the nearer end).
    public var rate: Double?

    /// The rates ``rate`` may have: 0.001 (one request every 1,000 seconds) to 1,000,000 a second.
    public static var rateRange: ClosedRange<Double> { RequestPacer.rates }
    /// Domains in flight at one IP address at most (`--max-per-address`; nil: no cap).
    public var maximumPerAddress: Int?
    /// Legacy signed files (`--historical`): check a served file's signer chain as it was when
    /// signed, against this store of roots through time (``VerificationOptions/historical``).
    /// The TLS chain is never checked so. Nil (the default): off.
    public var historical: HistoricalTrustStore?
    /// Give each report what the domain served (``DomainReport/captured``: the body of the file
    /// iOS would use, the status line and headers, the TLS chain), for a caller that keeps it
    /// (`aasa audit --save`). False (the default): reports carry none of it.
    public var capturesResponse = false

    public init(
        trust: TrustConfiguration = TrustConfiguration(), checkTime: Date? = nil, timeout: TimeInterval = 10,
        retries: Int = 2, retryDelay: TimeInterval = 0.25, descriptorWait: TimeInterval = 10,
        maximumBodySize: Int = defaultMaximumBodySize,
        limits: InputLimits = .default, resolve: [ResolveRule] = [], proxy: ProxyConfiguration = .direct,
        checkCDN: Bool = false,
        cdnBaseURL: String = appleCDNBaseURL, userAgent: String = "aasa-audit",
        threads: Int = ProcessInfo.processInfo.activeProcessorCount, resolverThreads: Int = 64,
        rate: Double? = nil, maximumPerAddress: Int? = nil
    ) {
        self.trust = trust
        self.checkTime = checkTime
        self.timeout = timeout
        self.retries = retries
        self.retryDelay = retryDelay
        self.descriptorWait = descriptorWait
        self.maximumBodySize = maximumBodySize
        self.limits = limits
        self.resolve = resolve
        self.proxy = proxy
        self.checkCDN = checkCDN
        self.cdnBaseURL = cdnBaseURL
        self.userAgent = userAgent
        self.threads = max(1, threads)
        self.resolverThreads = max(1, resolverThreads)
        self.rate = rate
        self.maximumPerAddress = maximumPerAddress
    }
}

/// An `https://host[:port]/prefix/` base URL (the CDN's), split into its parts.
struct BaseURL: Sendable {
    var host: String
    var port: Int
    /// The path, ending in `/`.
    var path: String

    /// Why a base URL cannot be used.
    struct ParseError: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    init(_ text: String) throws {
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "https",
            let host = components.host, !host.isEmpty
        else {
            throw ParseError(description: "'\(text)' is not an https:// URL")
        }
        guard components.query == nil, components.fragment == nil, components.user == nil else {
            throw ParseError(description: "'\(text)': give a base URL without query, fragment or user")
        }
        self.host = host.lowercased()
        port = components.port ?? 443
        var path = components.percentEncodedPath
        if path.isEmpty { path = "/" }
        if !path.hasSuffix("/") { path += "/" }
        self.path = path
    }

    /// The URL for `domain` below this base (the host name only: Apple's CDN knows no ports).
    func url(for domain: AuditDomain) -> FetchTarget {
        FetchTarget(host: host, port: port, path: path + domain.host)
    }
}

/// One URL to fetch, already split.
struct FetchTarget: Sendable, Hashable {
    var host: String
    var port: Int
    var path: String
    /// The host's addresses, looked up once for the domain (nil: the fetcher looks it up, or
    /// `--resolve` names the address).
    var addresses: [SocketAddress]? = nil

    var authority: String { port == 443 ? host : "\(host):\(port)" }
    var url: String { "https://\(authority)\(path)" }
}
