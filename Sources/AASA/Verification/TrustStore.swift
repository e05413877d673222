internal import CAASACrypto
import Foundation

/// Loaded trust anchors (an OpenSSL X509_STORE). Build once and reuse for many verifications.
public final class TrustStore: Sendable {
    /// The C handle (`caasa_trust`). Filled in init and only read afterwards; OpenSSL's store
    /// locks its own lookups, so concurrent verifications may share it.
    nonisolated(unsafe) let pointer: OpaquePointer
    /// The configuration this store was built from.
    public let configuration: TrustConfiguration

    /// Loads the anchors `configuration` names.
    /// - Throws: ``AASAError`` `.unreadableFile`, `.noCertificate`, `.unreadableCertificate` or
    ///   `.trustStoreFailed`, naming the file at fault.
    public init(_ configuration: TrustConfiguration = TrustConfiguration()) throws {
        guard let store = caasa_trust_new() else { throw AASAError(.outOfMemory, "out of memory") }
        pointer = store
        self.configuration = configuration
        if configuration.useSystemRoots {
            let status = caasa_trust_add_system_roots(store)
            guard status == .CAASA_OK else { throw AASAError.fromStatus(status, "cannot load the system trust store") }
        }
        var anchors = configuration.anchors
        for path in configuration.anchorFiles {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw AASAError(.unreadableFile, "\(path): cannot read CA file (\(error.localizedDescription))")
            }
            do {
                anchors += try X509Certificate.load(from: data)
            } catch let error as AASAError {
                throw AASAError(error.code, "\(path): \(error.reason)", openSSLErrors: error.openSSLErrors)
            }
        }
        if !anchors.isEmpty {
            let list = try CertificateStack(anchors)
            let status = caasa_trust_add_certs(store, list.pointer)
            guard status == .CAASA_OK else { throw AASAError.fromStatus(status, "cannot add trust anchors") }
        }
        for directory in configuration.anchorDirectories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw AASAError(.unreadableFile, "\(directory): not a directory of CA certificates")
            }
            let status = caasa_trust_add_directory(store, directory)
            guard status == .CAASA_OK else {
                throw AASAError.fromStatus(status, "\(directory): cannot use as CA directory")
            }
        }
    }

    /// A store of exactly the concatenated DER certificates `anchors`, no system roots, each
    /// decoded only when a chain asks for its subject (the roots of a ``HistoricalTrustStore``:
    /// hundreds, of which a chain reaches one).
    /// - Throws: ``AASAError`` `.unreadableCertificate` when one cannot be read.
    init(lazilyAnchoring anchors: Data) throws {
        guard let store = caasa_trust_new() else { throw AASAError(.outOfMemory, "out of memory") }
        pointer = store
        configuration = TrustConfiguration(useSystemRoots: false)
        let status = anchors.withCBytes { caasa_trust_add_lazy_anchors(store, $0, $1) }
        guard status == .CAASA_OK else { throw AASAError.fromStatus(status, "cannot add trust anchors") }
    }

    /// Reads now what the first verification would read: the index of the system bundle
    /// (`SSL_CERT_FILE`), which is otherwise read on the first issuer a chain asks for. For a
    /// long-lived store whose later verifications may find no file descriptor free (`aasa
    /// audit`): the bundle's anchors then need no file. `--ca-dir` and the system certificate
    /// directory are still read by name, once per anchor found.
    public func preload() {
        caasa_trust_preload(pointer)
    }

    deinit { caasa_trust_free(pointer) }
}
