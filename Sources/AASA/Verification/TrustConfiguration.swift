import Foundation

/// Where trust comes from when checking a signer's certificate chain.
public struct TrustConfiguration: Sendable {
    /// Include the system's trust anchors: looked up by subject hash in OpenSSL's certificate
    /// directory (`SSL_CERT_DIR`, default /etc/ssl/certs on Debian) when a chain needs them; the
    /// bundle file is loaded when `SSL_CERT_FILE` is set or there is no hash directory.
    public var useSystemRoots: Bool
    /// PEM or DER files whose certificates are trust anchors (`--ca-file`).
    public var anchorFiles: [String]
    /// Directories of `openssl rehash`-named certificates (`--ca-dir`).
    public var anchorDirectories: [String]
    /// Further anchors given as certificates.
    public var anchors: [X509Certificate]

    public init(
        useSystemRoots: Bool = true, anchorFiles: [String] = [], anchorDirectories: [String] = [],
        anchors: [X509Certificate] = []
    ) {
        self.useSystemRoots = useSystemRoots
        self.anchorFiles = anchorFiles
        self.anchorDirectories = anchorDirectories
        self.anchors = anchors
    }
}
