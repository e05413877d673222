/// What the user can do about a refused file, as a value, for a front end to say in its own
/// terms: the `aasa` command names its flags (`--historical`, `--intermediates FILE`), a Swift
/// program its settings. The library's messages say what is wrong and name no command-line
/// flag; ``VerificationResult/refusal`` adds the remedy in the library's words.
public enum VerificationRemedy: Sendable, Equatable {
    /// The chain fails today only for its roots or dates and the file looks legacy: the
    /// historical mode (``VerificationOptions/historical``) checks it as it was when signed.
    case historicalMode
    /// The historical mode could not build the chain: an issuer certificate is neither in the
    /// file nor among the intermediates given (``TrustConfiguration``), and no root of the store.
    /// Give it as an intermediate, or fetch it from the caIssuers URL of the certificate.
    case supplyIssuer

    /// The remedy in the library's words, to follow the reason.
    public var description: String {
        switch self {
        case .historicalMode: return "a legacy file? the historical mode checks it as it was when signed"
        case .supplyIssuer:
            return "supply the issuer's certificate as an intermediate, or fetch it from its caIssuers URL"
        }
    }
}
