import AASA
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Fetches `https://` URLs as Apple's fetcher does: no redirect followed, no cookies, no
/// compression asked for; a domain's two paths on one connection when the server keeps it open
/// (``fetch(_:then:on:)``), anything else on a connection of its own; SwiftNIO's HTTP/1.1 codec over NIOSSL, with a
/// verification callback that checks the server's chain with the `AASA` library (system roots
/// plus `--ca-file`, TLS-server purpose, the host name) and keeps it for the report.
final class HTTPSFetcher: Sendable {
    let group: any EventLoopGroup
    let configuration: AuditConfiguration
    private let sslContext: NIOSSLContext
    /// The server chains seen, each checked once per second of the clock; the host per
    /// connection.
    let serverChains: ServerChainCache
    /// How long a domain's second path waits to reuse the first's connection.
    let reuseWait: ReuseWait
    /// `--rate`: every request (a connection attempt, or a request on a kept connection)
    /// takes a slot first.
    let pacer: RequestPacer?

    init(group: any EventLoopGroup, configuration: AuditConfiguration, trust: TrustStore) throws {
        self.group = group
        self.configuration = configuration
        var tls = TLSConfiguration.makeClientConfiguration()
        // The verification callback below replaces BoringSSL's chain check and checks the host
        // itself, so BoringSSL needs no roots of its own.
        tls.certificateVerification = .noHostnameVerification
        tls.trustRoots = .certificates([])
        tls.applicationProtocols = ["http/1.1"]
        // Closing waits for the server's close_notify at most this long (NIOSSL's default is
        // 5 s, which a server that is still trickling a body never sends).
        tls.shutdownTimeout = .milliseconds(250)
        sslContext = try NIOSSLContext(configuration: tls)
        reuseWait = ReuseWait(timeout: configuration.timeout)
        pacer = configuration.rate.map(RequestPacer.init(rate:))
        serverChains = ServerChainCache(
            verifier: Verifier(
                trust: trust, options: VerificationOptions(purpose: .sslServer, time: configuration.checkTime)))
    }

    /// Fetches `target` on `eventLoop` on a connection of its own, trying again after
    /// connection errors. With `following` (the domain's next request, ``fetch(_:then:on:)``),
    /// the connection is asked to stay open: `following` is offered it once TLS is up, and a
    /// complete answer with nothing sent behind it leaves the connection open in the result's
    /// ``FetchResult/kept``, for the caller to reuse or close.
    func fetch(_ target: FetchTarget, following: FollowingRequest? = nil, on eventLoop: any EventLoop)
        -> EventLoopFuture<FetchResult>
    {
        if eventLoop.inEventLoop { return attempt(target, following: following, on: eventLoop, number: 1) }
        return eventLoop.flatSubmit { self.attempt(target, following: following, on: eventLoop, number: 1) }
    }

    /// One attempt, then what follows its failure: a wait for a file descriptor (the same
    /// attempt again, not counted as a retry, for at most `descriptorWait` in all), or a retry
    /// after a connection error.
    private func attempt(
        _ target: FetchTarget, following: FollowingRequest?, on eventLoop: any EventLoop, number: Int,
        waitingSince: NIODeadline? = nil
    ) -> EventLoopFuture<FetchResult> {
        paced(on: eventLoop) {
            self.attemptNow(target, following: following, on: eventLoop, number: number, waitingSince: waitingSince)
        }
    }

    /// Runs `start` once this request's `--rate` slot has come (at once without `--rate`);
    /// the request's timeout starts then, not while it waits.
    func paced(
        on eventLoop: any EventLoop, _ start: @escaping @Sendable () -> EventLoopFuture<FetchResult>
    ) -> EventLoopFuture<FetchResult> {
        guard let pacer else { return start() }
        let slot = pacer.reserve()
        if slot <= .now() { return start() }
        return eventLoop.flatScheduleTask(deadline: slot, start).futureResult
    }

