import AASA
import AASAReports
import Foundation

/// Text rendering of certificates and verification results.
enum TextReport {
    static func date(_ date: Date) -> String { InternetDateTime.string(from: date) }

    static func certificate(_ info: CertificateInfo, indent: String) -> [String] {
        var lines = [
            "\(indent)subject:  \(info.subject)",
            "\(indent)issuer:   \(info.issuer)",
            "\(indent)serial:   \(info.serialNumber)",
            "\(indent)validity: \(date(info.notBefore)) .. \(date(info.notAfter))",
            "\(indent)key:      \(info.keyDescription)",
        ]
        if !info.subjectAlternativeNames.isEmpty {
            lines.append("\(indent)SANs:     \(info.subjectAlternativeNames.joined(separator: ", "))")
        }
        if let usage = info.extendedKeyUsage { lines.append("\(indent)EKU:      \(usage.joined(separator: ", "))") }
        lines.append("\(indent)SHA-256:  \(info.sha256Fingerprint)")
        return lines
    }

    static func verification(path: String, result: VerificationResult) -> [String] {
        var lines = ["\(Diagnostics.displayName(path)): \(result.verdict.code)"]
        if case .validThen(let validity) = result.verdict {
            lines += historical(validity)
        } else if let reason = result.verdict.reason {
            lines.append("  reason:     \(reason)")
        }
        // Every problem of the chain, not only the first: untrusted *and* expired, with dates.
        let problems = VerificationReport.problems(of: result)
        if problems.count > 1 {
            lines.append("  problems:")
            for problem in problems { lines.append("    \(problem.code): \(problem.reason ?? "")") }
        }
        for warning in result.warnings { lines.append("  warning:    \(warning.message)") }
        lines.append("  kind:       \(result.kind.rawValue)")
        lines.append("  checked at: \(date(result.checkedAt))")
        for info in result.signerInfos {
            let attributes = info.hasSignedAttributes ? "present" : "none"
            lines.append(
                "  digest:     \(info.digestAlgorithm) with \(info.signatureAlgorithm), signed attributes: \(attributes)"
            )
        }
        if let signer = result.signers.first {
            lines.append("  signer:")
            lines += certificate(signer, indent: "    ")
        }
        if !result.chain.isEmpty {
            lines.append("  chain:")
            for (depth, info) in result.chain.enumerated() { lines.append("    \(depth) \(info.subject)") }
        }
        if result.suggestsHistoricalMode {
            let file = path == "-" ? "FILE" : ShellWord.quoted(path)
            lines.append(
                "  legacy file? check it as it was when signed (Mozilla's root store of the time): aasa verify \(file) --historical"
            )
        }
        if let check = SigningTimeCheck(result) { lines += nextStep(check, path: path) }
        return lines
    }

    /// The lines of a valid-then verdict (`--historical`).
    static func historical(_ validity: HistoricalValidity) -> [String] {
        var lines = [
            "  meaning:    valid when signed, not today: the signature is intact and the chain was valid under a root of \(validity.store)",
            "  window:     \(date(validity.window.lowerBound)) .. \(date(validity.window.upperBound)) (every certificate valid, the root in the store)",
            "  time used:  \(validity.timeDescription)",
            "  root:       \(validity.root.subject)",
            "              SHA-256 \(validity.root.sha256Fingerprint)",
            "              in \(validity.store) \(validity.rootPeriodDescription)",
        ]
        for (index, reason) in validity.failsToday.enumerated() {
            lines.append((index == 0 ? "  fails today: " : "              ") + reason)
        }
        return lines
    }

    /// The commands that check the file as of its signing time (``SigningTimeCheck``).
    static func nextStep(_ check: SigningTimeCheck, path: String) -> [String] {
        let file = path == "-" ? "FILE" : ShellWord.quoted(path)
        let at = date(check.time)
        switch check.anchor {
        case .trustedRoot:
            return [
                "  next step:  check it as of a time when its certificates were all valid:",
                "    aasa verify \(file) --at \(at)",
            ]
        case .embedded(let index, let certificate):
            let pem = "issuer-\(index).pem"
            return [
                "  next step:  check it as of its signing time, trusting the issuer it embeds, \"\(certificate.subject)\"",
                "              (it comes from the file itself: compare its SHA-256 with an independent copy first,",
                "              \(certificate.sha256Fingerprint)):",
                "    aasa inspect \(file) --format pem --certificate \(index) > \(pem)",
                "    aasa verify \(file) --ca-file \(pem) --no-system-roots --partial-chain --at \(at)",
            ]
        case .missing(let issuer):
            return [
                "  next step:  the file embeds no certificate of its issuer, \"\(issuer)\": give it as an",
                "              untrusted intermediate with --intermediates FILE, or fetch it from the certificate's",
                "              caIssuers URL with --fetch-issuers; to check the file as of its signing time, get it",
                "              from an independent source (a certificate-transparency log, an old CA bundle) as",
                "              issuer.pem, then:",
                "    aasa verify \(file) --ca-file issuer.pem --no-system-roots --partial-chain --at \(at)",
            ]
        }
    }
}
