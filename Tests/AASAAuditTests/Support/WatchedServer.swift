import Foundation

/// Starts a test server (nginx, tinyproxy, the Python TLS servers) under a watchdog shell, and
/// waits until it is ready. The watchdog ends the server when told to (TERM, through
/// ``SpawnedProcess/stop()``) or when the test process is gone, so that no server outlives
/// a crashed or interrupted test run.
enum WatchedServer {
    /// `command` is a shell command line that starts the server in the foreground, reading its
    /// arguments as `$1`, `$2`, … from `arguments`; its output and the watchdog's go to `output`.
    /// Throws, with that output, when the server has not accepted a connection on
    /// 127.0.0.1:`port` within 10 s.
    static func start(
        _ name: String, command: String, arguments: [String], port: Int, output: URL
    ) throws -> SpawnedProcess {
        try start(
            name, command: command, arguments: arguments, output: output,
            waitingFor: "accept connections on 127.0.0.1:\(port)"
        ) { NginxServer.accepts(port: port) }
    }

    /// The same, for a server whose readiness `ready` tells (a port it chose and printed);
    /// `parent` is the process whose end ends the server (the test process; a test of the
    /// watchdog gives another).
    static func start(
        _ name: String, command: String, arguments: [String], output: URL, parent: pid_t = getpid(),
        waitingFor what: String, until ready: () -> Bool
    ) throws -> SpawnedProcess {
        // The parent's pid comes first, then the command's own arguments.
        let script = """
            parent=$1
            shift
            \(command) &
            n=$!
            trap 'kill -TERM $n 2>/dev/null; wait $n; exit 0' TERM INT HUP
            while kill -0 "$parent" 2>/dev/null && kill -0 $n 2>/dev/null; do sleep 0.2; done
            kill -TERM $n 2>/dev/null
            wait $n
            """
        let process = try SpawnedProcess(
            "/bin/sh", ["-c", script, "\(name)-watchdog", String(parent)] + arguments, output: output.path)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if ready() { return process }
            if !process.isRunning { break }
            usleep(20_000)
        }
        process.stop()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        throw NginxServer.ServerError("\(name) did not \(what) within 10 s: \(text)")
    }
}
