/// The limits on untrusted input that keep a hostile file from exhausting the stack, the CPU
/// or memory: how deep JSON may nest, how many certificates a message may carry, how long a
/// URL may be. The CLI sets them with `--max-json-depth`, `--max-certificates` and
/// `--max-url-length` (docs/security.md, "Limits").
public struct InputLimits: Sendable, Equatable {
    /// The deepest nesting of JSON arrays and objects accepted; deeper is a syntax error.
    public var maximumJSONDepth: Int
    /// The most certificates a PKCS#7 message may carry; more makes it malformed.
    public var maximumCertificates: Int
    /// The longest URL, in bytes, that is matched; longer ones are reported, not matched.
    public var maximumURLLength: Int

    /// 512 levels, 256 certificates, 8,192-byte URLs.
    public static let `default` = InputLimits()

    public init(
        maximumJSONDepth: Int = JSONParser.defaultMaximumDepth,
        maximumCertificates: Int = SignedData.defaultMaximumCertificates,
        maximumURLLength: Int = 8 * 1024
    ) {
        self.maximumJSONDepth = maximumJSONDepth
        self.maximumCertificates = maximumCertificates
        self.maximumURLLength = maximumURLLength
    }

    /// A JSON parser that stops at ``maximumJSONDepth``.
    public var jsonParser: JSONParser { JSONParser(maximumDepth: maximumJSONDepth) }
}
