import Foundation

/// What to do when a chain stops at the signer certificate because its issuer is missing
/// (OpenSSL's "unable to get (local) issuer certificate" at depth 0): the file left out its
/// intermediate, which `--intermediates FILE` gives and `--fetch-issuers` fetches. Added to the
/// error line of `verify`, `extract` and `convert`. (A chain that stops higher, at an
/// intermediate the file embeds, most often lacks a root: `verify`'s next step covers that.)
enum MissingIssuerHint {
    /// `message`, with the hint after it when `code` is `untrusted` and `message` says that the
    /// signer certificate's issuer was not found; `fetching` says whether `--fetch-issuers` was on (and found nothing).
    static func adding(to message: String, code: String?, fetching: Bool) -> String {
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
