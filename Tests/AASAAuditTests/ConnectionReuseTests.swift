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
            let requests = try logged(server, .keepAlive)
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
            let requests = try logged(server, .closing)
            try #require(requests.count == 2, "\(requests)")
            #expect(requests[0].connection != requests[1].connection)
            #expect(requests.map(\.request) == [1, 1])
            #expect(Set(requests.map(\.path)) == Set(Auditor.paths))
        }
    }

    @Test func aFirstPathThatHangsDoesNotHoldTheSecondBack() async throws {
        try await withNginx { server in
            let auditor = try auditor(timeout: 4)
            defer { auditor.shutdown() }
            let report = await auditor.report(for: try AuditDomain.parse(server.domain(.slow)))
            try #require(report.paths.count == 2)
            let (first, second) = (report.paths[0], report.paths[1])
            #expect(first.error?.rule == "timeout")
            #expect(second.status == 404 && second.error == nil && !second.reusedConnection)
            // The second path went on its own connection after the 1 s wait, and ended while the
            // first was still trickling towards its 4 s timeout.
            // (nginx logs the first when it notices the connection closed: wait for that.)
            var requests = try logged(server, .slow)
            let deadline = Date().addingTimeInterval(10)
            while requests.count < 2, Date() < deadline {
                try await Task.sleep(nanoseconds: 50_000_000)
                requests = try logged(server, .slow)
            }
            try #require(requests.count == 2, "\(requests)")
            #expect(requests.map(\.path) == [Auditor.paths[1], Auditor.paths[0]])
            #expect(requests[0].connection != requests[1].connection)
            // Asked about 1 s after the first (the wait), not after its 4 s timeout.
            #expect(requests[0].start - requests[1].start < 3, "\(requests)")
        }
    }

    /// A TLS server (Python's ssl module, on 127.0.0.1) that answers one request per connection
    /// with `HTTP/1.1 404` and `Content-Length: 0` (which allows keep-alive), then closes the
    /// connection without a word; it logs `CONNECTION PATH` for each request.
    static let silentServer = #"""
        import socket, ssl, sys
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        print("port", listener.getsockname()[1], flush=True)
        count = 0
        while True:
            connection, _ = listener.accept()
            count += 1
            tls = None
            try:
                tls = context.wrap_socket(connection, server_side=True)
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = tls.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                if data:
                    tls.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                    print(count, data.split(b" ")[1].decode(), flush=True)
            except Exception as error:
                print("error", error, flush=True)
            finally:
                (tls or connection).close()
        """#

    @Test func aServerThatClosesAfterTheFirstAnswerStillGetsBothPathsFetched() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("aasa-silent-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let chain = directory.appendingPathComponent("chain.pem")
        try
            (Data(contentsOf: URL(fileURLWithPath: TestPaths.cert("leaf-wildcard.pem")))
            + Data(contentsOf: URL(fileURLWithPath: TestPaths.cert("chain.pem")))).write(to: chain)
        let script = directory.appendingPathComponent("server.py")
        try Data(Self.silentServer.utf8).write(to: script)
        let log = directory.appendingPathComponent("server.log")
        let python = Executables.onPath("python3", otherwise: "/usr/bin/python3").path
        let process = try SpawnedProcess(
            python, [script.path, chain.path, TestPaths.cert("leaf-wildcard.key")], output: log.path)
        defer { process.stop() }
        func lines() -> [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        var port: Int?
        let deadline = Date().addingTimeInterval(10)
        while port == nil, Date() < deadline, process.isRunning {
            port = lines().first.flatMap { $0.hasPrefix("port ") ? Int($0.dropFirst(5)) : nil }
            if port == nil { usleep(20_000) }
        }
        let serverPort = try #require(port, "the Python TLS server did not start: \(lines())")

        let auditor = try auditor()
        defer { auditor.shutdown() }
        let report = await auditor.report(for: try AuditDomain.parse("silent.example.com:\(serverPort)"))
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
        // The second path was asked on the first connection, found it closed, and came on a new one.
        #expect(lines().dropFirst() == ["1 \(Auditor.paths[0])", "2 \(Auditor.paths[1])"])
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
