internal import CAASACrypto
import Foundation

/// A private key with its certificate and the chain to ship with signatures.
public struct SigningIdentity: Sendable {
    public let key: PrivateKey
    public let certificate: X509Certificate
    /// Intermediates written into each signature before the signer certificate (`-certfile`).
    public let chain: [X509Certificate]

    /// - Throws: ``AASAError`` `.keyMismatch` when `key` is not `certificate`'s key.
    public init(key: PrivateKey, certificate: X509Certificate, chain: [X509Certificate] = []) throws {
        guard certificate.matches(key) else {
            throw AASAError(
                .keyMismatch,
                "the private key (\(key.algorithm) \(key.bits)) does not belong to the certificate \"\(certificate.info.subject)\" (\(certificate.info.keyDescription))"
            )
        }
        self.key = key
        self.certificate = certificate
        self.chain = chain
    }

    /// An identity from a PKCS#12 bundle: its key, its certificate, its other certificates as the chain.
    public init(bundle: PKCS12Bundle) throws {
        try self.init(key: bundle.key, certificate: bundle.certificate, chain: bundle.chain)
    }

    /// Signs `content`, byte for byte as `openssl smime -sign -nodetach` with the same options
    /// would (for RSA keys; ECDSA signatures are randomised).
    /// - Returns: the encoded SignedData.
    /// - Throws: ``AASAError`` `.signingFailed` or `.encodingFailed`.
    public func sign(_ content: Data, options: SigningOptions = SigningOptions()) throws -> Data {
        let signer = certificate.stack
        let chainList = chain.isEmpty ? nil : try CertificateStack(chain)
        var buffer = caasa_buffer()
        let status = options.digest.rawValue.withCString { digest in
            var cOptions = caasa_sign_options(
                digest: digest, binary: options.binary ? 1 : 0, signed_attributes: options.signedAttributes ? 1 : 0,
                encoding: options.encoding.cValue)
            return content.withCBytes { bytes, length in
                caasa_sign(key.pointer, signer.pointer, 0, chainList?.pointer, bytes, length, &cOptions, &buffer)
            }
        }
        guard status == .CAASA_OK else {
            throw AASAError.fromStatus(
                status,
                status == .CAASA_ERR_KEY_CERT_MISMATCH
                    ? "the private key does not belong to the signer certificate" : "signing failed")
        }
        return Data(consuming: &buffer)
    }
}
