import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Looks host names up with the system resolver (`getaddrinfo`: /etc/hosts and DNS as
/// nsswitch.conf says) on a thread pool of its own, once per domain.
///
/// Why not SwiftNIO's own lookup: `ClientBootstrap.connect(host:port:)` runs `getaddrinfo` on
/// one serial queue per event loop, so an audit on two event loops had at most two lookups in
/// flight, and each of a domain's connections looked the name up again. With 100 ms per
/// lookup that capped a scan near ten domains a second, whatever `--concurrency` said, and one
/// slow name server stalled every domain queued behind it (issue #17). Here `threads`
/// lookups run at once, and the caller stops waiting after its timeout (a `getaddrinfo` call
/// cannot be cancelled: its thread is busy until the resolver's own timeout in resolv.conf).
final class HostResolver: Sendable {
    private let pool: NIOThreadPool

    /// Why a name gave no address.
    struct Failure: Error, Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            /// The name does not exist or has no address (EAI_NONAME, EAI_NODATA).
            case noAddress
            /// The name servers did not answer in time, or failed (EAI_AGAIN, EAI_FAIL).
            case serverFailure
            /// This machine had no file descriptor for the lookup's socket (EMFILE, ENFILE).
            case descriptorLimit(errno: Int32)
            /// No answer within the caller's timeout.
            case timeout
            /// Anything else getaddrinfo said.
            case other
        }
        var kind: Kind
        /// getaddrinfo's own words (gai_strerror).
        var detail: String
    }

    /// Starts `threads` lookup threads.
    init(threads: Int) {
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
        pool.start()
    }

    /// Stops the threads (after the lookups in progress end). Call it once, outside any event loop.
    func shutdown() {
        try? pool.syncShutdownGracefully()
    }

    /// The addresses of `host` for TCP `port`, in the resolver's order (RFC 6724), on
    /// `eventLoop`; fails with ``Failure`` (after `timeout` seconds at most).
    func addresses(
        of host: String, port: Int, on eventLoop: any EventLoop, timeout: TimeInterval
    ) -> EventLoopFuture<[SocketAddress]> {
        let promise = eventLoop.makePromise(of: [SocketAddress].self)
        let deadline = eventLoop.scheduleTask(in: .seconds(clamping: timeout)) {
            promise.fail(Failure(kind: .timeout, detail: "no answer within the timeout"))
        }
        pool.runIfActive(eventLoop: eventLoop) { try Self.lookup(host, port: port) }.whenComplete { result in
            deadline.cancel()
            promise.completeWith(result)
        }
        return promise.futureResult
    }

    /// One blocking `getaddrinfo` for TCP, both address families.
    static func lookup(_ host: String, port: Int) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        let savedErrno = errno
        guard code == 0 else { throw failure(code: code, errno: savedErrno) }
        defer { freeaddrinfo(list) }
        var found: [SocketAddress] = []
        var entry = list
        while let current = entry {
            if let raw = UnsafeRawPointer(current.pointee.ai_addr) {
                switch current.pointee.ai_family {
                case AF_INET: found.append(SocketAddress(raw.load(as: sockaddr_in.self), host: host))
                case AF_INET6: found.append(SocketAddress(raw.load(as: sockaddr_in6.self), host: host))
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        if found.isEmpty { throw Failure(kind: .noAddress, detail: "no IPv4 or IPv6 address") }
        return found
    }

    /// glibc's EAI_NODATA (the name exists, with no address): declared only under _GNU_SOURCE,
    /// which Swift's Glibc module does not define.
    private static let eaiNoData: Int32 = -5

    /// What a getaddrinfo error code means for the audit.
    static func failure(code: Int32, errno savedErrno: Int32) -> Failure {
        let detail = String(cString: gai_strerror(code))
        switch code {
        case EAI_NONAME, eaiNoData: return Failure(kind: .noAddress, detail: detail)
        case EAI_AGAIN, EAI_FAIL: return Failure(kind: .serverFailure, detail: detail)
        case EAI_SYSTEM where savedErrno == EMFILE || savedErrno == ENFILE:
            return Failure(kind: .descriptorLimit(errno: savedErrno), detail: String(cString: strerror(savedErrno)))
        case EAI_SYSTEM: return Failure(kind: .other, detail: String(cString: strerror(savedErrno)))
        default: return Failure(kind: .other, detail: detail)
        }
    }
}

/// Addresses already looked up, handed to `ClientBootstrap` in place of its own lookup, so
/// that SwiftNIO still tries them in turn (Happy Eyeballs, RFC 8305) without asking again.
/// They were looked up for the target's own port.
struct ResolvedAddresses: Resolver, Sendable {
    let addresses: [SocketAddress]
    let eventLoop: any EventLoop

    func initiateAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
        eventLoop.makeSucceededFuture(addresses.filter { $0.protocol == .inet })
    }

    func initiateAAAAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
        eventLoop.makeSucceededFuture(addresses.filter { $0.protocol == .inet6 })
    }

    func cancelQueries() {}
}
