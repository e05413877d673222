internal import CAASACrypto
import Foundation

/// A parsed PKCS#7 message, usually SignedData: its outline, certificates and content.
///
/// Parsing checks structure only. Nothing here says the content is authentic: use
/// ``Verifier`` for that.
public final class SignedData: Sendable {
    /// The C handle (`caasa_pkcs7`). Never mutated after init; OpenSSL only reads it.
    /// The parsed message's owner.
    private let handle: PKCS7Handle
    /// The parsed message, for the C functions (alive as long as this object).
    var pointer: OpaquePointer { handle.pointer }

    /// How the message was serialised.
    public let encoding: PKCS7Encoding
    /// The outer content type as OpenSSL names it ("pkcs7-signedData", "pkcs7-envelopedData").
    public let contentInfoType: String
    /// Whether the message is SignedData.
    public let isSignedData: Bool
    /// SignedData: the encapsulated content type ("pkcs7-data" for an AASA file).
    public let encapsulatedContentType: String
    /// SignedData: the encapsulated content type as a dotted OID ("1.2.840.113549.1.7.1").
    public let encapsulatedContentTypeOID: String
    /// SignedData: whether the content is embedded, of whatever type (false for a detached
    /// signature). A multipart/signed S/MIME message's first part counts as embedded.
    public let hasContent: Bool
    /// SignedData: one entry per SignerInfo.
    public let signerInfos: [SignerInfo]
    /// The certificates carried in the message, in message order (duplicates kept).
    public let certificates: [X509Certificate]

    /// The most certificates a message may carry before it is refused as malformed. Real signed
    /// AASA files carry two or three; each certificate is described (and hashed) when parsed.
    public static let defaultMaximumCertificates = 256

    /// Parses a message in a known encoding.
    /// - Parameter maximumCertificates: refuse messages carrying more certificates than this.
    /// - Throws: ``AASAError`` `.malformedMessage` when the bytes do not parse or carry too many
    ///   certificates.
    public convenience init(
        data: Data, encoding: PKCS7Encoding, maximumCertificates: Int = SignedData.defaultMaximumCertificates
    ) throws {
        try self.init(data: data, encoding: encoding, maximumCertificates: maximumCertificates, cache: nil)
    }

    /// Parses a message, taking its certificates from `cache` when they were seen before.
    init(
        data: Data, encoding: PKCS7Encoding, maximumCertificates: Int = SignedData.defaultMaximumCertificates,
        cache: CertificateCache?
    ) throws {
        var message: OpaquePointer?
        let limit = maximumCertificates < 0 ? 0 : maximumCertificates
        let status = data.withCBytes {
            caasa_pkcs7_parse_cached($0, $1, encoding.cValue, cache?.pointer, limit, &message)
        }
        guard status == .CAASA_OK, let message else {
            let entries = OpenSSLErrorQueue.drain()
            let explanation = entries.last(where: { $0.explanation?.isEmpty == false })?.explanation
            let reason: String
            switch status {
            case .CAASA_ERR_TRAILING_DATA where encoding == .der: reason = "unexpected bytes after the PKCS#7 structure"
            case .CAASA_ERR_TRAILING_DATA:
                reason = "unexpected data after the message: \(explanation ?? "trailing bytes")"
            case .CAASA_ERR_UNSUPPORTED_CMS, .CAASA_ERR_MISSING_CONTENT_FIELD, .CAASA_ERR_TOO_MANY_CERTIFICATES:
                reason = explanation ?? "not a readable PKCS#7 structure"
            default:
                let why = explanation.map { ": \($0)" } ?? " (truncated or corrupt)"
                reason = "not a readable PKCS#7 \(encoding.rawValue.uppercased()) structure\(why)"
            }
            // The module's own explanation is in the reason already.
            throw AASAError.fromStatus(status, reason, openSSLErrors: entries.filter { $0.explanation == nil })
        }
        handle = PKCS7Handle(takingOwnership: message)
        self.encoding = encoding
        var summary = caasa_pkcs7_summary()
        _ = caasa_pkcs7_summarize(message, &summary)
        guard Int(summary.certificate_count) <= maximumCertificates else {
            throw AASAError(
                .malformedMessage,
                "the message carries \(summary.certificate_count) certificates, more than the limit of \(maximumCertificates)"
            )
        }
        contentInfoType = String(fixedCString: summary.type)
        isSignedData = summary.is_signed_data != 0
        encapsulatedContentType = String(fixedCString: summary.content_type)
        encapsulatedContentTypeOID = String(fixedCString: summary.content_type_oid)
        hasContent = summary.has_content != 0
        signerInfos = (0..<Int(summary.signer_count)).compactMap { index in
            var signer = caasa_signer_summary()
            guard caasa_pkcs7_signer(message, index, &signer) == .CAASA_OK else { return nil }
            return SignerInfo(
                digestAlgorithm: String(fixedCString: signer.digest),
                signatureAlgorithm: String(fixedCString: signer.signature),
                hasSignedAttributes: signer.has_signed_attributes != 0,
                issuer: String(fixedCString: signer.issuer),
                serialNumber: String(fixedCString: signer.serial))
        }
        var certs: OpaquePointer?
        let certStatus = caasa_pkcs7_certificates(message, &certs)
        guard certStatus == .CAASA_OK, let certs else {
            throw AASAError.fromStatus(certStatus, "cannot read the message's certificates")
        }
        certificates = try CertificateStack(takingOwnership: certs).certificates(reusing: cache)
    }

