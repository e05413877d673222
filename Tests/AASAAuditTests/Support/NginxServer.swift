import AASATestSupport
import Foundation
import Testing

/// A real nginx (Debian's package) on 127.0.0.1 at a free port, with one TLS server block per
/// scenario (told apart by SNI), serving fixtures made from the certs/ PKI in a temporary
/// directory.
///
/// It is stopped by ``stop()`` (call it in a `defer`), by `deinit`, and, should the test
/// process die first, by the small shell watchdog that runs it, which ends nginx as soon as
/// the test process is gone. Nothing here listens anywhere but 127.0.0.1.
final class NginxServer: @unchecked Sendable {
    // @unchecked: `process` and `stopped` are only touched by the test that owns the server.

    /// The nginx binary (AASATestSupport's `Executables.nginx`: `$NGINX` overrides).
    static let executable = Executables.nginx.path

    /// Whether nginx is installed (`.ci/run` installs it through scripts/ensure-deps.sh).
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// Why the tests that need nginx are skipped.
    static let skipReason: Comment = "nginx is not installed (/usr/sbin/nginx): run scripts/ensure-deps.sh nginx"

    let directory: URL
    let port: Int
    private var process: SpawnedProcess?
    private var stopped = false

    /// The scenarios, by host name (all below example.com; each has its own server block).
    enum Host: String, CaseIterable {
        /// Plain JSON at /.well-known, application/json; the root 404.
        case plain = "plain.example.com"
        /// A signed file (signed with the TLS key) at the root only, application/pkcs7-mime.
        case signedRoot = "signed-root.example.com"
        /// Plain JSON at /.well-known and the same content signed at the root.
        case both = "both.example.com"
        /// /.well-known redirects (301) elsewhere; the root 404.
        case redirect = "redirect.example.com"
        /// 404 at both paths.
        case missing = "missing.example.com"
        /// Plain JSON served as text/html.
        case wrongType = "wrong-type.example.com"
        /// A 200 KB file at /.well-known.
        case large = "large.example.com"
        /// /.well-known trickles 20 KB at 200 bytes a second (limit_rate): a timeout. Logged as
        /// `keepAlive`.
        case slow = "slow.example.com"
        /// 503 at /.well-known.
        case error = "error.example.com"
        /// Plain JSON with Content-Encoding: gzip although none was asked for.
        case encoded = "encoded.example.com"
        /// TLS certificate from the untrusted root (leaf-untrusted names www.example.com).
        case untrusted = "www.example.com"
        /// An expired TLS certificate (leaf-expired).
        case expired = "expired.example.com"
        /// A TLS certificate for another host (leaf-other-domain, other.example.org).
        case wrongHost = "wronghost.example.com"
        /// A signed file at /.well-known whose signer (other.example.org) is not the TLS identity.
        case foreignSigner = "foreign-signer.example.com"
        /// A signed file whose signer certificate expired (leaf-expired).
        case expiredSigner = "expired-signer.example.com"
        /// A file signed as in 2014-2016, with SHA-1 as the SignerInfo's digest (leaf-wildcard, the
        /// TLS identity): valid, with the verification policy's SHA-1 warning.
        case sha1Signed = "sha1-signed.example.com"
        /// example.com with leaf-rsa for TLS, and a file signed by leaf-ec: another key, but a
        /// certificate valid for the host.
        case apex = "example.com"
        /// The stand-in for Apple's CDN: /a/v1/DOMAIN.
        case cdn = "cdn.example.com"
        /// Hostile text (AuditHostileTextTests): controls in the JSON, the Content-Type, a
        /// Location and the CDN's Apple-Failure-Reason.
        case hostile = "hostile.example.com"
        /// A header holding ESC, BEL and CR, which the HTTP parser refuses.
        case hostileHeader = "hostile-header.example.com"
        /// Markup and script in the JSON and the Content-Type, bidi controls and a 10,000-character
        /// value (FleetPageTests: the HTML report keeps them text).
        case htmlHostile = "html-hostile.example.com"
        /// As `plain` (nginx keeps connections open), each request logged with its connection.
        case keepAlive = "keep-alive.example.com"
        /// As `plain`, but every answer says `Connection: close` (logged as `keepAlive`).
        case closing = "closing.example.com"
    }

    /// The requests to `keepAlive`, `closing` and `slow`: `connection-number requests-on-it host
    /// path end-time seconds-taken`, each logged when it ends.
    var connectionLog: URL { directory.appendingPathComponent("connections.log") }

