import AASA
import Foundation
import NIOCore
import NIOPosix

/// Audits live deployments: fetches each domain's apple-app-site-association over HTTPS as
/// Apple does, and reports what is legacy or broken.
///
/// ```swift
/// let auditor = try Auditor(configuration: AuditConfiguration(checkCDN: true))
/// defer { auditor.shutdown() }
/// let report = try auditor.audit(AuditDomain.parse("example.com")).wait()
/// print(report.verdict, report.diagnostics.map(\.rule))
/// ```
///
/// Each domain's two paths are fetched on one event loop, on one connection when the server
/// keeps it open (the CDN copy at the same time, on its own); the file is then verified and
/// linted on a thread pool, off the event loops. Each distinct TLS server chain is checked once
/// per second of the clock, and each signer chain likewise (``ChainCache``). The auditor keeps
/// nothing about a domain once its report is returned. Call ``shutdown()`` when done.
public final class Auditor: Sendable {
    /// The two paths Apple's fetcher has used: `.well-known` (iOS 9.3 and later, and the CDN),
    /// then the root (iOS 9.0-9.2, and the fallback of later versions up to iOS 13).
    public static let paths = ["/.well-known/apple-app-site-association", "/apple-app-site-association"]

    public let configuration: AuditConfiguration
    /// What every report records of ``configuration`` (``DomainReport/settings``).
    public let settings: AuditSettings
    private let group: MultiThreadedEventLoopGroup
    private let threadPool: NIOThreadPool
    private let fetcher: HTTPSFetcher
    private let signatureVerifier: Verifier
    private let cdnBase: BaseURL?
    /// Looks each domain's name up once, on threads of its own (see ``HostResolver``).
    private let resolver: HostResolver
    /// The `--max-per-address` cap (nil: none).
    private let addressSlots: AddressSlots?
    /// How the name lookups of this auditor went, over all its domains.
    private let lookups = NameLookupTally()

    /// How the name lookups made so far went (those of the domains, and of the CDN's host
    /// with `--cdn`): counts over every domain audited, for saying once, at the end of a run,
    /// that no name resolved at all (``NameLookupCounts/noneResolvedMessage``).
    public var nameLookups: NameLookupCounts { lookups.current }

    /// Why an auditor cannot be made.
    public struct SetupError: Error, Sendable, CustomStringConvertible {
        /// Why the auditor cannot start, in the library's words.
        public let description: String
        /// The setting of ``AuditConfiguration`` at fault, when one is, for a front end to name
        /// in its own terms (the CLI says `--cdn-base-url`).
        public var setting: Setting?
        /// What ``setting`` holds that is wrong, without the setting's name.
        public var reason: String?

        public enum Setting: Sendable, Equatable {
            /// ``AuditConfiguration/cdnBaseURL``.
            case cdnBaseURL
        }
    }

    /// Loads the trust store and starts the event loops and the thread pool.
    /// - Throws: ``SetupError`` for an unusable CDN base URL or trust configuration, or when
    ///   the descriptors the event loops need are not free (the open-file limit).
    public init(configuration: AuditConfiguration) throws {
        self.configuration = configuration
        settings = configuration.settings()
        let trust: TrustStore
        do {
            trust = try TrustStore(configuration.trust)
        } catch let error as AASAError {
            throw SetupError(description: "cannot load the trust store: \(error.message)")
        }
        do {
            cdnBase = configuration.checkCDN ? try BaseURL(configuration.cdnBaseURL) : nil
        } catch let error as BaseURL.ParseError {
            throw SetupError(
                description: "the CDN base URL \(error.description)", setting: .cdnBaseURL, reason: error.description)
        }
        // An event loop that cannot get its descriptors (epoll, eventfd, timerfd) ends the
        // process inside SwiftNIO, and so does Dispatch, which makes its own three the first
        // time one of its worker threads starts (issue #15): make sure first that they, and one
        // connection, can be had. Then start Dispatch now rather than in ``shutdown()``
        // (SwiftNIO's shutdown runs on it), when a shortage may have taken every descriptor.
        let needed = 3 * configuration.threads + 3 + 1
        if let code = DescriptorShortage.check(count: needed) {
            throw SetupError(description: DescriptorShortage.startMessage(errno: code, needed: needed))
        }
        // The system bundle is read now, not on the first TLS check, when every descriptor
        // may be in use by the connections: it would then look empty (every chain untrusted).
        trust.preload()
        let dispatchStarted = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { dispatchStarted.signal() }
        dispatchStarted.wait()
        group = MultiThreadedEventLoopGroup(numberOfThreads: configuration.threads)
        threadPool = NIOThreadPool(numberOfThreads: configuration.threads)
        threadPool.start()
        resolver = HostResolver(threads: configuration.resolverThreads)
        addressSlots = configuration.maximumPerAddress.map(AddressSlots.init(limit:))
        do {
            fetcher = try HTTPSFetcher(group: group, configuration: configuration, trust: trust)
        } catch {
            try? group.syncShutdownGracefully()
            try? threadPool.syncShutdownGracefully()
            resolver.shutdown()
            throw SetupError(description: "cannot set up TLS: \(error)")
        }
        var signatureOptions = VerificationOptions(
            purpose: .sslServer, time: configuration.checkTime, limits: configuration.limits)
        signatureOptions.historical = configuration.historical
        signatureVerifier = Verifier(trust: trust, options: signatureOptions, chainCache: ChainCache())
    }

    /// Stops the event loops and the thread pool. Call it once, outside any event loop.
    public func shutdown() {
        try? group.syncShutdownGracefully()
        try? threadPool.syncShutdownGracefully()
        resolver.shutdown()
    }

