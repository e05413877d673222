import Foundation

extension VerificationResult {
    /// What a command that takes the content out of a signed file may do with this result: the
    /// one decision of "verified content, or why not", which `aasa extract`, `aasa convert`
    /// (``Converter``) and a Swift program make alike.
    public enum ContentDecision: Sendable, Equatable {
        /// The content, accepted: valid, or valid-then with the line that says how it was
        /// verified (``historicalNote``), to print beside what is written from it.
        case content(Data, note: String?)
        /// Nothing to take: the input is not a signed file with content (already plain JSON,
        /// not signed, malformed). A wrong input, not a failed check.
        case nothingToTake(String, alreadyPlainJSON: Bool)
        /// A signed file that did not verify: the verdict's reason. What the user can do about
        /// it is ``VerificationResult/remedy``, for the caller to say in its own terms
        /// (``VerificationResult/refusal`` says both in the library's words).
        case refused(String)
    }

    /// The content, or why not (``ContentDecision``).
    public var contentDecision: ContentDecision {
        if let content { return .content(content, note: historicalNote) }
        switch verdict {
        case .notSigned where kind == .json:
            return .nothingToTake("the file is already plain JSON", alreadyPlainJSON: true)
        case .notSigned(let detail), .malformed(let detail):
            return .nothingToTake(detail, alreadyPlainJSON: false)
        default:
            return .refused(verdict.reason ?? "not valid")
        }
    }
}
