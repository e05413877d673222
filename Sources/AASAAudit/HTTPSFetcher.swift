import AASA
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOTLS

/// Fetches `https://` URLs one connection each, as Apple's fetcher does: no redirect followed,
/// no cookies, no compression asked for; SwiftNIO's HTTP/1.1 codec over NIOSSL, with a
/// verification callback that checks the server's chain with the `AASA` library (system roots
/// plus `--ca-file`, TLS-server purpose, the host name) and keeps it for the report.
final class HTTPSFetcher: Sendable {
    let group: any EventLoopGroup
    let configuration: AuditConfiguration
    private let sslContext: NIOSSLContext
    /// Checks TLS chains: purpose TLS server; the host is set per connection.
    private let verifier: Verifier
    /// `--rate`: every attempt (a connection and its request) takes a slot first.
    private let pacer: RequestPacer?

    init(group: any EventLoopGroup, configuration: AuditConfiguration, trust: TrustStore) throws {
        self.group = group
        self.configuration = configuration
        pacer = configuration.rate.map(RequestPacer.init(rate:))
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
        verifier = Verifier(
            trust: trust, options: VerificationOptions(purpose: .sslServer, time: configuration.checkTime))
    }

    /// Fetches `target` on `eventLoop`, trying again after connection errors.
    func fetch(_ target: FetchTarget, on eventLoop: any EventLoop) -> EventLoopFuture<FetchResult> {
        if eventLoop.inEventLoop { return attempt(target, on: eventLoop, number: 1) }
        return eventLoop.flatSubmit { self.attempt(target, on: eventLoop, number: 1) }
    }

    /// One attempt, then what follows its failure: a wait for a file descriptor (the same
    /// attempt again, not counted as a retry, for at most `descriptorWait` in all), or a retry
    /// after a connection error.
    private func attempt(
        _ target: FetchTarget, on eventLoop: any EventLoop, number: Int, waitingSince: NIODeadline? = nil
    ) -> EventLoopFuture<FetchResult> {
        if let pacer {
            // Wait for this request's slot under --rate; its timeout starts after.
            let slot = pacer.reserve()
            if slot > .now() {
                return eventLoop.flatScheduleTask(deadline: slot) {
                    self.attemptNow(target, on: eventLoop, number: number, waitingSince: waitingSince)
                }.futureResult
            }
        }
        return attemptNow(target, on: eventLoop, number: number, waitingSince: waitingSince)
    }

    /// ``attempt(_:on:number:waitingSince:)`` once its `--rate` slot has come.
    private func attemptNow(
        _ target: FetchTarget, on eventLoop: any EventLoop, number: Int, waitingSince: NIODeadline?
    ) -> EventLoopFuture<FetchResult> {
        let promise = eventLoop.makePromise(of: FetchResult.self)
        let startedAt = NIODeadline.now()
        startAttempt(target, on: eventLoop, number: number, promise: promise)
        return promise.futureResult.flatMap { result in
            var result = result
            let since = waitingSince ?? startedAt
            let waited = Self.seconds(startedAt - since)
            if waitingSince != nil { result.descriptorWait = waited }
            if case .descriptorLimit(let code, _) = result.failure {
                // No descriptor free on this machine: wait for one, with backoff (issue #15).
                let pause = Self.descriptorPause(after: waited)
                if waited + pause <= self.configuration.descriptorWait {
                    return eventLoop.flatScheduleTask(in: .nanoseconds(Int64(pause * 1e9))) {
                        self.attempt(target, on: eventLoop, number: number, waitingSince: since)
                    }.futureResult
                }
                result.failure = .descriptorLimit(errno: code, waited: waited)
                return eventLoop.makeSucceededFuture(result)
            }
            guard case .connection = result.failure, number <= self.configuration.retries else {
                return eventLoop.makeSucceededFuture(result)
            }
            let delay = self.configuration.retryDelay * pow(2, Double(number - 1))
            return eventLoop.flatScheduleTask(in: .nanoseconds(Int64(delay * 1e9))) {
                self.attempt(target, on: eventLoop, number: number + 1)
            }.futureResult
        }
    }

