import Foundation
import Testing

@testable import AASA

/// Issue #29: the parsed certificates of a ``CertificateCache`` are kept per thread (certcache.c),
/// so that a batch's workers share no lock and no certificate object.
@Suite("Certificate cache per thread")
struct CertificateCacheThreadTests {
    static let content = Data(#"{"applinks": {"details": []}}"#.utf8)

    /// The certificates of `signed` parsed with `cache` on a thread of its own.
    static func onAnotherThread(_ signed: Data, _ cache: CertificateCache) throws -> [X509Certificate] {
        final class Box: @unchecked Sendable {
            var result: Result<[X509Certificate], any Error>?
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = Result {
                try SignedData(data: signed, encoding: .der, maximumCertificates: 16, cache: cache).certificates
            }
            done.signal()
        }
        thread.start()
        done.wait()
        return try #require(box.result).get()
    }

    @Test("one thread parses a certificate once; another thread parses its own")
    func perThread() throws {
        let signed = try PKI.identity("leaf-rsa").sign(Self.content)
        let cache = CertificateCache()
        let first = try SignedData(data: signed, encoding: .der, maximumCertificates: 16, cache: cache).certificates
        let again = try SignedData(data: signed, encoding: .der, maximumCertificates: 16, cache: cache).certificates
        let other = try Self.onAnotherThread(signed, cache)
        try #require(first.count == 2 && again.count == 2 && other.count == 2)
        for index in 0..<2 {
            #expect(first[index] === again[index], "certificate \(index) parsed again on the same thread")
            #expect(first[index] !== other[index], "certificate \(index) shared between threads")
            #expect(try first[index].derRepresentation == other[index].derRepresentation)
        }
        #expect(cache.hits >= 2)
    }
}
