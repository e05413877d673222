import Foundation
import Testing

/// A TLS server written in Python (its ssl module) for behaviours nginx does not have, on
/// 127.0.0.1 at a port the system chose, with the wildcard certificate of certs/. `body` is
/// the script's main loop: it has `listener` (listening), `context` (the server's TLS context),
/// `read_head(tls)` (the bytes read up to the end of the first request's head; empty when the
/// connection closed first), and `socket`, `ssl`, `sys` and `time` imported; what it prints
/// goes to ``lines()``.
final class PythonTLSServer {
    let port: Int
    private let directory: URL
    private let process: SpawnedProcess
    private let log: URL

    init(_ body: String) throws {
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
        log = directory.appendingPathComponent("server.log")
        let python = Executables.onPath("python3", otherwise: "/usr/bin/python3").path
        process = try SpawnedProcess(
            python, [script.path, chain.path, TestPaths.cert("leaf-wildcard.key")], output: log.path)
        var port: Int?
        let deadline = Date().addingTimeInterval(10)
        while port == nil, Date() < deadline, process.isRunning {
            port = Self.read(log).first.flatMap { $0.hasPrefix("port ") ? Int($0.dropFirst(5)) : nil }
            if port == nil { usleep(20_000) }
        }
        guard let port else {
            let output = Self.read(log)
            process.stop()
            try? FileManager.default.removeItem(at: directory)
            throw NginxServer.ServerError("the Python TLS server did not start: \(output)")
        }
        self.port = port
    }

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
