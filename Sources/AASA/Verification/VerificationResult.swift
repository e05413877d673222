import Foundation

/// What ``Verifier`` found: the verdict, and everything it learned on the way.
public struct VerificationResult: Sendable {
    /// Valid, or why not.
    public let verdict: VerificationVerdict
    /// What the input was.
    public let kind: FileKind
    /// The time the certificates were checked at.
    public let checkedAt: Date
    /// The SignerInfos (digest and signature algorithms); empty when not signed.
    public let signerInfos: [SignerInfo]
    /// The signer certificates, when the signatures were checked.
    public let signers: [CertificateInfo]
    /// The chain as built for the first signer, signer first (also when it failed).
    public let chain: [CertificateInfo]
    /// The content exactly as embedded, and *only* when the verdict is valid or, when asked for
    /// with ``VerificationOptions/historical``, valid-then.
    public let content: Data?
    /// What the verification policy accepted with a warning (SHA-1, RSA or DSA keys under
    /// 2,048 bits, or anything weak allowed by ``VerificationOptions/allowWeakCrypto``), as far
    /// as verification got.
    public var warnings: [PolicyFinding] = []
    /// When the chain was refused: every problem it has, not only the verdict's (an untrusted
    /// chain whose signer has also expired, say), each with its certificate and dates. Found
    /// by a second pass that goes on past each problem; the verdict alone decides.
    public var chainProblems: [VerificationVerdict] = []
    /// The certificates the file embeds, in the order it holds them (`aasa inspect` lists them
    /// so, and `--certificate N` picks one).
    public var embeddedCertificates: [CertificateInfo] = []

    /// Whether the historical mode (``VerificationOptions/historical``) checked the chain: the
    /// verdict is then valid-then or the refusal of that check.
    public var historicalChecked = false

    /// The remedy of a historical check that failed for a missing issuer.
    var historicalRemedy: VerificationRemedy?

    /// What the user can do about the refusal, when the library knows (``VerificationRemedy``):
    /// the historical mode for a legacy file that fails today, an issuer to supply when the mode
    /// could not build the chain. Nil for a file that is accepted.
    public var remedy: VerificationRemedy? {
        if suggestsHistoricalMode { return .historicalMode }
        return isAccepted ? nil : historicalRemedy
    }

    /// Whether the file looks legacy (a certificate of its chain has expired) and fails today in
    /// a way the historical mode looks past (untrusted, expired, not yet valid), and the mode was
    /// not used: a refusal then names it.
    public var suggestsHistoricalMode: Bool {
        guard !historicalChecked, Verifier.historicalModeApplies(to: verdict) else { return false }
        return ([verdict] + chainProblems).contains { problem in
            if case .expired = problem { return true }
            return false
        }
    }

    /// Whether the file is valid.
    public var isValid: Bool { verdict.isValid }

    /// Whether the content may be used: valid, or valid-then (only ever given when the
    /// historical mode was asked for).
    public var isAccepted: Bool { verdict.isValid || verdict.isValidThen }
}
