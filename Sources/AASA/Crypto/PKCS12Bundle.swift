internal import CAASACrypto
import Foundation

/// The contents of a PKCS#12 (.p12/.pfx) file: a private key, its certificate, and a chain.
public struct PKCS12Bundle: Sendable {
    public let key: PrivateKey
    public let certificate: X509Certificate
    /// Further certificates in the bundle (usually intermediates), in file order.
    public let chain: [X509Certificate]

    /// Opens a PKCS#12 bundle.
    /// - Throws: ``AASAError`` `.unreadablePKCS12`, `.passphraseRequired`, `.wrongPassphrase`,
    ///   `.incompletePKCS12`.
    public init(data: Data, passphrase: Passphrase? = nil) throws {
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var chain: OpaquePointer?
        let status = data.withCBytes { bytes, length in
            if let passphrase {
                return passphrase.withBytes { caasa_pkcs12_load(bytes, length, $0, $1, &key, &certificate, &chain) }
            }
            return caasa_pkcs12_load(bytes, length, nil, 0, &key, &certificate, &chain)
        }
        guard status == .CAASA_OK, let key, let certificate, let chain else {
            let reason: String
            switch status {
            case .CAASA_ERR_KEY_NEEDS_PASSPHRASE: reason = "the PKCS#12 bundle is protected and no passphrase was given"
            case .CAASA_ERR_PKCS12_BAD_PASSPHRASE: reason = "the passphrase does not open the PKCS#12 bundle"
            case .CAASA_ERR_PKCS12_INCOMPLETE: reason = "the PKCS#12 bundle has no private key or no certificate"
            default: reason = "not a readable PKCS#12 bundle"
            }
            throw AASAError.fromStatus(status, reason)
        }
        self.key = PrivateKey(takingOwnership: key)
        self.certificate = try CertificateStack(takingOwnership: certificate).certificates()[0]
        self.chain = try CertificateStack(takingOwnership: chain).certificates()
    }
}
