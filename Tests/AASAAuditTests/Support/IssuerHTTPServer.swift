import AASATestSupport
import Foundation

/// A plain-HTTP server for the caIssuers tests (Python's http.server, under the watchdog of
/// ``WatchedServer``) on 127.0.0.1 at a free port. It serves the files of `directory` by name
/// and has a few answers nginx does not give on its own:
///
/// - `/stall…`: reads the request, then answers nothing for 60 s;
/// - `/redirect-file…`: `302` to `file:///etc/passwd`;
/// - `/unsized-FILE`: FILE's bytes without a Content-Length (the body ends at the close);
/// - anything else that is not a file of `directory`: `404`.
///
/// Every request is one `GET PATH` line of ``requests()``.
final class IssuerHTTPServer {
    let port: Int
    private let process: SpawnedProcess
    private let log: URL

    init(serving directory: URL) throws {
        let script = directory.appendingPathComponent("issuer-server.py")
        try Data(Self.script.utf8).write(to: script)
        log = directory.appendingPathComponent("issuer-server.log")
        port = try NginxServer.freePort()
        let python = Executables.onPath("python3", otherwise: "/usr/bin/python3").path
        process = try WatchedServer.start(
            "issuer-http", command: "\"$1\" \"$2\" \"$3\" \"$4\"",
            arguments: [python, script.path, directory.appendingPathComponent("www").path, String(port)],
            port: port, output: log)
    }

    /// The request paths, in the order they came.
    func requests() -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { $0.hasPrefix("GET ") }.map { String($0.dropFirst(4)) }
    }

    func stop() { process.stop() }

    private static let script = #"""
        import http.server, os, sys, time

        root, port = sys.argv[1], int(sys.argv[2])

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def empty(self, status, headers=()):
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self):
                print("GET", self.path, flush=True)
                if self.path.startswith("/stall"):
                    time.sleep(60)
                    return
                if self.path.startswith("/redirect-file"):
                    return self.empty(302, [("Location", "file:///etc/passwd")])
                unsized = self.path.startswith("/unsized-")
                name = os.path.join(root, os.path.basename(self.path[len("/unsized-"):] if unsized else self.path))
                if not os.path.isfile(name):
                    return self.empty(404)
                with open(name, "rb") as f:
                    data = f.read()
                self.send_response(200)
                self.send_header("Content-Type", "application/pkix-cert")
                if unsized:
                    self.send_header("Connection", "close")
                    self.close_connection = True
                else:
                    self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        server.daemon_threads = True
        server.serve_forever()
        """#
}
