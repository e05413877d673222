import Foundation

/// Something worth saying before signing: legal to sign, but probably not what was meant.
public enum SigningCheck: Sendable, Equatable, CustomStringConvertible {
    /// The signer certificate is not valid at the signing time.
    case certificateNotValid(CertificateInfo, at: Date)
    /// The content is over Apple's limit of 128 KB (131,072 bytes).
    case contentTooLarge(bytes: Int)
    /// The content is not JSON.
    case contentNotJSON(String)
    /// The content is already a signed file: signing it again wraps one signature in another,
    /// which no verifier of AASA files unwraps. The CLI refuses it unless asked to wrap.
    case contentAlreadySigned(FileKind)
    /// SHA-1 was chosen.
    case weakDigest

    /// Apple's size limit for an AASA file, in bytes.
    public static let maximumContentSize = 131_072

    /// The checks that apply to signing `content` with `identity` at `date`; `limits` decide
    /// how deep the content's JSON may nest.
    public static func checks(
        content: Data, identity: SigningIdentity, options: SigningOptions, at date: Date = Date(),
        limits: InputLimits = .default
    ) -> [SigningCheck] {
        var found: [SigningCheck] = []
        if !identity.certificate.info.isValid(at: date) {
            found.append(.certificateNotValid(identity.certificate.info, at: date))
        }
        if content.count > maximumContentSize { found.append(.contentTooLarge(bytes: content.count)) }
        let detection = FileKindDetector.detect(content, limits: limits)
        if detection.kind.isSigned {
            found.append(.contentAlreadySigned(detection.kind))
        } else if detection.kind != .json {
            found.append(.contentNotJSON(detection.detail ?? "it is \(detection.kind.rawValue)"))
        }
        if options.digest == .sha1 { found.append(.weakDigest) }
        return found
    }

    public var description: String {
        switch self {
        case .certificateNotValid(let info, let date):
            return date < info.notBefore
                ? "the signer certificate is not valid until \(InternetDateTime.string(from: info.notBefore))"
                : "the signer certificate expired at \(InternetDateTime.string(from: info.notAfter))"
        case .contentTooLarge(let bytes):
            return "the content is \(bytes) bytes, over Apple's limit of \(Self.maximumContentSize) bytes (128 KB)"
        case .contentNotJSON(let detail):
            return "the content is not JSON (\(detail))"
        case .contentAlreadySigned(let kind):
            return "the content is already a signed file (\(kind.rawValue)): signing it again would wrap one "
                + "signature in another, which iOS never unwraps"
        case .weakDigest:
            return "SHA-1 is broken for collision resistance; use SHA-256 unless a legacy verifier demands SHA-1"
        }
    }
}
