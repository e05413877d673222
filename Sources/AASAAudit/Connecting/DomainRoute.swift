import Foundation
import NIOCore

/// Where a domain's origin requests go, decided once per domain before any connection: the
/// addresses its name resolved to, the `--resolve` address, or why there is none.
enum DomainRoute: Sendable {
    /// Looked up by ``HostResolver``: every origin request of the domain connects to these.
    case addresses([SocketAddress])
    /// `--resolve` names the address; the fetcher connects to it.
    case configured(String)
    /// The name gave no address: every origin path fails with this, without a connection.
    case failed(FetchFailure)
    /// Through a proxy, which looks the name up itself: no address is known here.
    case proxied
    /// The lookup had no file descriptor: the fetcher looks the name up itself, with its wait
    /// for a free descriptor (issue #15), rather than calling the domain unresolvable.
    case fetcherLookup

    /// What a failed lookup means for the domain's report.
    init(lookupFailure error: any Error, host: String, timeout: TimeInterval) {
        guard let failure = error as? HostResolver.Failure else {
            self = .failed(.connection("\(host) does not resolve: \(error)"))
            return
        }
        switch failure.kind {
        case .noAddress: self = .failed(.connection("\(host) does not resolve (\(failure.detail))"))
        case .serverFailure, .other: self = .failed(.connection("\(host) does not resolve: \(failure.detail)"))
        case .timeout:
            self = .failed(.timeout("\(host) did not resolve within \(timeout.secondsText) s"))
        case .descriptorLimit: self = .fetcherLookup
        }
    }

    /// The address whose `--max-per-address` slot the domain holds while it is fetched.
    var slotAddress: String? {
        switch self {
        case .addresses(let found): return found.first?.ipAddress
        case .configured(let address): return address
        case .failed, .fetcherLookup, .proxied: return nil
        }
    }

    /// The addresses the fetcher connects to (nil: its own lookup or `--resolve`).
    var lookedUp: [SocketAddress]? {
        if case .addresses(let found) = self { return found }
        return nil
    }

    /// Why the paths fail without a connection, if they do.
    var failure: FetchFailure? {
        if case .failed(let failure) = self { return failure }
        return nil
    }
}
