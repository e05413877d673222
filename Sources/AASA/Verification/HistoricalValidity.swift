import Foundation

/// What ``VerificationVerdict/validThen(_:)`` proves: the signature is intact (checked exactly as
/// for `valid`) and the signer's chain was valid, under a root the historical store trusted, at
/// ``checkedAt``, inside ``window``; and what fails about it today.
public struct HistoricalValidity: Sendable, Equatable {
    /// Where the check time came from.
    public enum TimeSource: String, Sendable, Codable {
        /// The SignerInfo's signed signingTime attribute, which lies inside the window.
        case signingTime = "signing-time"
        /// The time asked for (`--at`, ``VerificationOptions/time``).
        case requested = "at"
        /// The start of the window: the file carries no signingTime, or one outside the window.
        case windowStart = "window-start"
    }

    /// The first and the last second at which every certificate of the chain was within its
    /// validity (as OpenSSL checks it: `notBefore <= t < notAfter`) and the store trusted the
    /// anchoring root; for several signers, the intersection of theirs.
    public var window: ClosedRange<Date>
    /// The time the chain was verified at, inside ``window``.
    public var checkedAt: Date
    /// Where ``checkedAt`` came from.
    public var timeSource: TimeSource
    /// The first SignerInfo's signed signingTime, when it has one (used or not).
    public var signingTime: Date?
    /// The historical store's name ("Mozilla's root store").
    public var store: String
    /// The root the chain reaches.
    public var root: CertificateInfo
    /// The span of snapshots that held ``root`` around ``checkedAt``.
    public var rootPeriod: TrustPeriod
    /// Why it fails today, one sentence each: certificates expired since, the root removed.
    public var failsToday: [String]

    public init(
        window: ClosedRange<Date>, checkedAt: Date, timeSource: TimeSource, signingTime: Date?, store: String,
        root: CertificateInfo, rootPeriod: TrustPeriod, failsToday: [String]
    ) {
        self.window = window
        self.checkedAt = checkedAt
        self.timeSource = timeSource
        self.signingTime = signingTime
        self.store = store
        self.root = root
        self.rootPeriod = rootPeriod
        self.failsToday = failsToday
    }

    /// How the time was chosen, for a person.
    public var timeDescription: String {
        let at = InternetDateTime.string(from: checkedAt)
        switch timeSource {
        case .signingTime: return "\(at), the signed signingTime"
        case .requested: return "\(at), as asked"
        case .windowStart:
            guard let signingTime else { return "\(at), the start of the window (the file carries no signingTime)" }
            return
                "\(at), the start of the window (its signingTime \(InternetDateTime.string(from: signingTime)) lies outside the window, so was not used)"
        }
    }

    /// The root's span in the store, for a person: "from 2014-04-22 to 2020-12-16 (gone by 2021-01-22)".
    public var rootPeriodDescription: String { Self.describe(rootPeriod) }

    static func describe(_ period: TrustPeriod) -> String {
        func day(_ date: Date) -> String { String(InternetDateTime.string(from: date).prefix(10)) }
        return "from \(day(period.from)) to \(day(period.lastSeen))"
            + (period.removedBy.map { " (gone by \(day($0)))" } ?? " (still in)")
    }

    /// One sentence: what was valid when, and what fails today (``VerificationVerdict/reason``).
    public var summary: String { "valid when signed, not today: " + details }

    /// The window, the root, the time used and what fails today, without the verdict.
    public var details: String {
        let window =
            "\(InternetDateTime.string(from: self.window.lowerBound)) .. \(InternetDateTime.string(from: self.window.upperBound))"
        var text =
            "the chain was valid and its root \"\(root.subject)\" in \(store) (\(rootPeriodDescription)) from \(window); checked at \(timeDescription)"
        if !failsToday.isEmpty { text += "; fails today: " + failsToday.joined(separator: "; ") }
        return text
    }
}