    /// ``attempt(_:following:on:number:waitingSince:)`` once its slot has come.
    private func attemptNow(
        _ target: FetchTarget, following: FollowingRequest?, on eventLoop: any EventLoop, number: Int,
        waitingSince: NIODeadline?
    ) -> EventLoopFuture<FetchResult> {
        let promise = eventLoop.makePromise(of: FetchResult.self)
        let startedAt = NIODeadline.now()
        startAttempt(target, following: following, on: eventLoop, number: number, promise: promise)
        return promise.futureResult.flatMap { result in
            var result = result
            let since = waitingSince ?? startedAt
            let waited = Self.seconds(startedAt - since)
            if waitingSince != nil { result.descriptorWait = waited }
            if result.requestBehind, Self.mayBeLostToPipelining(result.failure) {
                // RFC 9112 §9.3.2: a client that pipelines retries the requests the connection
                // left unanswered. Again, alone (not a retry: --retries is for the domain's errors).
                return self.attempt(target, following: nil, on: eventLoop, number: number)
            }
            if case .descriptorLimit(let code, _) = result.failure {
                // No descriptor free on this machine: wait for one, with backoff (issue #15),
                // counted until now (the attempt that failed took time too), never past the limit.
                let waitedNow = Self.seconds(NIODeadline.now() - since)
                if let pause = Self.descriptorPause(after: waitedNow, within: self.configuration.descriptorWait) {
                    return eventLoop.flatScheduleTask(in: .seconds(clamping: pause)) {
                        self.attempt(
                            target, following: following, on: eventLoop, number: number, waitingSince: since)
                    }.futureResult
                }
                result.failure = .descriptorLimit(errno: code, waited: waitedNow)
                return eventLoop.makeSucceededFuture(result)
            }
            guard case .connection = result.failure, number <= self.configuration.retries else {
                return eventLoop.makeSucceededFuture(result)
            }
            let delay = self.configuration.retryDelay * pow(2, Double(number - 1))
            return eventLoop.flatScheduleTask(in: .seconds(clamping: delay)) {
                self.attempt(target, following: following, on: eventLoop, number: number + 1)
            }.futureResult
        }
    }

    /// The pause before trying again for a descriptor, after `waited` seconds of waiting:
    /// 10 ms doubling up to 250 ms, each shortened at random by up to half (`random`, from
    /// 0.5 to 1) so that the requests that wait do not all come back at once; and cut to what
    /// is left of `limit` (`--timeout`), so that the wait never runs past it (issue #24). Nil
    /// when nothing is left: the wait is over.
    static func descriptorPause(
        after waited: TimeInterval, within limit: TimeInterval, random: Double = Double.random(in: 0.5...1)
    ) -> TimeInterval? {
        guard waited < limit else { return nil }
        var pause = min(min(0.25, max(0.01, waited)) * random, limit - waited)
        while waited + pause > limit { pause = pause.nextDown }  // the subtraction's rounding
        return pause > 0 ? pause : nil
    }

    /// Whether `failure` is one a request sent behind could have caused: the connection closed
    /// or was reset before the answer was complete.
    static func mayBeLostToPipelining(_ failure: FetchFailure?) -> Bool {
        switch failure {
        case .connection, .interrupted: true
        default: false
        }
    }

    static func seconds(_ amount: TimeAmount) -> TimeInterval { Double(amount.nanoseconds) / 1e9 }

    private func startAttempt(
        _ target: FetchTarget, following: FollowingRequest?, on eventLoop: any EventLoop, number: Int,
        promise: EventLoopPromise<FetchResult>
    ) {
        // Directly, or through a CONNECT tunnel (ProxyConfiguration.swift): --resolve applies
        // to the host connected to.
        let route = ConnectionRoute(to: target, configuration: configuration)
        let state = FetchState(
            target: target, attempt: number, promise: promise, maximumBodySize: configuration.maximumBodySize,
            userAgent: configuration.userAgent, timeout: configuration.timeout, route: route, following: following)
        let boundState = NIOLoopBound(state, eventLoop: eventLoop)
        state.startTimer(on: eventLoop)
        openConnection(for: state, route: route, on: eventLoop).whenComplete { result in
            let state = boundState.value
            switch result {
            case .success(let channel):
                state.channel = channel
                if state.isFinished { channel.close(promise: nil) }
            case .failure(let tunnel as ProxyTunnelError):
                // The proxy's answer to the CONNECT says whose failure it is.
                state.finish(failure: tunnel.failure)
            case .failure(let error):
                state.finish(
                    failure: route.connectFailure(Self.classifyConnectError(error, target: route.connect, state: state))
                )
            }
        }
    }

