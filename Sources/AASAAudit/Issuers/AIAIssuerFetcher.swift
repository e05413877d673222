import AASA
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Fetches the certificates that a certificate's authorityInfoAccess caIssuers URIs point to
/// (RFC 5280 §4.2.2.1), for a chain whose intermediate the signed file left out.
///
/// - Only `http://` and `https://` are fetched (a redirect too, at most
///   ``maximumRedirects``); `file:`, `ldap:` and every other scheme are refused unread.
/// - A body over ``maximumBytes`` is refused (at its Content-Length, or as soon as it grows
///   past it); a fetch that has no complete answer within ``timeout`` (connecting, redirects
///   and TLS included) is abandoned.
/// - The body may be DER, PKCS#7 certs-only (DER or PEM) or PEM; anything else is refused.
/// - Each URI is fetched at most once per fetcher: later asks, even at the same time from
///   other threads, get the first answer. `report` is called once per fetch made.
///
/// What comes back is whatever a server sent, over a connection anyone on the path may
/// answer: use the certificates only as **untrusted** intermediates, never as anchors. A
/// forged one can only fail to chain.
///
/// ``fetch(_:)`` blocks its caller: call it from a thread of your own, never an event loop.
public final class AIAIssuerFetcher: Sendable {
    /// At most this many bytes of body by default: a certificate is 1 to 2 KB, a bundle a few.
    public static let defaultMaximumBytes = 65_536
    /// The default time limit of one fetch, in seconds.
    public static let defaultTimeout: TimeInterval = 10
    /// Redirects followed at most.
    public static let maximumRedirects = 3

    /// The time limit of one fetch, redirects included, in seconds.
    public let timeout: TimeInterval
    /// The largest body read.
    public let maximumBytes: Int
    private let group: any EventLoopGroup
    private let report: @Sendable (IssuerFetch) -> Void
    /// Every fetch made or under way, by URI as the certificate gave it.
    private let fetches = NIOLockedValueBox<[String: EventLoopFuture<IssuerFetch>]>([:])

    /// - Parameters:
    ///   - timeout: The time limit of one fetch, in seconds (more than 0).
    ///   - maximumBytes: The largest body read.
    ///   - report: Called once for each fetch made (not for an answer from the cache), before
    ///     ``fetch(_:)`` returns it.
    public init(
        timeout: TimeInterval = defaultTimeout, maximumBytes: Int = defaultMaximumBytes,
        report: @escaping @Sendable (IssuerFetch) -> Void = { _ in }
    ) {
        precondition(timeout > 0 && maximumBytes > 0)
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        self.group = MultiThreadedEventLoopGroup.singleton
        self.report = report
    }

    /// The certificates at `uri`, fetched now or earlier by this fetcher. Blocks until done
    /// (at most ``timeout``); never throws: a failure is the fetch's outcome.
    public func fetch(_ uri: String) -> IssuerFetch {
        let (future, isNew) = fetches.withLockedValue { fetches -> (EventLoopFuture<IssuerFetch>, Bool) in
            if let known = fetches[uri] { return (known, false) }
            let started = start(uri)
            fetches[uri] = started
            return (started, true)
        }
        let fetch: IssuerFetch
        do {
            fetch = try future.wait()
        } catch {
            fetch = IssuerFetch(
                uri: uri, outcome: .failure(.connection("\(error)")), bytes: 0, format: nil, finalURI: nil)
        }
        if isNew { report(fetch) }
        return fetch
    }

    // MARK: One fetch

