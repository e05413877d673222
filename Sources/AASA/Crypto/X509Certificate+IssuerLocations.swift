internal import CAASACrypto
import Foundation

extension X509Certificate {
    /// The caIssuers URIs of the certificate's authorityInfoAccess extension (RFC 5280
    /// §4.2.2.1), in the order it lists them: where its issuer's certificate may be fetched.
    /// Empty when the extension is absent or lists none.
    ///
    /// ```
    /// AuthorityInfoAccessSyntax ::= SEQUENCE SIZE (1..MAX) OF AccessDescription
    /// AccessDescription ::= SEQUENCE { accessMethod OBJECT IDENTIFIER, accessLocation GeneralName }
    /// id-ad-caIssuers OBJECT IDENTIFIER ::= { id-ad 2 }
    /// ```
    ///
    /// Whoever made the certificate wrote these strings: they may name any scheme or host and
    /// hold any byte (shown here as U+FFFD where not UTF-8). Check them before use and escape
    /// them before printing (``TerminalText``).
    public var caIssuersURIs: [String] {
        var uris: [String] = []
        var position = 0
        while true {
            var count = 0
            var buffer = caasa_buffer()
            let status = caasa_certs_ca_issuer(stack.pointer, 0, position, &count, &buffer)
            guard status == .CAASA_OK else {
                OpenSSLErrorQueue.drain()
                break
            }
            uris.append(String(decoding: Data(consuming: &buffer), as: UTF8.self))
            position += 1
            if position >= count { break }
        }
        return uris
    }
}
