import AASA
import Foundation
import NIOHTTP1
import Testing

@testable import AASAAudit

/// A domain's two paths share one connection when the server keeps it open, and get one each
/// when it does not; each path's report says which.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct ConnectionReuseTests {
    func auditor(timeout: TimeInterval = 5) throws -> Auditor {
        let anchors = try X509Certificate.load(
            from: Data(contentsOf: URL(fileURLWithPath: TestPaths.cert("ca-bundle.pem"))))
        return try Auditor(
            configuration: AuditConfiguration(
                trust: TrustConfiguration(useSystemRoots: false, anchors: anchors), timeout: timeout, retries: 0,
                resolve: [ResolveRule(host: "*", port: nil, address: "127.0.0.1")], threads: 2))
    }

    /// One request in the connection log.
    struct Request {
        var connection: Int
        /// Its number on its connection (1 for the first).
        var request: Int
        var path: String
        /// When nginx received it, in Unix seconds.
        var start: Double
    }

    /// The connection log's lines for `host`.
    func logged(_ server: NginxServer, _ host: NginxServer.Host) throws -> [Request] {
        let text = try String(contentsOf: server.connectionLog, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 6, fields[2] == host.rawValue, let connection = Int(fields[0]),
                let request = Int(fields[1]), let end = Double(fields[4]), let taken = Double(fields[5])
            else { return nil }
            return Request(connection: connection, request: request, path: fields[3], start: end - taken)
        }
    }

    /// ``logged(_:_:)`` once it has `count` lines, or after 10 s (nginx logs a request when it
    /// is done with its connection, which may be after the audit's report).
    func logged(_ server: NginxServer, _ host: NginxServer.Host, count: Int) async throws -> [Request] {
        var requests = try logged(server, host)
        let deadline = Date().addingTimeInterval(10)
        while requests.count < count, Date() < deadline {
            try await Task.sleep(nanoseconds: 50_000_000)
            requests = try logged(server, host)
        }
        return requests
    }

    @Test func bothPathsGoOnOneConnectionWhenNginxKeepsItOpen() async throws {
        try await withNginx { server in
            let auditor = try auditor()
            defer { auditor.shutdown() }
            let report = await auditor.report(for: try AuditDomain.parse(server.domain(.keepAlive)))
            #expect(report.verdict == .current, "\(report.diagnostics)")
            try #require(report.paths.count == 2)
            let (first, second) = (report.paths[0], report.paths[1])
            #expect(first.status == 200 && second.status == 404)
            #expect(!first.reusedConnection && second.reusedConnection)
            #expect(first.timings.connectMs != nil && first.timings.tlsMs != nil)
            #expect(second.timings.connectMs == nil && second.timings.tlsMs == nil)
            #expect(second.timings.firstByteMs != nil)
            #expect(second.address == "127.0.0.1" && second.error == nil && second.attempts == 1)
            #expect(report.tls?.verified == true)
            let requests = try await logged(server, .keepAlive, count: 2)
            try #require(requests.count == 2, "\(requests)")
            #expect(requests[0].connection == requests[1].connection)
            #expect(requests.map(\.request) == [1, 2])
            #expect(requests.map(\.path) == Auditor.paths)
        }
    }

    @Test func anAnswerCutAtTheSizeCapIsNotFollowedOnItsConnection() async throws {
        try await withNginx { server in
            let auditor = try auditor()
            defer { auditor.shutdown() }
            let report = await auditor.report(for: try AuditDomain.parse(server.domain(.large)))
            try #require(report.paths.count == 2)
            #expect(report.paths[0].truncated)
            #expect(report.paths[1].status == 404 && report.paths[1].error == nil)
            #expect(!report.paths[1].reusedConnection)
            #expect(report.paths[1].timings.tlsMs != nil)
        }
    }

    @Test func theTextReportSaysWhichPathReusedTheConnection() throws {
        try withNginx { server in
            let result = TestProcess.aasa(["audit", server.domain(.keepAlive)] + server.auditOptions)
            #expect(result.status == 0, "\(result)")
            let lines = result.stdoutText.split(separator: "\n").filter {
                $0.contains("on the connection of the request before")
            }
            #expect(lines.count == 1, "\(result.stdoutText)")
            #expect(lines.first?.contains("connect ") == false)
        }
    }

    @Test func anAnswerWithConnectionCloseGivesTheSecondPathItsOwnConnection() async throws {
        try await withNginx { server in
            let auditor = try auditor()
            defer { auditor.shutdown() }
            let report = await auditor.report(for: try AuditDomain.parse(server.domain(.closing)))
            #expect(report.verdict == .current, "\(report.diagnostics)")
            try #require(report.paths.count == 2)
            let (first, second) = (report.paths[0], report.paths[1])
            #expect(first.status == 200 && second.status == 404)
            #expect(!first.reusedConnection && !second.reusedConnection)
            #expect(second.timings.connectMs != nil && second.timings.tlsMs != nil)
            #expect(second.error == nil && second.attempts == 1)
            let requests = try await logged(server, .closing, count: 2)
            try #require(requests.count == 2, "\(requests)")
            #expect(requests[0].connection != requests[1].connection)
            #expect(requests.map(\.request) == [1, 1])
            #expect(Set(requests.map(\.path)) == Set(Auditor.paths))
        }
    }

    /// A TLS server that never answers `/.well-known/…` (a stalled backend) and answers anything
    /// else with `404`; each connection in a thread of its own. It logs `CONNECTION PATH SECONDS`
    /// (Unix time) for each request it reads, and reads only the first request of a connection.
    /// With `answerBegins`, the `/.well-known/…` answer begins (its head and 10 of 100 bytes)
    /// before it stalls.
    static func stallingServer(answerBegins: Bool = false) -> String {
        stallingServerScript.replacingOccurrences(of: "BEGINS", with: answerBegins ? "True" : "False")
    }

    private static let stallingServerScript = #"""
        import threading
        count = 0
        def serve(connection, number):
            try:
                tls = context.wrap_socket(connection, server_side=True)
                data = read_head(tls)
                if not data:
                    return
                path = data.split(b" ")[1].decode()
                print(number, path, time.time(), flush=True)
                if path.startswith("/.well-known/"):
                    if BEGINS:
                        tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"applinks\"")
                    time.sleep(30)
                else:
                    tls.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                tls.close()
            except Exception as error:
                print("error", error, flush=True)
        while True:
            connection, _ = listener.accept()
            count += 1
            threading.Thread(target=serve, args=(connection, count), daemon=True).start()
        """#

    @Test func aFirstPathThatStallsDoesNotHoldTheSecondBack() async throws {
        let server = try PythonTLSServer(Self.stallingServer())
        defer { server.stop() }
        let auditor = try auditor(timeout: 4)
        defer { auditor.shutdown() }
        let report = await auditor.report(for: try AuditDomain.parse("stalled.example.com:\(server.port)"))
        try #require(report.paths.count == 2)
        let (first, second) = (report.paths[0], report.paths[1])
        #expect(first.error?.rule == "timeout", "\(first)")
        #expect(second.status == 404 && second.error == nil && !second.reusedConnection, "\(second)")
        #expect(second.timings.connectMs != nil)
        // The second path was sent behind the first, then, the first answer not begun within the
        // reuse wait (1 s), asked again on a connection of its own, and answered while the
        // first was still waiting for its 4 s timeout.
        let requests = server.lines().map { $0.split(separator: " ").map(String.init) }
        try #require(requests.count == 2 && requests.allSatisfy { $0.count == 3 }, "\(requests)")
        #expect(requests.map { $0[0] } == ["1", "2"])
        #expect(requests.map { $0[1] } == Auditor.paths)
        let asked = requests.compactMap { Double($0[2]) }
        try #require(asked.count == 2)
        #expect(asked[1] - asked[0] < 3, "\(requests)")
    }

    @Test func aFirstAnswerThatStallsMidwayLeavesTheSecondPathItsOwnAttempt() async throws {
        let server = try PythonTLSServer(Self.stallingServer(answerBegins: true))
        defer { server.stop() }
        let auditor = try auditor(timeout: 2)
        defer { auditor.shutdown() }
        let report = await auditor.report(for: try AuditDomain.parse("midway.example.com:\(server.port)"))
        try #require(report.paths.count == 2)
        let (first, second) = (report.paths[0], report.paths[1])
        // The answer began, so the second path waited behind it (no reuse-wait fallback) until
        // the first's timeout; then, not before, it went on a connection of its own. Its own
        // timer (started when it was sent behind) must not report the first's stall as its own.
        #expect(first.error?.rule == "timeout" && first.error?.message.contains("reading the body") == true, "\(first)")
        #expect(second.status == 404 && second.error == nil && !second.reusedConnection, "\(second)")
        let requests = server.lines().map { $0.split(separator: " ").map(String.init) }
        try #require(requests.count == 2 && requests.allSatisfy { $0.count == 3 }, "\(requests)")
        #expect(requests.map { $0[1] } == Auditor.paths)
        let asked = requests.compactMap { Double($0[2]) }
        try #require(asked.count == 2)
        #expect(asked[1] - asked[0] > 1.5, "asked before the first's 2 s timeout: \(requests)")
    }

    /// A TLS server that answers the first request of a connection with 20 bytes, 10 at once
    /// and 10 after 1.5 s, then the next request on it after 0.8 s (`404`, empty); it logs
    /// `first` and `second` as it answers them.
    static let slowPairServer = #"""
        while True:
            connection, _ = listener.accept()
            try:
                tls = context.wrap_socket(connection, server_side=True)
                data = read_head(tls)
                if not data:
                    continue
                tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{\"applinks")
                time.sleep(1.5)
                tls.sendall(b"\": {}}    ")
                print("first", flush=True)
                while data.count(b"\r\n\r\n") < 2:
                    chunk = tls.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                if data.count(b"\r\n\r\n") >= 2:
                    time.sleep(0.8)
                    tls.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                    print("second", flush=True)
                tls.close()
            except Exception as error:
                print("error", error, flush=True)
        """#

    @Test func theRequestSentBehindHasItsWholeTimeoutOnceItsAnswerIsNext() async throws {
        let server = try PythonTLSServer(Self.slowPairServer)
        defer { server.stop() }
        let auditor = try auditor(timeout: 2)
        defer { auditor.shutdown() }
        let report = await auditor.report(for: try AuditDomain.parse("pair.example.com:\(server.port)"))
        try #require(report.paths.count == 2)
        let (first, second) = (report.paths[0], report.paths[1])
        // The first took 1.5 s of its 2 s; the second's answer came 0.8 s after that, 2.3 s
        // after it was sent: within its timeout counted from its turn, not from its sending.
        #expect(first.status == 200 && first.error == nil, "\(first)")
        #expect(second.status == 404 && second.error == nil && second.reusedConnection, "\(second)")
        #expect(server.lines() == ["first", "second"])
    }

    /// A TLS server (``PythonTLSServer``) that answers one request per connection with
    /// `HTTP/1.1 404` and `Content-Length: 0` (which allows keep-alive), then closes the
    /// connection without a word; it logs `CONNECTION PATH` for each request.
    static let silentServer = #"""
        count = 0
        while True:
            connection, _ = listener.accept()
            count += 1
            tls = None
            try:
                tls = context.wrap_socket(connection, server_side=True)
                data = read_head(tls)
                if data:
                    tls.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                    print(count, data.split(b" ")[1].decode(), flush=True)
            except Exception as error:
                print("error", error, flush=True)
            finally:
                (tls or connection).close()
        """#

    @Test func aServerThatClosesAfterTheFirstAnswerStillGetsBothPathsFetched() async throws {
        let server = try PythonTLSServer(Self.silentServer)
        defer { server.stop() }
        let auditor = try auditor()
        defer { auditor.shutdown() }
        let report = await auditor.report(for: try AuditDomain.parse("silent.example.com:\(server.port)"))
        try #require(report.paths.count == 2)
        for path in report.paths {
            #expect(path.status == 404, "\(path)")
            #expect(path.error == nil, "\(path)")
            #expect(path.attempts == 1)
            #expect(!path.reusedConnection)
            #expect(path.timings.connectMs != nil && path.timings.tlsMs != nil)
        }
        // Nothing served (no-file), and nothing about the connections.
        let rules = report.diagnostics.map(\.rule.rawValue)
        #expect(rules.contains("no-file"), "\(rules)")
        #expect(!rules.contains { ["connection-failed", "timeout", "tls-error"].contains($0) }, "\(rules)")
        // The second path was sent behind the first, found the connection closed, and came on
        // a new one. The server closed with that request unread, which resets the connection:
        // when the reset came before the first answer was read, the first path was asked again
        // on a new connection too (RFC 9112 §9.3.2), and the server saw it twice.
        let requests = server.lines()
        try #require(requests.count == 2 || requests.count == 3, "\(requests)")
        #expect(requests[0] == "1 \(Auditor.paths[0])")
        let later = requests.dropFirst().map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(later.filter { $0 == Auditor.paths[1] }.count == 1, "\(requests)")
        #expect(later.filter { $0 == Auditor.paths[0] }.count == requests.count - 2, "\(requests)")
    }

    /// A TLS server that, once a connection's handshake is done, waits 0.3 s (less than the
    /// reuse wait) before it reads, then
    /// logs `seen N` with the number of requests that had come by then, and answers each
    /// (`404`, `Content-Length: 0`, keep-alive), then any later one on the connection the same way.
    static let countingServer = #"""
        while True:
            connection, _ = listener.accept()
            try:
                tls = context.wrap_socket(connection, server_side=True)
                time.sleep(0.3)
                tls.settimeout(0.2)
                data = b""
                try:
                    while True:
                        chunk = tls.recv(65536)
                        if not chunk:
                            break
                        data += chunk
                except (socket.timeout, ssl.SSLWantReadError):
                    pass
                print("seen", data.count(b"\r\n\r\n"), flush=True)
                tls.settimeout(5)
                while data:
                    for _ in range(data.count(b"\r\n\r\n")):
                        tls.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                    data = tls.recv(65536)
                tls.close()
            except Exception as error:
                print("error", error, flush=True)
                connection.close()
        """#

    @Test func theSecondRequestIsSentBehindTheFirstWithoutWaitingForItsAnswer() async throws {
        let server = try PythonTLSServer(Self.countingServer)
        defer { server.stop() }
        let auditor = try auditor()
        defer { auditor.shutdown() }
        let report = await auditor.report(for: try AuditDomain.parse("pipelined.example.com:\(server.port)"))
        try #require(report.paths.count == 2)
        #expect(report.paths.map(\.status) == [404, 404], "\(report.paths)")
        #expect(report.paths.map(\.reusedConnection) == [false, true])
        #expect(report.paths.allSatisfy { $0.error == nil && $0.attempts == 1 })
        // Both requests were there before the server answered the first: one round trip for both.
        #expect(server.lines() == ["seen 2"])
    }

    @Test func onlyCompleteFramedHTTP11AnswersLetTheConnectionBeReused() {
        func head(_ version: HTTPVersion, _ headers: [(String, String)]) -> HTTPResponseHead {
            HTTPResponseHead(version: version, status: .ok, headers: HTTPHeaders(headers))
        }
        #expect(FetchHandler.isReusable(head(.http1_1, [("Content-Length", "10")])))
        #expect(FetchHandler.isReusable(head(.http1_1, [("Transfer-Encoding", "chunked")])))
        #expect(!FetchHandler.isReusable(head(.http1_1, [("Content-Length", "10"), ("Connection", "close")])))
        #expect(!FetchHandler.isReusable(head(.http1_1, [("Content-Length", "10"), ("Connection", "Close")])))
        #expect(!FetchHandler.isReusable(head(.http1_1, [])))  // ends when the connection closes
        #expect(!FetchHandler.isReusable(head(.http1_0, [("Content-Length", "10")])))
        #expect(
            !FetchHandler.isReusable(head(.http1_0, [("Content-Length", "10"), ("Connection", "keep-alive")])))
    }
}