    /// The pause before trying again for a descriptor, after `waited` seconds of waiting:
    /// 10 ms doubling up to 250 ms, each shortened at random by up to half so that the
    /// requests that wait do not all come back at once.
    static func descriptorPause(after waited: TimeInterval) -> TimeInterval {
        min(0.25, max(0.01, waited)) * Double.random(in: 0.5...1)
    }

    static func seconds(_ amount: TimeAmount) -> TimeInterval { Double(amount.nanoseconds) / 1e9 }

    private func startAttempt(
        _ target: FetchTarget, on eventLoop: any EventLoop, number: Int, promise: EventLoopPromise<FetchResult>
    ) {
        // Directly, or through a CONNECT tunnel (ProxyConfiguration.swift): --resolve applies
        // to the host connected to.
        let route = ConnectionRoute(to: target, configuration: configuration)
        let tunnel = route.tunnel(to: target, userAgent: configuration.userAgent)
        let address = route.address
        let state = FetchState(
            target: target, attempt: number, promise: promise, maximumBodySize: configuration.maximumBodySize,
            userAgent: configuration.userAgent, timeout: configuration.timeout, address: address)
        state.route = route
        let boundState = NIOLoopBound(state, eventLoop: eventLoop)
        let sslContext = self.sslContext
        var verifier = self.verifier
        verifier.options.hostname = target.host
        let chainVerifier = verifier
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(.nanoseconds(Int64(configuration.timeout * 1e9)))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                let state = boundState.value
                do {
                    let tlsHandler = try NIOSSLClientHandler(
                        context: sslContext, serverHostname: target.host,
                        customVerificationCallback: { certificates, verdict in
                            let observation = Self.inspect(certificates, with: chainVerifier)
                            state.tls = observation
                            verdict.succeed(observation.report.verified ? .certificateVerified : .failed)
                        })
                    let sync = channel.pipeline.syncOperations
                    if let tunnel { try sync.addHandler(ProxyTunnelHandler(tunnel)) }
                    try sync.addHandler(tlsHandler)
                    try sync.addHTTPClientHandlers()
                    try sync.addHandler(FetchHandler(state: state))
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
        state.startTimer(on: eventLoop)
        let connected: EventLoopFuture<any Channel>
        if let address {
            do {
                connected = bootstrap.connect(to: try SocketAddress(ipAddress: address, port: route.connect.port))
            } catch {
                state.finish(failure: route.connectFailure(.connection("cannot use the address \(address): \(error)")))
                return
            }
        } else if route.proxy == nil, let addresses = target.addresses {
            // Looked up once for the domain (HostResolver): Happy Eyeballs over those, no lookup.
            connected = bootstrap.resolver(ResolvedAddresses(addresses: addresses, eventLoop: eventLoop))
                .connect(host: target.host, port: target.port)
        } else {
            connected = bootstrap.connect(host: route.connect.host, port: route.connect.port)
        }
        connected.whenComplete { result in
            let state = boundState.value
            switch result {
            case .success(let channel):
                state.channel = channel
                state.remoteAddress = channel.remoteAddress?.ipAddress ?? state.remoteAddress
                if state.isFinished { channel.close(promise: nil) }
            case .failure(let error):
                state.finish(
                    failure: route.connectFailure(Self.classifyConnectError(error, target: route.connect, state: state))
                )
            }
        }
    }

    /// Checks the chain the server sent, as the verification callback's answer.
    private static func inspect(_ certificates: [NIOSSLCertificate], with verifier: Verifier) -> TLSObservation {
        var loaded: [X509Certificate] = []
        for certificate in certificates {
            guard let der = try? certificate.toDERBytes(), let parsed = try? X509Certificate.load(from: Data(der))
            else {
                continue
            }
            loaded += parsed
        }
        let result = verifier.verifyChain(loaded)
        let report = TLSReport(
            verified: result.isValid, verdict: result.verdict.code,
            reason: result.isValid ? nil : TLSWording.reason(result.verdict, host: verifier.options.hostname ?? ""),
            version: nil, chain: loaded.map { CertificateSummary($0.info) })
        let publicKey = try? certificates.first?.extractPublicKey().toSPKIBytes()
        // An anchor file that could not be opened looks like a missing anchor (issue #15).
        let shortage = result.verdict.code == "untrusted" ? DescriptorShortage.probe() : nil
        return TLSObservation(
            report: report, leaf: loaded.first, leafPublicKey: publicKey, descriptorShortage: shortage)
    }

    private static func classifyConnectError(_ error: any Error, target: FetchTarget, state: FetchState) -> FetchFailure
    {
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
            let reasons = connection.connectionErrors.map { "\($0.target.ipAddress ?? "?"): \(describe($0.error))" }
            return .connection("cannot connect to \(target.authority) (\(reasons.joined(separator: "; ")))")
        }
        let place = state.address.map { "\($0) port \(target.port)" } ?? target.authority
        return .connection("cannot connect to \(place): \(describe(error))")
    }

