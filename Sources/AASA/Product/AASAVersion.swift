/// The version of aasa, the library and the tool, as `aasa --version` prints it.
public enum AASAVersion {
    /// The release version (CHANGELOG.md); scripts/release.sh names its artefacts after it.
    public static let number = "0.2.0"

    /// `aasa --version`: the version on the first line (what scripts read), then the OpenSSL
    /// the binary runs with and the one it was built against.
    public static var current: String {
        """
        aasa \(number)
        OpenSSL \(strippingPrefix(OpenSSLVersion.runtime)) (running), built against OpenSSL \(strippingPrefix(OpenSSLVersion.built))
        """
    }

    private static func strippingPrefix(_ version: String) -> String {
        version.hasPrefix("OpenSSL ") ? String(version.dropFirst("OpenSSL ".count)) : version
    }
}
