internal import CAASACrypto

/// An error from the AASA library: something could not be read, loaded or produced.
///
/// Verification *failures* are not errors: they are verdicts (``VerificationVerdict``). This
/// type is for inputs that cannot be used at all.
///
/// Two errors are equal when their ``code`` is equal, whatever the reason text or location, so
/// that tests can compare against an error made from a code (`error.code == .keyMismatch`).
public struct AASAError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of error this is. Codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case unreadableKey, passphraseRequired, wrongPassphrase, unreadableCertificate, noCertificate
            case unreadablePKCS12, incompletePKCS12, keyMismatch, unknownDigest, signingFailed
            case encodingFailed, malformedMessage, notSignedData, noContent, trustStoreFailed
            case invalidArgument, outOfMemory, unreadableFile, writeFailed, inputTooLarge, internalError
            case unsupportedCMS
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A private key file that is not a key OpenSSL can read.
        public static let unreadableKey = Code(.unreadableKey)
        /// An encrypted key or bundle was given no passphrase.
        public static let passphraseRequired = Code(.passphraseRequired)
        /// The passphrase does not open the key or bundle.
        public static let wrongPassphrase = Code(.wrongPassphrase)
        /// A certificate file that holds something other than certificates.
        public static let unreadableCertificate = Code(.unreadableCertificate)
        /// A certificate file with no certificate in it.
        public static let noCertificate = Code(.noCertificate)
        /// A PKCS#12 file that does not parse.
        public static let unreadablePKCS12 = Code(.unreadablePKCS12)
        /// A PKCS#12 bundle without a private key or certificate.
        public static let incompletePKCS12 = Code(.incompletePKCS12)
        /// The private key does not belong to the signer certificate.
        public static let keyMismatch = Code(.keyMismatch)
        /// A digest algorithm OpenSSL does not know.
        public static let unknownDigest = Code(.unknownDigest)
        /// OpenSSL could not produce a signature.
        public static let signingFailed = Code(.signingFailed)
        /// OpenSSL could not serialise a structure.
        public static let encodingFailed = Code(.encodingFailed)
        /// Bytes that claim to be PKCS#7 but do not parse.
        public static let malformedMessage = Code(.malformedMessage)
        /// Valid CMS that PKCS#7 v1.5 cannot represent (a signer identified by subjectKeyIdentifier).
        public static let unsupportedCMS = Code(.unsupportedCMS)
        /// PKCS#7 that is not SignedData.
        public static let notSignedData = Code(.notSignedData)
        /// SignedData without embedded content (a detached signature).
        public static let noContent = Code(.noContent)
        /// Trust anchors that could not be loaded.
        public static let trustStoreFailed = Code(.trustStoreFailed)
        /// An argument out of range.
        public static let invalidArgument = Code(.invalidArgument)
        /// Memory ran out inside OpenSSL.
        public static let outOfMemory = Code(.outOfMemory)
        /// A file that could not be read.
        public static let unreadableFile = Code(.unreadableFile)
        /// A file that could not be written.
        public static let writeFailed = Code(.writeFailed)
        /// An input over the size limit.
        public static let inputTooLarge = Code(.inputTooLarge)
        /// A failure that should not happen.
        public static let internalError = Code(.internalError)

        public var description: String { base.rawValue }
    }

    /// What went wrong, as a category.
    public let code: Code
    /// What went wrong, in words for a person.
    public let reason: String
    /// What OpenSSL said, oldest first (possibly empty).
    public let openSSLErrors: [OpenSSLErrorEntry]
    /// Where the error was raised.
    public let file: String
    public let line: UInt

    @inline(never)
    public init(
        _ code: Code, _ reason: String, openSSLErrors: [OpenSSLErrorEntry] = [],
        file: String = #fileID, line: UInt = #line
    ) {
        self.code = code
        self.reason = reason
        self.openSSLErrors = openSSLErrors
        self.file = file
        self.line = line
    }

    /// The reason, followed by OpenSSL's explanation when it adds one.
    public var message: String {
        guard let detail = openSSLErrors.last?.text, !reason.contains(detail) else { return reason }
        return "\(reason) (\(detail))"
    }

    public var description: String { "AASAError.\(code): \(message) \(file):\(line)" }

    public static func == (lhs: AASAError, rhs: AASAError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension AASAError {
    /// An error for a failed C call: `reason` in words, plus whatever OpenSSL left on its queue.
    @inline(never)
    static func fromStatus(
        _ status: caasa_status, _ reason: String, openSSLErrors: [OpenSSLErrorEntry]? = nil, file: String = #fileID,
        line: UInt = #line
    ) -> AASAError {
        let code: Code
        switch status {
        case .CAASA_OK, .CAASA_ERR_INVALID_ARGUMENT: code = .invalidArgument
        case .CAASA_ERR_MEMORY: code = .outOfMemory
        case .CAASA_ERR_KEY_DECODE: code = .unreadableKey
        case .CAASA_ERR_KEY_NEEDS_PASSPHRASE: code = .passphraseRequired
        case .CAASA_ERR_KEY_BAD_PASSPHRASE, .CAASA_ERR_PKCS12_BAD_PASSPHRASE: code = .wrongPassphrase
        case .CAASA_ERR_CERT_DECODE: code = .unreadableCertificate
        case .CAASA_ERR_NO_CERTIFICATES: code = .noCertificate
        case .CAASA_ERR_PKCS12_DECODE: code = .unreadablePKCS12
        case .CAASA_ERR_PKCS12_INCOMPLETE: code = .incompletePKCS12
        case .CAASA_ERR_KEY_CERT_MISMATCH: code = .keyMismatch
        case .CAASA_ERR_UNKNOWN_DIGEST: code = .unknownDigest
        case .CAASA_ERR_SIGN: code = .signingFailed
        case .CAASA_ERR_ENCODE: code = .encodingFailed
        case .CAASA_ERR_PKCS7_DECODE, .CAASA_ERR_TRAILING_DATA, .CAASA_ERR_NO_SIGNERS, .CAASA_ERR_MISSING_CONTENT_FIELD,
            .CAASA_ERR_SIGNED_ATTRIBUTES, .CAASA_ERR_TOO_MANY_CERTIFICATES:
            code = .malformedMessage
        case .CAASA_ERR_UNSUPPORTED_CMS: code = .unsupportedCMS
        case .CAASA_ERR_NOT_SIGNED_DATA: code = .notSignedData
        case .CAASA_ERR_NO_CONTENT: code = .noContent
        case .CAASA_ERR_SIGNER_NOT_FOUND, .CAASA_ERR_CONTENT_DIGEST_MISMATCH, .CAASA_ERR_BAD_SIGNATURE,
            .CAASA_ERR_VERIFY, .CAASA_ERR_UNSUPPORTED_ALGORITHM, .CAASA_ERR_WEAK_ALGORITHM:
            code = .internalError
        case .CAASA_ERR_TRUST_LOAD: code = .trustStoreFailed
        }
        return AASAError(
            code, reason, openSSLErrors: openSSLErrors ?? OpenSSLErrorQueue.drain(), file: file, line: line)
    }
}
