import Foundation

/// A root certificate of a ``HistoricalTrustStore`` and when the store trusted it.
///
/// A root of the compiled-in store is held as its place in the binary and its fingerprint: a verification
/// parses only the root its chain reaches (describing all 289 roots, each self-signature
/// checked, cost `--historical` about 120 ms before a single file was read).
public struct HistoricalRoot: Sendable {
    /// The certificate's SHA-256 fingerprint, as ``CertificateInfo/sha256Fingerprint`` writes it.
    public let sha256Fingerprint: String
    /// The spans of snapshots that held it, oldest first (a root can leave and come back).
    public let periods: [TrustPeriod]
    private let source: Source

    /// Unchecked: `compiled` points at const data of the binary, which nothing writes or frees.
    private enum Source: @unchecked Sendable {
        case parsed(X509Certificate)
        case compiled(UnsafeRawBufferPointer)
    }

    public init(certificate: X509Certificate, periods: [TrustPeriod]) {
        sha256Fingerprint = certificate.info.sha256Fingerprint
        self.periods = periods
        source = .parsed(certificate)
    }

    /// A root compiled into the binary (`der` must stay valid and unchanged for the life of the
    /// process), read only when asked for. No copy is made: a copy held by a static store would
    /// be 289 allocations that live until exit.
    init(compiled der: UnsafeRawBufferPointer, sha256Fingerprint: String, periods: [TrustPeriod]) {
        self.sha256Fingerprint = sha256Fingerprint
        self.periods = periods
        source = .compiled(der)
    }

    /// The root certificate (read from its DER bytes on each call for a compiled-in root).
    /// - Throws: ``AASAError`` when the bytes are not one certificate.
    public func certificate() throws -> X509Certificate {
        switch source {
        case .parsed(let certificate):
            return certificate
        case .compiled(let der):
            let certificates = try X509Certificate.load(from: Data(der))
            guard let certificate = certificates.first, certificates.count == 1 else {
                throw AASAError(.unreadableCertificate, "root \(sha256Fingerprint) is not one certificate")
            }
            return certificate
        }
    }

    /// The DER encoding.
    func derRepresentation() throws -> Data {
        switch source {
        case .parsed(let certificate): return try certificate.derRepresentation
        case .compiled(let der): return Data(der)
        }
    }

    /// Whether the store trusted the root at `date`.
    public func isTrusted(at date: Date) -> Bool { periods.contains { $0.contains(date) } }
}