    /// A short text for an I/O error: strerror for errno values.
    static func describe(_ error: any Error) -> String {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        return "\(error)"
    }
}

// MARK: - One attempt: its state and its channel handler, private to the fetcher

/// One attempt's state, on its event loop only.
private final class FetchState {
    let target: FetchTarget
    let attempt: Int
    let promise: EventLoopPromise<FetchResult>
    let maximumBodySize: Int
    let userAgent: String
    let timeout: TimeInterval
    let address: String?
    let started = NIODeadline.now()

    var remoteAddress: String?
    var channel: (any Channel)?
    var tls: TLSObservation?
    var tlsVersion: String?
    var connectedAt: NIODeadline?
    var handshakeAt: NIODeadline?
    var headAt: NIODeadline?
    var head: HTTPResponseHead?
    var body = Data()
    var truncated = false
    var isFinished = false
    var timer: Scheduled<Void>?
    /// Direct or through a proxy (then the address is the proxy's and is not reported, and a
    /// timeout before the tunnel is open names the proxy).
    var route: ConnectionRoute?

    init(
        target: FetchTarget, attempt: Int, promise: EventLoopPromise<FetchResult>, maximumBodySize: Int,
        userAgent: String, timeout: TimeInterval, address: String?
    ) {
        self.target = target
        self.attempt = attempt
        self.promise = promise
        self.maximumBodySize = maximumBodySize
        self.userAgent = userAgent
        self.timeout = timeout
        self.address = address
        remoteAddress = address
    }

    func startTimer(on eventLoop: any EventLoop) {
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        timer = eventLoop.scheduleTask(deadline: started + .nanoseconds(Int64(timeout * 1e9))) {
            bound.value.timedOut()
        }
    }

    private func milliseconds(_ deadline: NIODeadline?) -> Double? {
        guard let deadline else { return nil }
        return (Double((deadline - started).nanoseconds) / 1e5).rounded() / 10
    }

    private func timedOut() {
        guard !isFinished else { return }
        let seconds = timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)
        let phase: String
        if connectedAt == nil, let failure = route?.timeoutBeforeTunnel(seconds: seconds, connected: channel != nil) {
            finish(failure: failure)
            return
        } else if connectedAt == nil {
            phase = "connecting"
        } else if handshakeAt == nil {
            phase = "the TLS handshake"
        } else if head == nil {
            phase = "waiting for the response"
        } else {
            phase = "reading the body (\(body.count) bytes so far)"
        }
        finish(failure: .timeout("no complete answer within \(seconds) s: gave up while \(phase)"))
    }

    /// Completes the attempt once; later calls do nothing. Closes the connection.
    func finish(failure: FetchFailure? = nil) {
        guard !isFinished else { return }
        isFinished = true
        timer?.cancel()
        channel?.close(promise: nil)
        var response: FetchedResponse?
        if let head {
            response = FetchedResponse(
                status: Int(head.status.code), headers: head.headers, body: body, truncated: truncated)
        }
        if var observed = tls {
            observed.report.version = tlsVersion
            tls = observed
        }
        let timings = PathReport.Timings(
            connectMs: milliseconds(connectedAt), tlsMs: milliseconds(handshakeAt), firstByteMs: milliseconds(headAt),
            totalMs: milliseconds(.now()) ?? 0)
        promise.succeed(
            FetchResult(
                target: target, address: route?.proxy == nil ? remoteAddress : nil, attempts: attempt, timings: timings,
                tls: tls,
                response: response, failure: failure))
    }
}

