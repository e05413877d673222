import AASA
import Foundation

/// What to do about a refused file, in the command line's terms: the library's messages say
/// what is wrong and give the remedy as a value (``VerificationRemedy``); this adds it with the
/// flags that apply. The one place the error lines of `verify`, `extract` and `convert` get it.
enum RemedyHint {
    /// `message`, followed by what to do about it:
    /// - ``VerificationRemedy/historicalMode``: `--historical`;
    /// - ``VerificationRemedy/supplyIssuer`` (the historical mode could not build the chain):
    ///   `--intermediates FILE` or `--fetch-issuers`;
    /// - no remedy, when `code` is `untrusted` and `message` says that the signer certificate's
    ///   issuer was not found (OpenSSL's "unable to get (local) issuer certificate" at depth 0):
    ///   the file left out its intermediate. (A chain that stops higher, at an intermediate the
    ///   file embeds, most often lacks a root: `verify`'s next step covers that.)
    ///
    /// `fetching` says whether `--fetch-issuers` was on (and found nothing).
    static func adding(to message: String, remedy: VerificationRemedy?, code: String?, fetching: Bool) -> String {
        switch remedy {
        case .historicalMode:
            return "\(message) (a legacy file? --historical checks it as it was when signed)"
        case .supplyIssuer:
            return fetching
                ? "\(message); supply the issuer with --intermediates FILE (--fetch-issuers got none: see its lines above)"
                : "\(message); supply the issuer with --intermediates FILE (or --fetch-issuers)"
        case nil:
            break
        }
        guard code == "untrusted",
            message.contains("unable to get local issuer certificate (signer certificate ")
                || message.contains("unable to get issuer certificate (signer certificate ")
        else { return message }
        let hint =
            fetching
            ? "if the file left out an intermediate, give it with --intermediates FILE (--fetch-issuers got none: see its lines above)"
            : "if the file left out an intermediate, give it with --intermediates FILE, or fetch it from the certificate's caIssuers URL with --fetch-issuers"
        return "\(message); \(hint)"
    }
}
