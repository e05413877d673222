internal import CAASACrypto
import Foundation

/// Parsed certificates, kept by their DER bytes, so that files signed by the same chain parse
/// and describe each certificate once.
///
/// Each file carries its signer and intermediates; OpenSSL 3.0 spends most of a file's parse
/// decoding their public keys. With this cache a certificate whose DER bytes were seen before
/// is the same parsed object (the C cache), described once (its ``X509Certificate``).
///
/// Safe to share between threads: the C cache locks its own state, this object one lock.
/// ``ChainCache`` owns one; ``SignedData`` and ``FileKindDetector`` parse through it.
public final class CertificateCache: @unchecked Sendable {
    /// The most certificates kept (at least 1).
    public let capacity: Int

    /// The C cache of parsed certificates (`caasa_cert_cache`), freed with this object.
    let pointer: OpaquePointer?

    private let lock = NSLock()
    /// Swift objects by C identity. An entry keeps its certificate alive, so an identity cannot
    /// be reused meanwhile.
    private var objects: [UnsafeRawPointer: X509Certificate] = [:]
    private var hitCount = 0

    public init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
        pointer = caasa_cert_cache_new(self.capacity)
    }

    deinit { caasa_cert_cache_free(pointer) }

    /// How many certificates of parsed files were already known (parsed and described before).
    public var hits: Int { lock.withLock { hitCount } }

    /// Forgets the described certificates and resets the counter (the C cache keeps its
    /// parsed certificates: they are equal by their bytes).
    public func removeAll() {
        lock.withLock {
            objects.removeAll()
            hitCount = 0
        }
    }

    /// The certificate object for the C certificate `identity`: the one made before, or `make()`.
    func certificate(_ identity: UnsafeRawPointer, make: () throws -> X509Certificate) rethrows -> X509Certificate {
        let known: X509Certificate? = lock.withLock {
            let found = objects[identity]
            if found != nil { hitCount += 1 }
            return found
        }
        if let known { return known }
        let made = try make()
        lock.withLock {
            if objects.count >= capacity { objects.removeAll() }
            objects[identity] = made
        }
        return made
    }
}
