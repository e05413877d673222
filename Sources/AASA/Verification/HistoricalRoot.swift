import Foundation

/// A root certificate of a ``HistoricalTrustStore`` and when the store trusted it.
public struct HistoricalRoot: Sendable {
    /// The root certificate.
    public let certificate: X509Certificate
    /// The spans of snapshots that held it, oldest first (a root can leave and come back).
    public let periods: [TrustPeriod]

    public init(certificate: X509Certificate, periods: [TrustPeriod]) {
        self.certificate = certificate
        self.periods = periods
    }

    /// Whether the store trusted the root at `date`.
    public func isTrusted(at date: Date) -> Bool { periods.contains { $0.contains(date) } }
}
