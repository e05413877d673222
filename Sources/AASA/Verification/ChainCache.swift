import Foundation

/// Remembers the outcome of certificate chain checks, and (through its ``certificates``) the
/// parsed certificates, so that a batch of files signed by the same chain parses those
/// certificates once and builds and checks that chain once.
///
/// A chain check depends only on the signer certificate, the untrusted certificates offered
/// to complete it, the trust anchors, the purpose, the check time, the required host and the
/// partial-chain flag; the cache key is exactly that:
///
/// - the SHA-256 fingerprint of the signer certificate;
/// - the SHA-256 fingerprints of the untrusted certificates (the file's own certificates, then
///   ``VerificationOptions/intermediates``), in order;
/// - the ``TrustStore`` object (the cache keeps it alive, so its identity cannot be reused);
/// - ``VerificationOptions/purpose``, the check time in whole seconds,
///   ``VerificationOptions/hostname``, ``VerificationOptions/allowPartialChain`` and
///   ``VerificationOptions/allowWeakCrypto``.
///
/// The value is the verdict of the chain check (the verification policy's included), its
/// warnings and the chain as built. The expiry horizon
/// (``VerificationOptions/minimumDaysValid``) is evaluated from that chain on every file, and
/// the signature over each file's content is always checked: a cache hit skips only the chain.
///
/// Give the ``Verifier`` a fixed ``VerificationOptions/time`` when it shares a cache across
/// many files (`aasa` fixes it at the start of a batch); with the default "now", entries are
/// keyed by the second they were checked in, which is sound but rarely hits.
///
/// Safe to share between threads (one lock). The cache holds at most ``capacity`` entries
/// and forgets the oldest first.
public final class ChainCache: @unchecked Sendable {
    /// What identifies one chain check.
    struct Key: Hashable {
        var signer: String
        var untrusted: [String]
        var trust: ObjectIdentifier
        var purpose: CertificatePurpose
        var time: Int64
        var hostname: String?
        var allowPartialChain: Bool
        var allowWeakCrypto: Bool
    }

    /// What one chain check found.
    struct Entry {
        var failure: VerificationVerdict?
        var chain: [CertificateInfo]
        /// The verification policy's warnings on the chain.
        var warnings: [PolicyFinding]
        /// Every problem of a refused chain.
        var problems: [VerificationVerdict]
        /// Keeps the trust store (and so its `ObjectIdentifier` in the key) alive.
        var trust: TrustStore
    }

    /// The most entries kept.
    public let capacity: Int

    /// The parsed certificates of the files verified with this cache.
    public let certificates: CertificateCache

    private let lock = NSLock()
    private var entries: FIFOStore<Key, Entry>
    private var hitCount = 0
    private var missCount = 0

    /// - Parameter capacity: the most chains remembered (at least 1). A batch is usually signed
    ///   by one or a few chains; the default leaves room for a fleet of different signers.
    public init(capacity: Int = 1_024) {
        self.capacity = max(1, capacity)
        entries = FIFOStore(capacity: capacity)
        certificates = CertificateCache(capacity: 256)
    }

    /// How many lookups found an entry.
    public var hits: Int { lock.withLock { hitCount } }

    /// How many lookups found none (and so checked the chain).
    public var misses: Int { lock.withLock { missCount } }

    /// How many certificates of parsed files were already known (parsed and described before).
    public var certificateHits: Int { certificates.hits }

    /// The number of chains remembered.
    public var count: Int { lock.withLock { entries.count } }

    /// Forgets every entry and resets the counters.
    public func removeAll() {
        lock.withLock {
            entries.removeAll()
            hitCount = 0
            missCount = 0
        }
        certificates.removeAll()
    }

    func lookup(_ key: Key) -> Entry? {
        lock.withLock {
            if let entry = entries[key] {
                hitCount += 1
                return entry
            }
            missCount += 1
            return nil
        }
    }

    func store(_ entry: Entry, for key: Key) {
        lock.withLock {
            guard entries[key] == nil else { return }  // another thread got there first
            entries.store(entry, for: key)
        }
    }
}
