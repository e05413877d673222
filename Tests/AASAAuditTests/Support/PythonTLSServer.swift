import Foundation
import Testing

/// A TLS server written in Python (its ssl module) for behaviours nginx does not have, on
/// 127.0.0.1 at a port the system chose, with the wildcard certificate of certs/. `body` is
/// the script's main loop: it has `listener` (listening), `context` (the server's TLS context),
/// `read_head(tls)` (the bytes read up to the end of the first request's head; empty when the
/// connection closed first), and `socket`, `ssl`, `sys` and `time` imported; what it prints
/// goes to ``lines()``.
///
/// It runs under the same watchdog as nginx and tinyproxy (``WatchedServer``): when the test
/// process is gone, killed or interrupted, the server ends too (issue #24: five of them were
/// still listening after an interrupted suite).
final class PythonTLSServer {
    let port: Int
    private let directory: URL
    private let process: SpawnedProcess
    private let log: URL

    /// Starts the server; `parent` is the process whose end ends it (the test process).
    init(_ body: String, parent: pid_t = getpid()) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("aasa-python-tls-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let chain = directory.appendingPathComponent("chain.pem")
        try
            (Data(contentsOf: URL(fileURLWithPath: TestPaths.cert("leaf-wildcard.pem")))
            + Data(contentsOf: URL(fileURLWithPath: TestPaths.cert("chain.pem")))).write(to: chain)
        let script = directory.appendingPathComponent("server.py")
        let prelude = #"""
            import socket, ssl, sys, time
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
            listener = socket.socket()
            listener.bind(("127.0.0.1", 0))
            listener.listen(16)
            print("port", listener.getsockname()[1], flush=True)

            def read_head(tls):
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = tls.recv(4096)
                    if not chunk:
                        return b""
                    data += chunk
                return data

            """#
        try Data((prelude + body).utf8).write(to: script)
        let log = directory.appendingPathComponent("server.log")
        self.log = log
        let python = Executables.onPath("python3", otherwise: "/usr/bin/python3").path
        func port() -> Int? { Self.read(log).first.flatMap { $0.hasPrefix("port ") ? Int($0.dropFirst(5)) : nil } }
        do {
            process = try WatchedServer.start(
                "python-tls", command: #""$1" "$2" "$3" "$4""#,
                arguments: [python, script.path, chain.path, TestPaths.cert("leaf-wildcard.key")], output: log,
                parent: parent, waitingFor: "print its port"
            ) { port() != nil }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        guard let port = port() else { throw NginxServer.ServerError("the Python TLS server printed no port") }
        self.port = port
    }

    /// The pid of the watchdog that runs the server (for a test of the watchdog itself).
    var watchdog: pid_t { process.pid }

    /// What the script printed, after its `port` line.
    func lines() -> [String] { Array(Self.read(log).dropFirst()) }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private static func read(_ log: URL) -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
