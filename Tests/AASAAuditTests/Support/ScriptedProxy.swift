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
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw NginxServer.ServerError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0 && listen(fd, 16) == 0
            }
        }
        guard bound else {
            close(fd)
            throw NginxServer.ServerError("bind: \(String(cString: strerror(errno)))")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
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
