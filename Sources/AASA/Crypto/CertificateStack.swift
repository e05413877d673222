internal import CAASACrypto
import Foundation

/// Owns a C `caasa_certs` list (an OpenSSL `STACK_OF(X509)`) and frees it in `deinit`.
final class CertificateStack {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`: it is freed when this object goes away.
    init(takingOwnership pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// A new list holding the given certificates (shared, reference counted).
    convenience init(_ certificates: [X509Certificate]) throws {
        guard let list = caasa_certs_new() else { throw AASAError(.outOfMemory, "out of memory") }
        self.init(takingOwnership: list)
        for certificate in certificates {
            let status = caasa_certs_append(list, certificate.stack.pointer, 0)
            guard status == .CAASA_OK else { throw AASAError.fromStatus(status, "cannot build certificate list") }
        }
    }

    /// Every certificate in `data` (PEM blocks or concatenated DER), read by OpenSSL and not
    /// yet described (``certificates(reusing:)`` describes them).
    /// - Throws: ``AASAError`` `.noCertificate` or `.unreadableCertificate`.
    static func reading(_ data: Data) throws -> CertificateStack {
        var list: OpaquePointer?
        let status = data.withCBytes { caasa_certs_load($0, $1, &list) }
        guard status == .CAASA_OK, let list else {
            throw AASAError.fromStatus(
                status,
                status == .CAASA_ERR_NO_CERTIFICATES
                    ? "no certificate found (expected PEM CERTIFICATE blocks or DER)"
                    : "not a readable X.509 certificate")
        }
        return CertificateStack(takingOwnership: list)
    }

    deinit { caasa_certs_free(pointer) }

    var count: Int { caasa_certs_count(pointer) }

    /// Each certificate as its own ``X509Certificate`` (sharing the OpenSSL object). With a
    /// cache, a certificate object already described is not described again.
    func certificates(reusing cache: CertificateCache? = nil) throws -> [X509Certificate] {
        try (0..<count).map { index in
            func make() throws -> X509Certificate {
                guard let single = caasa_certs_new() else { throw AASAError(.outOfMemory, "out of memory") }
                let owner = CertificateStack(takingOwnership: single)
                let status = caasa_certs_append(single, pointer, index)
                guard status == .CAASA_OK else { throw AASAError.fromStatus(status, "cannot copy certificate") }
                return try X509Certificate(stack: owner)
            }
            guard let cache, let identity = caasa_certs_identity(pointer, index) else { return try make() }
            return try cache.certificate(identity, make: make)
        }
    }
}

/// An immutable list is safe to read from several threads: OpenSSL's X509 objects are
/// reference counted with atomic counters and nothing here mutates the list after init.
extension CertificateStack: @unchecked Sendable {}