/// Sends the GET once TLS is up, and collects the answer up to the size cap.
private final class FetchHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let state: FetchState

    init(state: FetchState) {
        self.state = state
    }

    func channelActive(context: ChannelHandlerContext) {
        state.connectedAt = .now()
        state.channel = context.channel
        if let remote = context.channel.remoteAddress?.ipAddress { state.remoteAddress = remote }
        context.fireChannelActive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let tlsEvent = event as? TLSUserEvent, case .handshakeCompleted = tlsEvent {
            state.handshakeAt = .now()
            if let handler = try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self) {
                state.tlsVersion = handler.tlsVersion.map(Self.name)
            }
            sendRequest(context: context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func sendRequest(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: state.target.authority)
        headers.add(name: "User-Agent", value: state.userAgent)
        headers.add(name: "Accept", value: "*/*")
        headers.add(name: "Connection", value: "close")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: state.target.path, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !state.isFinished else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            state.headAt = .now()
            state.head = head
            if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > state.maximumBodySize
            {
                // Announced over the cap: nothing worth reading.
                state.truncated = true
                state.finish()
            }
        case .body(var buffer):
            let room = state.maximumBodySize - state.body.count
            if buffer.readableBytes > room {
                if room > 0, let bytes = buffer.readBytes(length: room) { state.body.append(contentsOf: bytes) }
                state.truncated = true
                state.finish()
            } else if let bytes = buffer.readBytes(length: buffer.readableBytes) {
                state.body.append(contentsOf: bytes)
            }
        case .end:
            state.finish()
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !state.isFinished else { return }
        if let ssl = error as? NIOSSLError, case .uncleanShutdown = ssl, state.head != nil {
            // Closed without close_notify after the answer started: the HTTP decoder ends a
            // close-delimited body on channelInactive, which decides.
            return
        }
        state.finish(failure: classify(error))
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !state.isFinished {
            if state.head != nil {
                state.finish(failure: .interrupted("the connection closed after \(state.body.count) bytes of the body"))
            } else if state.handshakeAt == nil, let code = state.tls?.descriptorShortage {
                state.finish(failure: .descriptorLimit(errno: code, waited: 0))
            } else if state.handshakeAt == nil, let tls = state.tls, !tls.report.verified {
                state.finish(failure: .tls(tls.report.reason ?? tls.report.verdict))
            } else if state.handshakeAt == nil {
                state.finish(failure: .connection("the server closed the connection during the TLS handshake"))
            } else {
                state.finish(failure: .connection("the server closed the connection without answering"))
            }
        }
        context.fireChannelInactive()
    }

    private func classify(_ error: any Error) -> FetchFailure {
        if let tunnel = error as? ProxyTunnelError { return tunnel.failure }
        if let code = DescriptorShortage.code(in: error) { return .descriptorLimit(errno: code, waited: 0) }
        if state.handshakeAt == nil {
            if let code = state.tls?.descriptorShortage { return .descriptorLimit(errno: code, waited: 0) }
            if let tls = state.tls, !tls.report.verified {
                return .tls(tls.report.reason ?? tls.report.verdict)
            }
            if let ssl = error as? NIOSSLError {
                return .tls("the TLS handshake failed: \(ssl)")
            }
            if error is BoringSSLError {
                return .tls("the TLS handshake failed: \(error)")
            }
            return .connection(
                "the connection failed before the TLS handshake finished: \(HTTPSFetcher.describe(error))")
        }
        if state.head == nil {
            if error is HTTPParserError {
                return .interrupted("the answer is not HTTP/1.1: \(error)")
            }
            return .connection("the connection failed before an answer: \(HTTPSFetcher.describe(error))")
        }
        return .interrupted(
            "the connection failed after \(state.body.count) bytes of the body: \(HTTPSFetcher.describe(error))")
    }

    private static func name(_ version: TLSVersion) -> String {
        switch version {
        case .tlsv1: return "TLSv1.0"
        case .tlsv11: return "TLSv1.1"
        case .tlsv12: return "TLSv1.2"
        case .tlsv13: return "TLSv1.3"
        }
    }
}
