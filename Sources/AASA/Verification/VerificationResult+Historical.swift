import Foundation

extension VerificationResult {
    /// For content that was accepted as valid-then (the historical mode): one line that says how
    /// it was verified, to print beside anything written from it. Nil for any other verdict.
    public var historicalNote: String? {
        guard case .validThen(let validity) = verdict else { return nil }
        return "verified in the historical mode (valid-then: valid when signed, not today): \(validity.details)"
    }

    /// The reason of a refusal, followed by its ``remedy`` in the library's words.
    public var refusal: String {
        let reason = verdict.reason ?? "not valid"
        switch remedy {
        case .historicalMode: return "\(reason) (\(VerificationRemedy.historicalMode.description))"
        case .supplyIssuer: return "\(reason); \(VerificationRemedy.supplyIssuer.description)"
        case nil: return reason
        }
    }
}
