import Foundation

extension VerificationResult {
    /// For content that was accepted as valid-then (`--historical`): one line that says how it
    /// was verified, to print beside anything written from it. Nil for any other verdict.
    public var historicalNote: String? {
        guard case .validThen(let validity) = verdict else { return nil }
        return "verified with --historical (valid-then: valid when signed, not today): \(validity.details)"
    }

    /// The reason of a refusal, and for a chain that fails today only for its roots or dates
    /// (without the historical mode) the mode that checks it as it was when signed.
    public var refusal: String {
        let reason = verdict.reason ?? "not valid"
        guard suggestsHistoricalMode else { return reason }
        return reason + " (a legacy file? --historical checks it as it was when signed)"
    }
}