    /// `host:port` for a scenario.
    func domain(_ host: Host) -> String { "\(host.rawValue):\(port)" }

    /// `--resolve` sending every name on this port to 127.0.0.1.
    var resolve: String { "*:\(port):127.0.0.1" }

    /// `--cdn-base-url` for the CDN stand-in.
    var cdnBaseURL: String { "https://\(Host.cdn.rawValue):\(port)/a/v1/" }

    /// The options that keep every connection on 127.0.0.1 and trust only the test root
    /// (`--proxy ''`: direct, whatever proxy the test's environment names).
    var auditOptions: [String] { directOptions + ["--proxy", ""] }

    /// ``auditOptions`` without `--proxy ''`, for the tests of proxies.
    var directOptions: [String] {
        ["--resolve", "*:*:127.0.0.1", "--ca-file", TestPaths.cert("ca-bundle.pem"), "--no-system-roots"]
    }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("aasa-nginx-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        do {
            try Fixtures.write(to: directory)
            var lastError: (any Error)?
            for _ in 0..<5 {
                let candidate = try Self.freePort()
                do {
                    process = try Self.start(directory: directory, port: candidate)
                    port = candidate
                    return
                } catch {
                    lastError = error
                }
            }
            throw lastError ?? ServerError("nginx did not start")
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit { stop() }

    /// The access log of the paced-N.example.com hosts: one line per request,
    /// `msec request_time connection_time connection host server_addr uri`.
    var pacedLog: URL { directory.appendingPathComponent("paced.log") }

    /// Stops nginx (and its watchdog) and removes the directory. Safe to call more than once.
    func stop() {
        guard !stopped else { return }
        stopped = true
        process?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    struct ServerError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: - Starting

    private static func start(directory: URL, port: Int) throws -> SpawnedProcess {
        let config = directory.appendingPathComponent("nginx.conf")
        try NginxConfig.text(directory: directory.path, port: port).write(to: config, atomically: true, encoding: .utf8)
        return try WatchedServer.start(
            "nginx", command: #""$1" -p "$2" -c "$2/nginx.conf" -e stderr"#, arguments: [executable, directory.path],
            port: port, output: directory.appendingPathComponent("nginx.log"))
    }

    /// A port that was free a moment ago on 127.0.0.1.
    static func freePort() throws -> Int {
        let socket = try loopbackSocket(listening: false)
        close(socket.fd)
        return socket.port
    }

    /// A TCP socket bound to 127.0.0.1 at a port the system chose (listening, if asked), and
    /// that port. The caller closes it.
    static func loopbackSocket(listening: Bool) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
                    && (!listening || listen(fd, 16) == 0)
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ServerError("bind: \(reason)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:port.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// Runs `body` with a fresh nginx, stopped afterwards whatever happens.
func withNginx<T>(_ body: (NginxServer) throws -> T) throws -> T {
    let server = try NginxServer()
    defer { server.stop() }
    return try body(server)
}

/// Runs `body` with a fresh nginx, stopped afterwards whatever happens.
func withNginx<T>(_ body: (NginxServer) async throws -> T) async throws -> T {
    let server = try NginxServer()
    defer { server.stop() }
    return try await body(server)
}

/// The nginx configuration for the scenarios.
enum NginxConfig {
    static func text(directory: String, port: Int) -> String {
        let certs = TestPaths.certs.path
        let wellKnown = "location = /.well-known/apple-app-site-association"
        let root = "location = /apple-app-site-association"
        func serve(_ file: String, as type: String, extra: String = "") -> String {
            "{ types { } default_type \(type); \(extra) alias \(directory)/\(file); }"
        }
        func server(
            _ host: NginxServer.Host, cert: String = "wildcard", key: String = "leaf-wildcard", _ locations: String
        ) -> String {
            """
                server {
                    listen 127.0.0.1:\(port) ssl;
                    server_name \(host.rawValue);
                    ssl_certificate \(directory)/\(cert).chain.pem;
                    ssl_certificate_key \(certs)/\(key).key;
                    location / { return 404; }
                    \(locations)
                }

            """
        }
        let failure =
            "add_header Apple-Failure-Reason \"SWCERR00301 Timeout\" always; add_header Apple-Failure-Details \"{\\\"cause\\\":\\\"context deadline exceeded\\\"}\" always;"
        var servers = ""
        servers += server(.plain, "\(wellKnown) \(serve("plain.json", as: "application/json"))")
        servers += server(.signedRoot, "\(root) \(serve("signed-wildcard.p7m", as: "application/pkcs7-mime"))")
        servers += server(
            .both,
            "\(wellKnown) \(serve("plain.json", as: "application/json")) \(root) \(serve("signed-plain.p7m", as: "application/pkcs7-mime"))"
        )
        servers += server(
            .redirect, "\(wellKnown) { return 301 https://www.example.com/.well-known/apple-app-site-association; }")
        servers += server(.missing, "")
        servers += server(.wrongType, "\(wellKnown) \(serve("plain.json", as: "text/html"))")
        servers += server(.large, "\(wellKnown) \(serve("large.json", as: "application/json"))")
        let logged = "access_log \(directory)/connections.log connections;"
        servers += server(
            .slow, "\(logged) \(wellKnown) \(serve("slow.json", as: "application/json", extra: "limit_rate 200;"))")
        servers += server(.error, "\(wellKnown) { return 503; }")
        servers += server(
            .encoded,
            "\(wellKnown) \(serve("plain.json", as: "application/json", extra: "add_header Content-Encoding gzip;"))")
        servers += server(
            .untrusted, cert: "untrusted", key: "leaf-untrusted",
            "\(wellKnown) \(serve("plain.json", as: "application/json"))")
        servers += server(
            .expired, cert: "expired", key: "leaf-expired",
            "\(wellKnown) \(serve("plain.json", as: "application/json"))")
        servers += server(
            .wrongHost, cert: "other-domain", key: "leaf-other-domain",
            "\(wellKnown) \(serve("plain.json", as: "application/json"))")
        servers += server(
            .foreignSigner, "\(wellKnown) \(serve("signed-other-domain.p7m", as: "application/pkcs7-mime"))")
        servers += server(.expiredSigner, "\(wellKnown) \(serve("signed-expired.p7m", as: "application/pkcs7-mime"))")
        servers += server(.sha1Signed, "\(wellKnown) \(serve("signed-sha1.p7m", as: "application/pkcs7-mime"))")
        servers += server(
            .apex, cert: "rsa", key: "leaf-rsa", "\(wellKnown) \(serve("signed-ec.p7m", as: "application/pkcs7-mime"))")
        servers += server(
            .cdn,
            """
            location = /a/v1/plain.example.com \(serve("plain.json", as: "application/json"))
                    location = /a/v1/both.example.com \(serve("plain-pretty.json", as: "application/json"))
                    location = /a/v1/signed-root.example.com \(serve("legacy.json", as: "application/json"))
                    location = /a/v1/wrong-type.example.com \(serve("legacy.json", as: "application/json"))
                    location = /a/v1/hostile.example.com { \(Fixtures.hostileCDN) return 404; }
                    location /a/v1/ { \(failure) return 404; }
            """)
        // paced-N.example.com: /.well-known sends 3 KB at 2 KB/s (about a second), logging
        // when each connection began and each request ended (politeness tests, issue #17).
        servers += """
                server {
                    listen 127.0.0.1:\(port) ssl;
                    server_name ~^paced-[0-9]+\\.example\\.com$;
                    ssl_certificate \(directory)/wildcard.chain.pem;
                    ssl_certificate_key \(certs)/leaf-wildcard.key;
                    access_log \(directory)/paced.log paced;
                    \(wellKnown) \(serve("paced.json", as: "application/json", extra: "limit_rate 2k;"))
                    location / { return 404; }
                }

            """
        servers += server(.hostile, Fixtures.hostileLocations(wellKnown: wellKnown, root: root, serve: serve))
        servers += server(.hostileHeader, Fixtures.hostileHeaderLocation(wellKnown: wellKnown, serve: serve))
        servers += server(
            .htmlHostile, "\(wellKnown) \(serve("html-hostile.json", as: "\"\(Fixtures.htmlHostileContentType)\""))")
        servers += server(.keepAlive, "\(logged) \(wellKnown) \(serve("plain.json", as: "application/json"))")
        servers += server(
            .closing, "\(logged) keepalive_requests 1; \(wellKnown) \(serve("plain.json", as: "application/json"))")
        return """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(directory)/nginx.pid;
            error_log stderr warn;
            events { worker_connections 1024; }
            http {
                access_log off;
                log_format paced '$msec $request_time $connection_time $connection $host $server_addr $uri';
                log_format connections '$connection $connection_requests $host $request_uri $msec $request_time';
                client_body_temp_path \(directory)/tmp/body;
                proxy_temp_path \(directory)/tmp/proxy;
                fastcgi_temp_path \(directory)/tmp/fastcgi;
                uwsgi_temp_path \(directory)/tmp/uwsgi;
                scgi_temp_path \(directory)/tmp/scgi;
                default_type application/octet-stream;
                ssl_protocols TLSv1.2 TLSv1.3;
                server {
                    listen 127.0.0.1:\(port) ssl default_server;
                    server_name _;
                    ssl_certificate \(directory)/wildcard.chain.pem;
                    ssl_certificate_key \(certs)/leaf-wildcard.key;
                    return 404;
                }
            \(servers)}

            """
    }
}

/// The files nginx serves, made from the certs/ PKI with the `openssl` CLI.
enum Fixtures {
    /// Current-format JSON: appIDs and components; lints clean.
    static let plain = Data(
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/buy/*"}]}]}}"#
            .utf8
            + [0x0A])

    /// The same meaning as `plain`, laid out differently (keys reordered, indented).
    static let plainPretty = Data(
        """
        {
          "applinks": {
            "details": [
              { "components": [ { "/": "/buy/*" } ], "appIDs": [ "ABCDE12345.com.example.app" ] }
            ]
          }
        }

        """.utf8)

    /// The iOS 9-12 format: apps, appID, paths.
    static let legacy = Data(
        #"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app", "paths": ["/buy/*"]}]}}"#.utf8
            + [0x0A])

    static func write(to directory: URL) throws {
        func file(_ name: String) -> URL { directory.appendingPathComponent(name) }
        try plain.write(to: file("plain.json"))
        try plainPretty.write(to: file("plain-pretty.json"))
        try legacy.write(to: file("legacy.json"))
        try hostile.write(to: file("hostile.json"))
        try htmlHostile.write(to: file("html-hostile.json"))
        // Over 128 KB of valid JSON.
        var components = (0..<9_000).map { #"{"/": "/p\#($0)/*"}"# }.joined(separator: ", ")
        components =
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": ["# + components
            + "]}]}}\n"
        try Data(components.utf8).write(to: file("large.json"))
        // 20 KB of leading spaces, then the JSON: at 200 bytes a second, 100 s.
        try (Data(repeating: 0x20, count: 20_000) + plain).write(to: file("slow.json"))
        try (Data(repeating: 0x20, count: 3_000) + plain).write(to: file("paced.json"))
        // TLS certificate chains (leaf, then the intermediate when it has one).
        let chain = try Data(contentsOf: URL(fileURLWithPath: TestPaths.cert("chain.pem")))
        for (name, leaf, withChain) in [
            ("wildcard", "leaf-wildcard", true), ("untrusted", "leaf-untrusted", false),
            ("expired", "leaf-expired", true),
            ("other-domain", "leaf-other-domain", true), ("rsa", "leaf-rsa", true),
        ] {
            let pem = try Data(contentsOf: URL(fileURLWithPath: TestPaths.cert("\(leaf).pem")))
            try (withChain ? pem + chain : pem).write(to: file("\(name).chain.pem"))
        }
        // Signed files, with the legacy recipe.
        for (name, content, leaf, digest) in [
            ("signed-wildcard", "legacy.json", "leaf-wildcard", "sha256"),
            ("signed-plain", "plain.json", "leaf-wildcard", "sha256"),
            ("signed-other-domain", "legacy.json", "leaf-other-domain", "sha256"),
            ("signed-expired", "legacy.json", "leaf-expired", "sha256"),
            ("signed-ec", "legacy.json", "leaf-ec", "sha256"),
            ("signed-sha1", "legacy.json", "leaf-wildcard", "sha1"),
        ] {
            try TestProcess.requireSuccess(
                Executables.openssl.path,
                [
                    "smime", "-sign", "-md", digest, "-inkey", TestPaths.cert("\(leaf).key"), "-signer",
                    TestPaths.cert("\(leaf).pem"),
                    "-certfile", TestPaths.cert("chain.pem"), "-noattr", "-nodetach", "-outform", "DER",
                    "-in", file(content).path, "-out", file("\(name).p7m").path,
                ])
        }
    }
}
