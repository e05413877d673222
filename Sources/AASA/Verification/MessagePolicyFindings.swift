internal import CAASACrypto
import Foundation

/// What the verification policy (docs/security.md#verification-policy) says about a message's
/// SignerInfos and certificates read as they are: no trust store, no chain, nothing verified
/// (what `aasa inspect` shows). The rules and sentences are the ones ``Verifier`` applies.
public struct MessagePolicyFindings: Hashable, Sendable {
    /// One list per SignerInfo, in ``SignedData/signerInfos`` order: its digest algorithm and the
    /// digest of its signature algorithm (``PolicyFinding/depth`` is the SignerInfo's index).
    public var signerInfos: [[PolicyFinding]]
    /// One list per certificate, in ``SignedData/certificates`` (file) order: its key size and the
    /// digest of its signature, the self-signature of a self-signed certificate excepted (as for
    /// an anchor). ``PolicyFinding/fileIndex`` is the certificate's index.
    public var certificates: [[PolicyFinding]]

    /// Every finding: the SignerInfos', then the certificates'.
    public var all: [PolicyFinding] { signerInfos.flatMap { $0 } + certificates.flatMap { $0 } }
}

extension SignedData {
    /// The verification policy's findings on every SignerInfo and every certificate the message
    /// carries, without a trust store: refusals (MD5, keys under 1,024 bits, …) have
    /// ``PolicyFinding/refused`` set, warnings (SHA-1, RSA or DSA keys under 2,048 bits) not.
    /// With `allowWeakCrypto`, refusals become warnings, as in ``VerificationOptions``.
    ///
    /// A chain check (``Verifier``) judges the certificates of the chain it builds, which may
    /// include anchors and intermediates the message does not carry and skip ones it does.
    public func policyFindings(allowWeakCrypto: Bool = false) -> MessagePolicyFindings {
        let allow: Int32 = allowWeakCrypto ? 1 : 0
        let signers = (0..<signerInfos.count).map { index -> [PolicyFinding] in
            var report = caasa_policy_report()
            _ = caasa_policy_check_signer_info(pointer, index, allow, &report)
            return PolicyFinding.all(in: report)
        }
        var stack: OpaquePointer?
        guard caasa_pkcs7_certificates(pointer, &stack) == .CAASA_OK, let stack else {
            return MessagePolicyFindings(signerInfos: signers, certificates: certificates.map { _ in [] })
        }
        let owner = CertificateStack(takingOwnership: stack)
        let certificateFindings = (0..<certificates.count).map { index -> [PolicyFinding] in
            var report = caasa_policy_report()
            _ = caasa_policy_check_certificate(owner.pointer, index, allow, &report)
            return PolicyFinding.all(in: report, fileIndex: index)
        }
        return MessagePolicyFindings(signerInfos: signers, certificates: certificateFindings)
    }
}
