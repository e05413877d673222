/// What a file's bytes are, whatever its name or the content type it was served with.
public enum FileKind: String, Sendable, Codable, CaseIterable {
    /// PKCS#7 SignedData in DER or BER (definite or indefinite lengths): the legacy signed AASA file.
    case pkcs7DER = "pkcs7-der"
    /// PKCS#7 SignedData in PEM armour.
    case pkcs7PEM = "pkcs7-pem"
    /// PKCS#7 SignedData in an S/MIME message (application/pkcs7-mime or x-pkcs7-mime, or
    /// multipart/signed with the content as its first part).
    case pkcs7SMIME = "pkcs7-smime"
    /// PKCS#7 or CMS that is not SignedData (enveloped, digested, bare data, compressed, …).
    case pkcs7Other = "pkcs7-other"
    /// JSON text in UTF-8, with or without a byte-order mark: a plain AASA file.
    case json
    /// Anything else, including PKCS#7 or JSON too damaged to parse.
    case unknown

    /// Whether the file is signed PKCS#7 (any encoding).
    public var isSigned: Bool { self == .pkcs7DER || self == .pkcs7PEM || self == .pkcs7SMIME }
}

/// The result of ``FileKindDetector/detect(_:limits:)``.
public struct Detection: Sendable {
    /// What the bytes are.
    public let kind: FileKind
    /// Why, when it is not obvious: the PKCS#7 type, a JSON parse error, "empty file", …
    public let detail: String?
    /// Whether the file starts with a UTF-8 byte-order mark (U+FEFF).
    public let hasByteOrderMark: Bool
    /// Set when the bytes announce PKCS#7 in this encoding but do not parse: a damaged signed file.
    public let damagedPKCS7Encoding: PKCS7Encoding?
    /// Set (with why) when the bytes are valid CMS that PKCS#7 v1.5 cannot represent, such as a
    /// signer identified by subjectKeyIdentifier: not damaged, but not supported.
    public var unsupportedCMS: String? = nil
    /// The parsed message, for the `pkcs7-*` kinds.
    public let message: SignedData?
}
