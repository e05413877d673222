import Foundation

/// A stand-in for a hostile or broken proxy on 127.0.0.1: for every connection it reads the
/// request header (up to the blank line), keeps it, sends `reply` (possibly nothing) and closes;
/// with no `reply` (nil), it answers nothing and keeps the connection open until ``stop()``.
/// For what tinyproxy never does: a status line full of terminal controls, a non-HTTP answer,
/// a close without an answer.
final class ScriptedProxy: @unchecked Sendable {
    // @unchecked: `requests` is guarded by `lock`; the socket is closed once, by `stop()`.
    let port: Int
    private let listener: Int32
    private let reply: [UInt8]?
    private var held: [Int32] = []
    private let lock = NSLock()
    private var received: [String] = []
    private var stopped = false

    /// `http://127.0.0.1:PORT`.
    var url: String { "http://127.0.0.1:\(port)" }

    /// The request headers received so far.
    var requests: [String] { lock.withLock { received } }

    init(reply: [UInt8]?) throws {
        self.reply = reply
        let socket = try NginxServer.loopbackSocket(listening: true)
        listener = socket.fd
        port = socket.port
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting (the accept loop ends when its socket is shut down).
    func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        lock.withLock { held.forEach { close($0) } }
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var header: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4_096)
            while !header.ends(with: Array("\r\n\r\n".utf8)), header.count < 65_536 {
                let count = read(connection, &chunk, chunk.count)
                guard count > 0 else { break }
                header += chunk[0..<count]
            }
            lock.withLock { received.append(String(decoding: header, as: UTF8.self)) }
            guard let reply else {
                lock.withLock { held.append(connection) }
                continue
            }
            _ = reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            close(connection)
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
