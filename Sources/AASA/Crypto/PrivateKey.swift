internal import CAASACrypto
import Foundation

/// A private key held by OpenSSL, freed when the last reference goes away.
public final class PrivateKey: Sendable {
    /// The C handle (`caasa_key`, an OpenSSL EVP_PKEY). Never mutated after init.
    nonisolated(unsafe) let pointer: OpaquePointer

    init(takingOwnership pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Reads a private key: PEM (PKCS#1, PKCS#8, encrypted PKCS#8, SEC1) or DER.
    ///
    /// - Parameters:
    ///   - data: the key file's bytes. They are not kept.
    ///   - passphrase: used only if the key is encrypted. It is not kept; wiping the caller's
    ///     copy is the caller's job (see ``Passphrase``).
    /// - Throws: ``AASAError`` `.passphraseRequired`, `.wrongPassphrase` or `.unreadableKey`.
    public convenience init(data: Data, passphrase: Passphrase? = nil) throws {
        var key: OpaquePointer?
        let status = data.withCBytes { bytes, length in
            if let passphrase {
                return passphrase.withBytes { caasa_key_load(bytes, length, $0, $1, &key) }
            }
            return caasa_key_load(bytes, length, nil, 0, &key)
        }
        guard status == .CAASA_OK, let key else {
            let reason: String
            switch status {
            case .CAASA_ERR_KEY_NEEDS_PASSPHRASE: reason = "the private key is encrypted and no passphrase was given"
            case .CAASA_ERR_KEY_BAD_PASSPHRASE: reason = "the passphrase does not decrypt the private key"
            default: reason = "not a readable private key (expected PEM or DER: PKCS#1, PKCS#8 or SEC1)"
            }
            throw AASAError.fromStatus(status, reason)
        }
        self.init(takingOwnership: key)
    }

    deinit { caasa_key_free(pointer) }

    /// "RSA", "EC", "ED25519", …
    public var algorithm: String { String(cString: caasa_key_type(pointer)) }

    /// The key size in bits.
    public var bits: Int { Int(caasa_key_bits(pointer)) }
}
