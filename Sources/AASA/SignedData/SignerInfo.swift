/// What one SignerInfo of a SignedData says about its signature.
public struct SignerInfo: Hashable, Sendable, Codable {
    /// The digest algorithm, as OpenSSL names it ("SHA256", "SHA1").
    public var digestAlgorithm: String
    /// The signature algorithm ("rsaEncryption", "ecdsa-with-SHA256").
    public var signatureAlgorithm: String
    /// Whether signed (authenticated) attributes are present; the AASA recipe's `-noattr` omits them.
    public var hasSignedAttributes: Bool
    /// The issuer of the signer's certificate.
    public var issuer: String
    /// The serial number of the signer's certificate, upper-case hex.
    public var serialNumber: String
}