    /// The embedded content exactly as stored, *without verifying anything*.
    /// - Throws: ``AASAError`` `.notSignedData` or `.noContent` (a detached signature).
    public func unverifiedContent() throws -> Data {
        var buffer = caasa_buffer()
        let status = caasa_pkcs7_content(pointer, &buffer)
        guard status == .CAASA_OK else {
            let reason: String
            switch status {
            case .CAASA_ERR_NO_CONTENT where hasContent:
                reason = "the signed content is \(encapsulatedContentDescription), not data"
            case .CAASA_ERR_NO_CONTENT: reason = "detached signature: the content is not embedded"
            default: reason = "not SignedData"
            }
            throw AASAError.fromStatus(status, reason)
        }
        return Data(consuming: &buffer)
    }
}

extension SignedData {
    /// Encapsulated content types met in the wild that OpenSSL has no name for.
    static let knownContentTypes: [String: String] = [
        "1.3.6.1.4.1.311.2.1.4": "Microsoft Authenticode code-signing data (SpcIndirectDataContent)",
        "1.3.6.1.4.1.311.10.1": "a Microsoft catalog (certificate trust list)",
        "1.2.840.113549.1.9.16.1.4": "an RFC 3161 time-stamp token (TSTInfo)",
    ]

    /// The encapsulated content type for a user: "DigestedData (pkcs7-digestData,
    /// 1.2.840.113549.1.7.5)", "Microsoft Authenticode … (1.3.6.1.4.1.311.2.1.4)".
    public var encapsulatedContentDescription: String {
        let oid = encapsulatedContentTypeOID
        if let known = Self.knownContentTypes[oid] { return "\(known) (\(oid))" }
        if encapsulatedContentType.isEmpty || encapsulatedContentType == oid { return "of type \(oid)" }
        let plain = [
            "pkcs7-digestData": "DigestedData", "pkcs7-signedData": "SignedData",
            "pkcs7-envelopedData": "EnvelopedData",
            "pkcs7-encryptedData": "EncryptedData", "pkcs7-signedAndEnvelopedData": "SignedAndEnvelopedData",
        ][encapsulatedContentType]
        return "\(plain ?? encapsulatedContentType) (\(encapsulatedContentType), \(oid))"
    }
}
