// Which OpenSSL the library runs with, and which it was built against.
internal import CAASACrypto

/// The OpenSSL versions behind every cryptographic operation of this library.
public enum OpenSSLVersion {
    /// The library loaded at run time, e.g. `OpenSSL 3.0.17 1 Jul 2025`.
    public static var runtime: String { String(cString: caasa_openssl_version_runtime()) }

    /// The headers the C module was compiled against. A different run-time version is
    /// normal (Debian security updates replace the library, not this binary).
    public static var built: String { String(cString: caasa_openssl_version_built()) }
}
