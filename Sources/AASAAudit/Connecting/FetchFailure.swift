import AASA
import Foundation
import NIOCore
import NIOPosix

/// Why a fetch gave no complete response.
enum FetchFailure: Sendable, Error {
    /// The TLS handshake failed (the certificate did not verify, or another handshake error).
    case tls(String)
    /// No connection: name resolution, refused, reset before an answer. Retried.
    case connection(String)
    /// The timeout ran out; the text says in which phase.
    case timeout(String)
    /// The connection broke after the answer had started.
    case interrupted(String)
    /// This machine had no file descriptor free for the connection (EMFILE or ENFILE), and
    /// still none after `waited` seconds of waiting: a local failure, never a finding on the
    /// domain (issue #15). The fetcher waits for a descriptor before it gives this.
    case descriptorLimit(errno: Int32, waited: TimeInterval)
    /// The proxy could not be used: unreachable, closed, refused the tunnel (403, 407 and any
    /// other answer but 2xx and 5xx) or did not speak HTTP. A local failure like
    /// ``descriptorLimit``: the domain was not reached, so nothing is said about it. (A 5xx
    /// answer, the proxy's word that it could not reach the domain, is a ``connection`` failure.)
    case proxy(String)

    var rule: RuleID {
        switch self {
        case .tls: return HostingRules.tlsError
        case .connection, .interrupted: return HostingRules.connectionFailed
        case .timeout: return HostingRules.timeout
        case .descriptorLimit: return HostingRules.localDescriptorLimit
        case .proxy: return HostingRules.localProxyFailure
        }
    }

    /// A failure of this machine, not of the domain: the domain was not audited.
    var isLocal: Bool {
        switch self {
        case .descriptorLimit, .proxy: true
        default: false
        }
    }

    var message: String {
        switch self {
        case .tls(let text), .connection(let text), .timeout(let text), .interrupted(let text): return text
        case .proxy(let text): return "not audited: \(text); this says nothing about the domain"
        case .descriptorLimit(let code, let waited): return DescriptorShortage.message(errno: code, waited: waited)
        }
    }
}

/// Running out of file descriptors: EMFILE (this process's open-file limit) or ENFILE (the
/// system's table of open files). Either is a problem of the machine that runs the audit, so
/// the fetcher waits for a descriptor instead of blaming the domain (issue #15).
///
/// SwiftNIO reports it as an `IOError` whose `errnoCode` is EMFILE or ENFILE: thrown by
/// `socket()` when the channel is made, so the connect future fails with it (`--resolve` and
/// literal addresses), or inside a `NIOConnectionError`'s `connectionErrors` (a connection by
/// name). A name lookup that fails for lack of descriptors carries only `getaddrinfo`'s code,
/// so a failed lookup is checked with ``probe()``.
enum DescriptorShortage {
    /// Whether `code` is EMFILE or ENFILE.
    static func isShortage(_ code: Int32) -> Bool { code == EMFILE || code == ENFILE }

    /// The EMFILE or ENFILE inside `error`, if that is what it is.
    static func code(in error: any Error) -> Int32? {
        if let io = error as? IOError, isShortage(io.errnoCode) { return io.errnoCode }
        if let connection = error as? NIOConnectionError {
            for failure in connection.connectionErrors {
                if let found = code(in: failure.error) { return found }
            }
        }
        return nil
    }

    /// Whether a socket can be had right now: nil if it can, else EMFILE or ENFILE. (Racy by
    /// nature; a wrong "short" only makes the fetcher wait and try again.)
    static func probe() -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd >= 0 {
            close(fd)
            return nil
        }
        let code = errno
        return isShortage(code) ? code : nil
    }

    /// Whether `count` more descriptors can be had right now: nil if they can (they are
    /// closed again), else EMFILE or ENFILE.
    static func check(count: Int) -> Int32? {
        var opened: [Int32] = []
        defer { opened.forEach { close($0) } }
        for _ in 0..<count {
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                let code = errno
                return isShortage(code) ? code : nil
            }
            opened.append(fd)
        }
        return nil
    }

    /// Why the auditor cannot start: `needed` descriptors for its event loops are not free.
    static func startMessage(errno code: Int32, needed: Int) -> String {
        "cannot start: the event loops need \(needed) file descriptors, and \(reason(errno: code)) (\(String(cString: strerror(code))))"
    }

    /// Which table is full, in words.
    private static func reason(errno code: Int32) -> String {
        if code == ENFILE { return "the system's table of open files is full" }
        let limit = processLimit.map { " (`ulimit -n`: \($0))" } ?? " (`ulimit -n`)"
        return "this process has reached its open-file limit\(limit)"
    }

    /// The open-file limit of this process (its soft RLIMIT_NOFILE), if it can be read.
    static var processLimit: Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(Int.max) else {
            return nil
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// What the report says: a limit of this machine, not of the domain.
    static func message(errno code: Int32, waited: TimeInterval) -> String {
        let which = reason(errno: code)
        let seconds = waited < 1 ? String(format: "%.2f", waited) : String(format: "%.1f", waited)
        return
            "not audited: this machine ran out of file descriptors (\(String(cString: strerror(code))): \(which)) and none came free within \(seconds) s; this says nothing about the domain"
    }
}

extension TimeInterval {
    /// Seconds as the reports write them: `5`, or `2.5` (a whole number too large for an `Int`
    /// as `String(self)` writes it, rather than a trap).
    var secondsText: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

extension FetchFailure {
    /// A short text for an I/O error: strerror for errno values.
    static func describe(_ error: any Error) -> String {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        return "\(error)"
    }
}
