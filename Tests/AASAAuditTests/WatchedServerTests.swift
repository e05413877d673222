import Foundation
import Testing

/// The test servers end with the test process (``WatchedServer``), whatever ends it: no server
/// is left listening after a killed or interrupted run.
@Suite struct WatchedServerTests {
    /// Accepts connections and closes them.
    static let acceptingServer = #"""
        while True:
            connection, _ = listener.accept()
            connection.close()
        """#

    /// Issue #24: five Python TLS servers were still listening after an interrupted suite;
    /// they ran outside the watchdog that nginx and tinyproxy have. A stand-in for the test
    /// process (a `sleep`) is ended; the server must stop listening.
    @Test func aPythonTLSServerEndsWithTheProcessThatStartedIt() throws {
        let standIn = try SpawnedProcess("/bin/sleep", ["120"], output: "/dev/null")
        defer { standIn.stop() }
        let server = try PythonTLSServer(Self.acceptingServer, parent: standIn.pid)
        defer { server.stop() }
        try #require(NginxServer.accepts(port: server.port), "the server did not start listening")
        standIn.stop()  // TERM and reaped: the pid is gone, as a killed test process's is
        // The watchdog looks every 0.2 s; 10 s is a bound for a loaded machine, not a speed.
        let deadline = Date().addingTimeInterval(10)
        while NginxServer.accepts(port: server.port) && Date() < deadline { usleep(50_000) }
        #expect(!NginxServer.accepts(port: server.port), "the server outlived the process that started it")
    }
}
