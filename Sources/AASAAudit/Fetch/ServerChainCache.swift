import AASA
import Foundation
import NIOSSL

/// The TLS server chains one audit run has seen, so that each distinct chain is parsed once and
/// its signatures, trust and dates are checked once per second of the clock, however many
/// domains present it (domains behind one CDN, or one wildcard certificate, send the same
/// chain). The host name is still checked on every connection.
///
/// A chain is known by its exact DER bytes, as the server sent them. What is kept for it: the
/// parsed certificates, their summaries, the leaf's public key, and the verdict of the chain
/// checked without a host name, with the second of the check time it holds for (the chain
/// check itself works in whole seconds, so the same second gives the same verdict). For a
/// connection to `host`:
/// - when the leaf is valid for `host`, the verdict is the one kept: a host name check that
///   passes adds nothing to OpenSSL's verdict;
/// - when it is not, the chain is checked again with the host, not from the cache, so that the
///   verdict is exactly what OpenSSL says (a wrong host, or whatever it finds first).
///
/// An `untrusted` verdict is never kept: it may come from a trust lookup that found no file
/// descriptor free (issue #15), which the next connection must not inherit.
///
/// Safe to share between event loops (one lock). At most ``capacity`` chains are kept; the
/// oldest is forgotten first.
final class ServerChainCache: @unchecked Sendable {
    // @unchecked: `entries` and the counters are only touched under `lock`.

    /// What is kept for one chain.
    private struct Entry {
        let certificates: [X509Certificate]
        let summaries: [CertificateSummary]
        let leafPublicKey: [UInt8]?
        /// The verdict without a host name, and the second of the check time it was made for.
        var check: ChainVerificationResult?
        var second: Int64 = .min
    }

    /// The most chains kept.
    let capacity: Int
    /// Checks chains: TLS-server purpose, the run's check time (or now), no host name.
    private let verifier: Verifier
    private let lock = NSLock()
    private var entries: FIFOStore<Data, Entry>
    private var checkCount = 0

    init(verifier: Verifier, capacity: Int = 2_048) {
        var verifier = verifier
        verifier.options.hostname = nil
        self.verifier = verifier
        self.capacity = max(1, capacity)
        entries = FIFOStore(capacity: capacity)
    }

    /// How many chain checks ran (with or without a host name); a cache hit runs none.
    var checks: Int { lock.withLock { checkCount } }

    /// The number of chains kept.
    var count: Int { lock.withLock { entries.count } }

    /// Checks the chain `certificates` (as the server sent them, leaf first) for `host`.
    func observe(_ certificates: [NIOSSLCertificate], host: String) -> TLSObservation {
        observe(ders: certificates.compactMap { try? $0.toDERBytes() }, host: host)
    }

    /// Checks the chain whose certificates' DER encodings are `ders` (leaf first) for `host`.
    func observe(ders: [[UInt8]], host: String) -> TLSObservation {
        var key = Data()
        for der in ders {
            withUnsafeBytes(of: UInt32(der.count).bigEndian) { key.append(contentsOf: $0) }
            key.append(contentsOf: der)
        }
        let checkedAt = verifier.options.time ?? Date()
        let second = UnixSeconds.of(checkedAt)
        var entry = lock.withLock { entries[key] } ?? Self.entry(ders)
        var checker = verifier
        checker.options.time = checkedAt
        let hostFree: ChainVerificationResult
        if let check = entry.check, entry.second == second {
            hostFree = check
        } else {
            hostFree = checker.verifyChain(entry.certificates)
            lock.withLock { checkCount += 1 }
            if hostFree.verdict.code != "untrusted" {
                entry.check = hostFree
                entry.second = second
            }
            store(entry, for: key)
        }
        let result: ChainVerificationResult
        if entry.certificates.first?.isValid(forHost: host) == true || hostFree.verdict.code == "malformed" {
            result = hostFree
        } else {
            checker.options.hostname = host
            result = checker.verifyChain(entry.certificates)
            lock.withLock { checkCount += 1 }
        }
        let report = TLSReport(
            verified: result.isValid, verdict: result.verdict.code,
            reason: result.isValid ? nil : TLSWording.reason(result.verdict, host: host),
            version: nil, chain: entry.summaries)
        // An anchor file that could not be opened looks like a missing anchor (issue #15).
        let shortage = result.verdict.code == "untrusted" ? DescriptorShortage.probe() : nil
        return TLSObservation(
            report: report, leaf: entry.certificates.first, leafPublicKey: entry.leafPublicKey,
            certificates: entry.certificates, descriptorShortage: shortage)
    }

    /// Parses a chain not seen before.
    private static func entry(_ ders: [[UInt8]]) -> Entry {
        var loaded: [X509Certificate] = []
        for der in ders {
            guard let parsed = try? X509Certificate.load(from: Data(der)) else { continue }
            loaded += parsed
        }
        return Entry(
            certificates: loaded, summaries: loaded.map { CertificateSummary($0.info) },
            leafPublicKey: ders.first.flatMap {
                try? NIOSSLCertificate(bytes: $0, format: .der).extractPublicKey().toSPKIBytes()
            })
    }

    private func store(_ entry: Entry, for key: Data) {
        lock.withLock { entries.store(entry, for: key) }
    }
}
