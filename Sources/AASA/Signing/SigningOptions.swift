/// The digest algorithm of a signature.
public enum DigestAlgorithm: String, Sendable, Codable, CaseIterable {
    case sha256, sha384, sha512
    /// Broken for collision resistance; accepted only when asked for explicitly.
    case sha1
}

/// How to sign, mirroring the flags of `openssl smime -sign -nodetach`.
///
/// The defaults reproduce the historical AASA recipe
/// `openssl smime -sign -inkey KEY -signer CERT -certfile CHAIN -noattr -nodetach -outform DER`.
public struct SigningOptions: Sendable, Equatable {
    /// The digest (`-md`). Default SHA-256, OpenSSL 3's default for RSA and EC keys.
    public var digest: DigestAlgorithm
    /// `-binary`: sign the bytes as given. When false (the recipe), OpenSSL's MIME
    /// canonicalisation rewrites each line ending as CRLF inside the signed content.
    public var binary: Bool
    /// Include signed attributes (signingTime, contentType, smimeCapabilities). The recipe's
    /// `-noattr` leaves them out, which also makes RSA signatures reproducible.
    public var signedAttributes: Bool
    /// The output encoding (`-outform`).
    public var encoding: PKCS7Encoding

    public init(
        digest: DigestAlgorithm = .sha256, binary: Bool = false, signedAttributes: Bool = false,
        encoding: PKCS7Encoding = .der
    ) {
        self.digest = digest
        self.binary = binary
        self.signedAttributes = signedAttributes
        self.encoding = encoding
    }
}
