internal import CAASACrypto
import Foundation

/// The X.509 purpose the signer certificate must fit.
public enum CertificatePurpose: String, Sendable, Codable, CaseIterable {
    /// No extendedKeyUsage requirement.
    case any
    /// A TLS server certificate: what AASA files were signed with. The default.
    case sslServer = "sslserver"
    /// An S/MIME signing certificate: OpenSSL `smime -verify`'s default, which rejects every
    /// real signed AASA file ("unsuitable certificate purpose").
    case smimeSign = "smimesign"

    var cValue: caasa_purpose {
        switch self {
        case .any: return .CAASA_PURPOSE_ANY
        case .sslServer: return .CAASA_PURPOSE_SSL_SERVER
        case .smimeSign: return .CAASA_PURPOSE_SMIME_SIGN
        }
    }
}

/// How to check a signed file, beyond the trust anchors.
public struct VerificationOptions: Sendable {
    /// The purpose the signer certificate must fit (default: TLS server).
    public var purpose: CertificatePurpose
    /// Check validity at this time instead of now (`--at`).
    public var time: Date?
    /// Require the signer certificate to be valid for this host name (`--domain`).
    public var hostname: String?
    /// Fail when a certificate of the chain expires within this many days of the check time.
    public var minimumDaysValid: Int?
    /// Accept a chain that ends at a trusted intermediate (`--partial-chain`).
    public var allowPartialChain: Bool
    /// Further untrusted certificates that may complete the chain (`--intermediates`).
    public var intermediates: [X509Certificate]
    /// The certificate count (and JSON depth) allowed when the file is detected.
    public var limits: InputLimits
    /// Forensic work only (`--allow-weak-crypto`): what the verification policy refuses (MD2,
    /// MD4, MD5, RSA or DSA keys under 1,024 bits) becomes a warning. Never the default.
    public var allowWeakCrypto: Bool = false
    /// Where to ask for an issuer certificate that the chain lacks (`--fetch-issuers`); nil
    /// (the default) asks nowhere. What it gives is used as ``intermediates`` are: untrusted,
    /// never an anchor. See ``IssuerSource``.
    public var issuerSource: (any IssuerSource)? = nil
    /// Legacy files (`--historical`): when the chain fails today only for its trust or its dates,
    /// check it against this store of roots through time, at a time when every certificate
    /// was valid and the root trusted (the signed signingTime when it lies in that window, or
    /// ``time``, which then also picks the store of that date). The answer is
    /// ``VerificationVerdict/validThen(_:)``, never `valid`; the signature and the verification
    /// policy are checked exactly as without it. Nil (the default): off.
    public var historical: HistoricalTrustStore?

    public init(
        purpose: CertificatePurpose = .sslServer, time: Date? = nil, hostname: String? = nil,
        minimumDaysValid: Int? = nil, allowPartialChain: Bool = false, intermediates: [X509Certificate] = [],
        limits: InputLimits = .default
    ) {
        self.purpose = purpose
        self.time = time
        self.hostname = hostname
        self.minimumDaysValid = minimumDaysValid
        self.allowPartialChain = allowPartialChain
        self.intermediates = intermediates
        self.limits = limits
    }
}
