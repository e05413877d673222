/// Why a file holds no usable AASA JSON (``AASAFile/problem``).
public enum AASAReadProblem: Sendable, Equatable {
    /// Detected as signed, but OpenSSL could not read the SignedData.
    case signedDataUnreadable
    /// A signed file with no embedded content (a detached signature).
    case detachedSignature
    /// SignedData whose content is not data that can be read (DigestedData, say), with the reason.
    case unusableContent(String)
    /// PKCS#7 or CMS that is not SignedData, with the reason.
    case notSignedData(String)
    /// Announced as PKCS#7 (DER header, PEM label or MIME type) but damaged, with the reason.
    case damagedPKCS7(PKCS7Encoding, String)
    /// The file, or a signed file's embedded content, is not JSON.
    case invalidJSON(JSONSyntaxError, inSignedContent: Bool)
    /// JSON whose top level is not an object (the JSON type named).
    case notAnObject(String)

    /// One line for the user.
    public var message: String {
        switch self {
        case .signedDataUnreadable: "the SignedData could not be read"
        case .detachedSignature: "a signed file with no embedded content (a detached signature)"
        case .unusableContent(let reason): "a signed file whose content cannot be read: \(reason)"
        case .notSignedData(let reason): "not PKCS#7 SignedData: \(reason)"
        case .damagedPKCS7(let encoding, let reason): "damaged PKCS#7 \(encoding.rawValue.uppercased()): \(reason)"
        case .invalidJSON(let error, let signed):
            signed ? "the embedded content is not JSON: \(error)" : "not JSON: \(error)"
        case .notAnObject(let type): "not an AASA document: the top level is \(type), not an object"
        }
    }
}

/// A file read by ``AASAFile`` that holds no usable AASA JSON.
public struct AASAReadError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let problem: AASAReadProblem

    public init(_ problem: AASAReadProblem) {
        self.problem = problem
    }

    public var description: String { problem.message }
}
