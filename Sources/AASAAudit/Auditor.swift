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
    private let group: MultiThreadedEventLoopGroup
    private let threadPool: NIOThreadPool
    private let fetcher: HTTPSFetcher
    private let signatureVerifier: Verifier
    private let cdnBase: BaseURL?

    /// Why an auditor cannot be made.
    public struct SetupError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Loads the trust store and starts the event loops and the thread pool.
    /// - Throws: ``SetupError`` for an unusable CDN base URL or trust configuration, or when
    ///   the descriptors the event loops need are not free (the open-file limit).
    public init(configuration: AuditConfiguration) throws {
        self.configuration = configuration
        let trust: TrustStore
        do {
            trust = try TrustStore(configuration.trust)
        } catch let error as AASAError {
            throw SetupError(description: "cannot load the trust store: \(error.message)")
        }
        do {
            cdnBase = configuration.checkCDN ? try BaseURL(configuration.cdnBaseURL) : nil
        } catch let error as BaseURL.ParseError {
            throw SetupError(description: "--cdn-base-url \(error.description)")
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
        do {
            fetcher = try HTTPSFetcher(group: group, configuration: configuration, trust: trust)
        } catch {
            try? group.syncShutdownGracefully()
            try? threadPool.syncShutdownGracefully()
            throw SetupError(description: "cannot set up TLS: \(error)")
        }
        signatureVerifier = Verifier(
            trust: trust,
            options: VerificationOptions(
                purpose: .sslServer, time: configuration.checkTime, limits: configuration.limits),
            chainCache: ChainCache())
    }

    /// Stops the event loops and the thread pool. Call it once, outside any event loop.
    public func shutdown() {
        try? group.syncShutdownGracefully()
        try? threadPool.syncShutdownGracefully()
    }

    /// Audits one domain. The future never fails: every problem is a finding in the report.
    public func audit(_ domain: AuditDomain) -> EventLoopFuture<DomainReport> {
        let eventLoop = group.next()
        let startedAt = Date()
        let clock = NIODeadline.now()
        // The two paths on one connection where the server allows it; the CDN is another host.
        let paths = fetcher.fetch(
            FetchTarget(host: domain.host, port: domain.port, path: Self.paths[0]),
            then: FetchTarget(host: domain.host, port: domain.port, path: Self.paths[1]), on: eventLoop)
        let fetches =
            cdnBase.map { base in
                paths.and(fetcher.fetch(base.url(for: domain), on: eventLoop)).map { $0.0 + [$0.1] }
            } ?? paths
        let checkTime = configuration.checkTime
        let verifier = signatureVerifier
        let checksCDN = cdnBase != nil
        return fetches.flatMap { results in
            self.threadPool.runIfActive(eventLoop: eventLoop) {
                let analysis = DomainAnalysis(
                    domain: domain, wellKnown: results[0], root: results[1], cdn: checksCDN ? results[2] : nil,
                    verifier: verifier, checkTime: checkTime ?? Date())
                return analysis.report(
                    startedAt: startedAt,
                    durationMs: (Double((NIODeadline.now() - clock).nanoseconds) / 1e5).rounded() / 10)
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
                startedAt: startedAt, durationMs: 0)
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
                tls: nil, cdn: nil, diagnostics: [], startedAt: Date(), durationMs: 0)
    }
}
