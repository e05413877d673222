import AASATestSupport
import Foundation
import Testing

/// A real HTTP proxy (Debian's tinyproxy) on 127.0.0.1 at a free port, for the proxy tests.
///
/// The proxy resolves the names it is asked to CONNECT to, and no test may ask a DNS server:
/// tinyproxy runs in its own mount namespace (`unshare -r -m`, which needs no privilege where
/// user namespaces are allowed) where a hosts file of this test binds every ``NginxServer``
/// scenario name to 127.0.0.1 over /etc/hosts (nsswitch reads `files` first). Its log, at
/// LogLevel Connect, has a `Request (…): CONNECT host:port HTTP/1.1` line per tunnel.
///
/// Stopped as ``NginxServer`` is: ``stop()``, `deinit`, or the shell watchdog when the test
/// process is gone. It listens on 127.0.0.1 only and allows only 127.0.0.1.
final class TinyproxyServer: @unchecked Sendable {
    // @unchecked: `process` and `stopped` are only touched by the test that owns the server.

    /// tinyproxy from PATH, or Debian's /usr/bin/tinyproxy.
    static let executable = Executables.onPath("tinyproxy", otherwise: "/usr/bin/tinyproxy").path

    /// Whether tinyproxy and nginx are installed (scripts/test.sh installs both).
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: executable) && NginxServer.isAvailable
    }

    static let skipReason: Comment =
        "tinyproxy or nginx is not installed: run scripts/ensure-deps.sh tinyproxy nginx"

    /// What the proxy demands.
    struct Options {
        /// `BasicAuth USER PASSWORD`: CONNECT without these credentials gets 407.
        var basicAuth: (user: String, password: String)?
        /// `ConnectPort`: CONNECT to any other port gets 403 (empty: every port allowed).
        var connectPorts: [Int] = []
    }

    let directory: URL
    let port: Int
    private var process: SpawnedProcess?
    private var stopped = false

    /// `http://127.0.0.1:PORT`.
    var url: String { "http://127.0.0.1:\(port)" }

    init(_ options: Options = Options()) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("aasa-tinyproxy-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            let hosts = "127.0.0.1 localhost " + NginxServer.Host.allCases.map(\.rawValue).joined(separator: " ")
            try (hosts + "\n").write(to: directory.appendingPathComponent("hosts"), atomically: true, encoding: .utf8)
            var lastError: (any Error)?
            for _ in 0..<5 {
                let candidate = try NginxServer.freePort()
                do {
                    process = try Self.start(directory: directory, port: candidate, options: options)
                    port = candidate
                    return
                } catch {
                    lastError = error
                }
            }
            throw lastError ?? NginxServer.ServerError("tinyproxy did not start")
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit { stop() }

    /// Stops tinyproxy (and its watchdog) and removes the directory. Safe to call more than once.
    func stop() {
        guard !stopped else { return }
        stopped = true
        process?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The `host:port` of every CONNECT the proxy received, in order, from its log.
    func connectRequests() throws -> [String] {
        let log = try String(contentsOf: directory.appendingPathComponent("tinyproxy.log"), encoding: .utf8)
        return log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "): CONNECT ") else { return nil }
            return line[range.upperBound...].split(separator: " ").first.map(String.init)
        }
    }

    /// ``connectRequests()``, or one entry saying that the log cannot be read, which no
    /// expectation of a test accepts.
    var tunnels: [String] { (try? connectRequests()) ?? ["(tinyproxy's log cannot be read)"] }

    private static func start(directory: URL, port: Int, options: Options) throws -> SpawnedProcess {
        var config = """
            Port \(port)
            Listen 127.0.0.1
            Timeout 30
            LogFile "\(directory.path)/tinyproxy.log"
            LogLevel Connect
            PidFile "\(directory.path)/tinyproxy.pid"
            MaxClients 200
            Allow 127.0.0.1
            DisableViaHeader Yes

            """
        if let auth = options.basicAuth { config += "BasicAuth \(auth.user) \(auth.password)\n" }
        for allowed in options.connectPorts { config += "ConnectPort \(allowed)\n" }
        let configFile = directory.appendingPathComponent("tinyproxy.conf")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        // `unshare` execs the shell, which execs tinyproxy: the watchdog's server is tinyproxy.
        return try WatchedServer.start(
            "tinyproxy",
            command:
                #"unshare -r -m /bin/sh -c 'mount --bind "$1" /etc/hosts && exec "$2" -d -c "$3"' inner "$1" "$2" "$3""#,
            arguments: [directory.appendingPathComponent("hosts").path, executable, configFile.path], port: port,
            output: directory.appendingPathComponent("tinyproxy.out"))
    }
}

/// Runs `body` with a fresh tinyproxy, stopped afterwards whatever happens.
func withTinyproxy<T>(_ options: TinyproxyServer.Options = .init(), _ body: (TinyproxyServer) throws -> T) throws -> T {
    let proxy = try TinyproxyServer(options)
    defer { proxy.stop() }
    return try body(proxy)
}