    private func start(_ uri: String) -> EventLoopFuture<IssuerFetch> {
        let eventLoop = group.next()
        switch IssuerURL.parse(uri) {
        case .failure(let failure):
            return eventLoop.makeSucceededFuture(
                IssuerFetch(uri: uri, outcome: .failure(failure), bytes: 0, format: nil, finalURI: nil))
        case .success(let url):
            let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout * 1e9))
            return follow(url, from: uri, redirects: 0, until: deadline, on: eventLoop)
        }
    }

    /// Gets `url`, and follows its redirects.
    private func follow(
        _ url: IssuerURL, from uri: String, redirects: Int, until deadline: NIODeadline, on eventLoop: any EventLoop
    ) -> EventLoopFuture<IssuerFetch> {
        let finalURI = redirects == 0 ? nil : url.text
        return get(url, until: deadline, on: eventLoop).flatMap { answer -> EventLoopFuture<IssuerFetch> in
            let outcome: Result<[X509Certificate], IssuerFetchFailure>
            var format: String?
            switch answer.status {
            case 200:
                switch IssuerCertificates.read(answer.body) {
                case .success(let read):
                    outcome = .success(read.certificates)
                    format = read.format
                case .failure(let failure):
                    outcome = .failure(failure)
                }
            case 301, 302, 303, 307, 308:
                guard let location = answer.location else {
                    outcome = .failure(.httpStatus(answer.status))
                    break
                }
                guard redirects < Self.maximumRedirects else {
                    outcome = .failure(.tooManyRedirects(Self.maximumRedirects))
                    break
                }
                switch url.resolving(location) {
                case .failure(let failure):
                    outcome = .failure(failure)
                case .success(let next):
                    return self.follow(next, from: uri, redirects: redirects + 1, until: deadline, on: eventLoop)
                }
            default:
                outcome = .failure(.httpStatus(answer.status))
            }
            return eventLoop.makeSucceededFuture(
                IssuerFetch(uri: uri, outcome: outcome, bytes: answer.body.count, format: format, finalURI: finalURI))
        }.flatMapError { error in
            let failed = error as? IssuerResponseHandler.Failed
            return eventLoop.makeSucceededFuture(
                IssuerFetch(
                    uri: uri, outcome: .failure(failed?.failure ?? .connection("\(error)")), bytes: failed?.bytes ?? 0,
                    format: nil, finalURI: finalURI))
        }
    }

    /// One GET of `url` on a connection of its own, answered by `deadline`.
    private func get(_ url: IssuerURL, until deadline: NIODeadline, on eventLoop: any EventLoop)
        -> EventLoopFuture<IssuerResponseHandler.Answer>
    {
        let promise = eventLoop.makePromise(of: IssuerResponseHandler.Answer.self)
        let timeout = self.timeout
        let remaining = deadline - .now()
        guard remaining > .zero else {
            promise.fail(IssuerResponseHandler.Failed(failure: .timedOut(timeout), bytes: 0))
            return promise.futureResult
        }
        let tls: NIOSSLContext?
        do {
            tls = url.isHTTPS ? try Self.tlsContext() : nil
        } catch {
            promise.fail(IssuerResponseHandler.Failed(failure: .connection("TLS set-up: \(error)"), bytes: 0))
            return promise.futureResult
        }
        let maximumBytes = self.maximumBytes
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(remaining)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls {
                        let isAddress = url.host.contains(":") || url.host.allSatisfy { $0.isNumber || $0 == "." }
                        try pipeline.addHandler(
                            try NIOSSLClientHandler(context: tls, serverHostname: isAddress ? nil : url.host))
                    }
                    try pipeline.addHTTPClientHandlers()
                    try pipeline.addHandler(IssuerResponseHandler(maximumBytes: maximumBytes, promise: promise))
                }
            }
        bootstrap.connect(host: url.host, port: url.port).whenComplete { result in
            switch result {
            case .failure(let error):
                let failure: IssuerFetchFailure
                if let channelError = error as? ChannelError, case .connectTimeout = channelError {
                    failure = .timedOut(timeout)
                } else {
                    // The first address's error ("Connection refused"), not the whole list.
                    let detail =
                        (error as? NIOConnectionError)?.connectionErrors.first.map { "\($0.error)" } ?? "\(error)"
                    failure = .connection("cannot connect to \(url.authority): \(detail)")
                }
                promise.fail(IssuerResponseHandler.Failed(failure: failure, bytes: 0))
            case .success(let channel):
                let handler = try? channel.pipeline.syncOperations.handler(type: IssuerResponseHandler.self)
                let bound = handler.map { NIOLoopBound($0, eventLoop: channel.eventLoop) }
                let timer = channel.eventLoop.scheduleTask(deadline: deadline) {
                    bound?.value.timeOut(after: timeout)
                }
                promise.futureResult.whenComplete { _ in timer.cancel() }
                var headers = HTTPHeaders()
                headers.add(name: "Host", value: url.authority)
                headers.add(name: "User-Agent", value: "aasa (caIssuers)")
                headers.add(name: "Accept", value: "application/pkix-cert, application/pkcs7-mime, */*")
                headers.add(name: "Connection", value: "close")
                let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: url.target, headers: headers)
                channel.write(HTTPClientRequestPart.head(head), promise: nil)
                channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            }
        }
        return promise.futureResult
    }

    /// TLS for `https://` caIssuers URIs: the system roots, the host name checked. (What comes
    /// over it is untrusted all the same; TLS only keeps the answer from the path.)
    private static func tlsContext() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.applicationProtocols = ["http/1.1"]
        configuration.shutdownTimeout = .milliseconds(250)
        return try NIOSSLContext(configuration: configuration)
    }
}
