internal import CAASACrypto

/// One finding of the verification policy (docs/security.md#verification-policy): an algorithm
/// or key size that verification refuses, or accepts with a warning.
///
/// The policy itself is enforced by the C module: MD2, MD4 and MD5 are refused in the SignerInfo
/// and in every certificate signature of the chain; RSA and DSA keys under 1,024 bits (EC under
/// 160) are refused; SHA-1 and RSA or DSA keys under 2,048 bits are warnings.
/// ``VerificationOptions/allowWeakCrypto`` turns the refusals into warnings.
public struct PolicyFinding: Hashable, Sendable, Codable {
    /// What the finding is about.
    public enum Subject: String, Hashable, Sendable, Codable {
        /// The SignerInfo's digest algorithm.
        case digest
        /// The digest named by the SignerInfo's signature algorithm (md5WithRSAEncryption).
        case signatureDigest = "signature-digest"
        /// The digest of a certificate's signature.
        case certificateSignature = "certificate-signature"
        /// A certificate's key size.
        case keySize = "key-size"
    }

    /// What the finding is about.
    public let subject: Subject
    /// Whether the policy refused it (false: a warning).
    public let refused: Bool
    /// Whether the policy refuses it by default (a warning only with `allowWeakCrypto`).
    public let weak: Bool
    /// The chain depth of the certificate (0: the signer), or the SignerInfo's index.
    public let depth: Int
    /// The key size, for ``Subject/keySize``.
    public let bits: Int?
    /// "MD5", "SHA1" for digests; "RSA", "DSA", "EC" for keys.
    public let algorithm: String
    /// For a certificate read on its own by ``SignedData/policyFindings(allowWeakCrypto:)``: its
    /// index among the message's certificates, in file order (``depth`` is then that index too).
    /// Nil for findings on a chain as built, whose ``depth`` is the chain depth.
    public let fileIndex: Int?

    /// One sentence: what was found and what the policy makes of it.
    public var message: String {
        let which =
            fileIndex.map { "certificate [\($0)] of the file" }
            ?? (depth == 0 ? "the signer certificate" : "the certificate at chain depth \(depth)")
        let what: String
        switch subject {
        case .digest: what = "SignerInfo \(depth + 1) uses the digest \(algorithm)"
        case .signatureDigest: what = "SignerInfo \(depth + 1)'s signature algorithm uses the digest \(algorithm)"
        case .certificateSignature: what = "\(which) is signed with \(algorithm)"
        case .keySize: what = "\(which) has a \(bits ?? 0)-bit \(algorithm) key"
        }
        if refused {
            switch subject {
            case .keySize: return "\(what), below the minimum of \(algorithm == "EC" ? 160 : 1024) bits"
            default: return "\(what), which the verification policy forbids"
            }
        }
        if weak { return "\(what), accepted only because weak algorithms were allowed" }
        switch subject {
        case .keySize: return "\(what), below the recommended 2048 bits"
        default: return "\(what), which is deprecated (collisions are practical)"
        }
    }

    init(_ finding: caasa_policy_finding, fileIndex: Int? = nil) {
        switch finding.subject {
        case .CAASA_POLICY_DIGEST: subject = .digest
        case .CAASA_POLICY_SIGNATURE_DIGEST: subject = .signatureDigest
        case .CAASA_POLICY_CERT_SIGNATURE: subject = .certificateSignature
        case .CAASA_POLICY_KEY_SIZE: subject = .keySize
        }
        refused = finding.refused != 0
        weak = finding.weak != 0
        depth = Int(finding.depth)
        bits = finding.subject == .CAASA_POLICY_KEY_SIZE ? Int(finding.bits) : nil
        algorithm = String(fixedCString: finding.algorithm)
        self.fileIndex = fileIndex
    }

    /// Every finding of a C report, in order.
    static func all(in report: caasa_policy_report, fileIndex: Int? = nil) -> [PolicyFinding] {
        withUnsafeBytes(of: report.findings) { raw in
            let findings = raw.bindMemory(to: caasa_policy_finding.self)
            return (0..<min(Int(report.count), findings.count)).map {
                PolicyFinding(findings[$0], fileIndex: fileIndex)
            }
        }
    }
}