    /// The one place a connection is made: TCP to the `--resolve` address, the addresses looked
    /// up for the domain (``HostResolver``) or the name, or to the proxy; through a proxy, the
    /// CONNECT tunnel (``ProxyTunnelHandler``); then TLS (with the verification callback) and
    /// HTTP/1.1 on it; the request goes out when the handshake completes (``FetchHandler``).
    /// Fails with the connect error or the tunnel's ``ProxyTunnelError``.
    private func openConnection(
        for state: FetchState, route: ConnectionRoute, on eventLoop: any EventLoop
    ) -> EventLoopFuture<any Channel> {
        let target = state.target
        let tunnelOpened = route.proxy == nil ? nil : eventLoop.makePromise(of: Void.self)
        let tunnel = route.tunnel(to: target, userAgent: configuration.userAgent)
        var bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(.seconds(clamping: configuration.timeout))
            // At the TCP level: `.socketOption(.tcp_nodelay)` would be SOL_SOCKET's option 1,
            // SO_DEBUG, which only CAP_NET_ADMIN may set, so every connect of a user without it
            // failed with EACCES (AuditUnprivilegedTests).
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
        if let tunnel, let tunnelOpened {
            bootstrap = bootstrap.channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ProxyTunnelHandler(tunnel, opened: tunnelOpened))
                }
            }
        }
        let connected: EventLoopFuture<any Channel>
        if let address = state.address {
            do {
                connected = bootstrap.connect(to: try SocketAddress(ipAddress: address, port: route.connect.port))
            } catch {
                // Never connected: the tunnel handler never ran.
                tunnelOpened?.fail(AddressError(address: address, error: error))
                return eventLoop.makeFailedFuture(AddressError(address: address, error: error))
            }
        } else if route.proxy == nil, let addresses = target.addresses {
            // Looked up once for the domain (HostResolver): Happy Eyeballs over those, no lookup.
            connected = bootstrap.resolver(ResolvedAddresses(addresses: addresses, eventLoop: eventLoop))
                .connect(host: target.host, port: target.port)
        } else {
            connected = bootstrap.connect(host: route.connect.host, port: route.connect.port)
        }
        // Never connected: the tunnel handler never ran.
        connected.whenFailure { tunnelOpened?.fail($0) }
        let boundState = NIOLoopBound(state, eventLoop: eventLoop)
        return connected.flatMap { channel in
            boundState.value.channel = channel
            if let remote = channel.remoteAddress?.ipAddress { boundState.value.remoteAddress = remote }
            // Through a proxy, connected means the tunnel is open.
            let open = tunnelOpened?.futureResult ?? eventLoop.makeSucceededVoidFuture()
            return open.flatMapErrorThrowing { error in
                channel.close(promise: nil)
                throw error
            }.flatMapThrowing { _ in
                let state = boundState.value
                state.connectedAt = .now()
                guard !state.isFinished else { return channel }  // timed out meanwhile: closed by the caller
                do {
                    try self.startTLS(on: channel, for: state)
                } catch {
                    channel.close(promise: nil)
                    throw error
                }
                return channel
            }
        }
    }

    /// Adds TLS (which starts the handshake on the connected channel), HTTP/1.1 and the
    /// request handler to `channel`.
    private func startTLS(on channel: any Channel, for state: FetchState) throws {
        let host = state.target.host
        let chains = serverChains
        let boundState = NIOLoopBound(state, eventLoop: channel.eventLoop)
        let tlsHandler = try NIOSSLClientHandler(
            context: sslContext, serverHostname: host,
            customVerificationCallback: { certificates, verdict in
                let observation = chains.observe(certificates, host: host)
                boundState.value.tls = observation
                verdict.succeed(observation.report.verified ? .certificateVerified : .failed)
            })
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(tlsHandler)
        try sync.addHTTPClientHandlers()
        try sync.addHandler(FetchHandler(state: state))
    }

    /// An address from `--resolve` that SwiftNIO cannot use.
    struct AddressError: Error {
        let address: String
        let error: any Error
    }

    private static func classifyConnectError(_ error: any Error, target: FetchTarget, state: FetchState) -> FetchFailure
    {
        if let bad = error as? AddressError {
            return .connection("cannot use the address \(bad.address): \(bad.error)")
        }
        // This machine's limit first: a socket that could not be made says nothing of the domain.
        if let code = DescriptorShortage.code(in: error) { return .descriptorLimit(errno: code, waited: 0) }
        if let channelError = error as? ChannelError, case .connectTimeout = channelError {
            return .timeout("no connection to \(target.authority) within the timeout")
        }
        if let connection = error as? NIOConnectionError {
            if connection.dnsAError != nil || connection.dnsAAAAError != nil || connection.connectionErrors.isEmpty {
                // getaddrinfo's code does not tell a lookup that had no descriptor for its socket.
                if let code = DescriptorShortage.probe() { return .descriptorLimit(errno: code, waited: 0) }
                return .connection("\(target.host) does not resolve")
            }
            let reasons = connection.connectionErrors.map {
                "\($0.target.ipAddress ?? "?"): \(FetchFailure.describe($0.error))"
            }
            return .connection("cannot connect to \(target.authority) (\(reasons.joined(separator: "; ")))")
        }
        let place = state.address.map { "\($0) port \(target.port)" } ?? target.authority
        return .connection("cannot connect to \(place): \(FetchFailure.describe(error))")
    }
}
