import Foundation

/// Where trust comes from when checking a signer's certificate chain.
public struct TrustConfiguration: Sendable {
    /// Include the system's trust anchors (OpenSSL's default file and directory; honours
    /// `SSL_CERT_FILE` and `SSL_CERT_DIR`).
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