    /// Audits one domain. The future never fails: every problem is a finding in the report.
    public func audit(_ domain: AuditDomain) -> EventLoopFuture<DomainReport> {
        let eventLoop = group.next()
        let startedAt = Date()
        let clock = NIODeadline.now()
        let checkTime = configuration.checkTime
        let verifier = signatureVerifier
        let captures = configuration.capturesResponse
        let settings = self.settings
        let cdnFetch = cdnBase.map { base in
            let target = base.url(for: domain)
            return route(host: target.host, port: target.port, cdn: true, on: eventLoop).flatMap { route in
                self.fetchCDN(target, route: route, on: eventLoop)
            }
        }
        let origin = route(domain, on: eventLoop).flatMap { route in
            self.fetchOrigin(domain, route: route, on: eventLoop)
        }
        let cdnResult: EventLoopFuture<FetchResult?> =
            cdnFetch.map { $0.map(Optional.some) }
            ?? eventLoop.makeSucceededFuture(nil)
        return origin.and(cdnResult).flatMap { paths, cdn in
            self.threadPool.runIfActive(eventLoop: eventLoop) {
                let analysis = DomainAnalysis(
                    domain: domain, wellKnown: paths[0], root: paths[1], cdn: cdn,
                    verifier: verifier, checkTime: checkTime ?? Date())
                var report = analysis.report(
                    startedAt: startedAt,
                    durationMs: (Double((NIODeadline.now() - clock).nanoseconds) / 1e5).rounded() / 10)
                if captures { report.captured = analysis.captured() }
                report.settings = settings
                return report
            }
        }.flatMapErrorThrowing { error in
            // Only a shut-down thread pool gets here.
            DomainReport(
                domain: domain.description, host: domain.host, port: domain.port, verdict: .broken, file: nil,
                paths: [],
                tls: nil, cdn: nil,
                diagnostics: [
                    AuditDiagnostic(HostingRules.connectionFailed, "the audit was stopped: \(error)", url: nil)
                ],
                startedAt: startedAt, durationMs: 0, settings: settings)
        }
    }

    /// Where the domain's origin requests go: the proxy, `--resolve`, or one lookup for all of them.
    func route(_ domain: AuditDomain, on eventLoop: any EventLoop) -> EventLoopFuture<DomainRoute> {
        route(host: domain.host, port: domain.port, cdn: false, on: eventLoop)
    }

    /// Where the requests to `host` go (a domain's origin, or the CDN's host for one domain):
    /// the proxy, `--resolve`, or one lookup for all of them, counted in ``nameLookups``.
    func route(host: String, port: Int, cdn: Bool, on eventLoop: any EventLoop) -> EventLoopFuture<DomainRoute> {
        if configuration.proxy.proxy(forHost: host) != nil {
            // The proxy looks the name up (CONNECT host:port); its address is not known here.
            return eventLoop.makeSucceededFuture(.proxied)
        }
        if let address = configuration.resolve.address(forHost: host, port: port) {
            return eventLoop.makeSucceededFuture(.configured(address))
        }
        let timeout = configuration.timeout
        let lookups = self.lookups
        return resolver.addresses(of: host, port: port, on: eventLoop, timeout: timeout)
            .map { found in
                lookups.resolved(cdn: cdn)
                return DomainRoute.addresses(found)
            }
            .recover { error in
                lookups.failed(error, cdn: cdn)
                return DomainRoute(lookupFailure: error, host: host, timeout: timeout)
            }
    }

    /// Fetches the CDN's copy by `route`: not requested when the CDN's host gave no address.
    private func fetchCDN(_ target: FetchTarget, route: DomainRoute, on eventLoop: any EventLoop)
        -> EventLoopFuture<FetchResult>
    {
        if let failure = route.failure {
            return eventLoop.makeSucceededFuture(FetchResult(unreachable: target, failure: failure))
        }
        var target = target
        target.addresses = route.lookedUp
        return fetcher.fetch(target, on: eventLoop)
    }

    /// Fetches the domain's two paths by `route` (on one connection where the server allows
    /// it; the CDN is another host, fetched on its own), holding its address's slot
    /// (`--max-per-address`) from before the first connection until both are done.
    private func fetchOrigin(
        _ domain: AuditDomain, route: DomainRoute, on eventLoop: any EventLoop
    ) -> EventLoopFuture<[FetchResult]> {
        let targets = Self.paths.map { path in
            FetchTarget(host: domain.host, port: domain.port, path: path, addresses: route.lookedUp)
        }
        if let failure = route.failure {
            return eventLoop.makeSucceededFuture(targets.map { FetchResult(unreachable: $0, failure: failure) })
        }
        // The two paths on one connection where the server allows it.
        guard let slots = addressSlots, let address = route.slotAddress else {
            return fetcher.fetch(targets[0], then: targets[1], on: eventLoop)
        }
        return slots.acquire(address, on: eventLoop).flatMap {
            let fetched = self.fetcher.fetch(targets[0], then: targets[1], on: eventLoop)
            fetched.whenComplete { _ in slots.release(address) }
            return fetched
        }
    }

    /// Audits one domain and calls `completion` with its report, on an event loop thread
    /// (see ``audit(_:)``): for callers that wait in their own way, such as a synchronous CLI.
    public func audit(_ domain: AuditDomain, completion: @escaping @Sendable (DomainReport) -> Void) {
        audit(domain).whenSuccess(completion)
    }

    /// Audits one domain (see ``audit(_:)``).
    public func report(for domain: AuditDomain) async -> DomainReport {
        // `audit(_:)` never fails.
        (try? await audit(domain).get())
            ?? DomainReport(
                domain: domain.description, host: domain.host, port: domain.port, verdict: .broken, file: nil,
                paths: [],
                tls: nil, cdn: nil, diagnostics: [], startedAt: Date(), durationMs: 0, settings: settings)
    }
}
