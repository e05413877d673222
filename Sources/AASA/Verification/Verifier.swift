internal import CAASACrypto
import Foundation

/// Verifies signed AASA files: the signature over the content, then the signer's chain.
///
/// ```swift
/// let verifier = try Verifier(trust: TrustStore(TrustConfiguration(anchorFiles: ["ca.pem"])))
/// let result = verifier.verify(fileBytes)
/// if let json = result.content { … }   // set only when valid
/// ```
///
/// Verification never throws for a bad file: every failure is a ``VerificationVerdict``.
///
/// A verifier is a value that many threads may use at once. To verify many files signed by
/// the same chain, give it a ``ChainCache`` and a fixed ``VerificationOptions/time``: each
/// chain is then built and checked once, while every file's signature is still checked.
public struct Verifier: Sendable {
    public let trust: TrustStore
    public var options: VerificationOptions
    /// Where chain checks are remembered between files; nil (the default) checks every chain.
    public var chainCache: ChainCache?

    public init(trust: TrustStore, options: VerificationOptions = VerificationOptions(), chainCache: ChainCache? = nil)
    {
        self.trust = trust
        self.options = options
        self.chainCache = chainCache
    }

    /// Detects what `data` is and verifies it.
    public func verify(_ data: Data) -> VerificationResult {
        verify(FileKindDetector.detect(data, cache: chainCache?.certificates, limits: options.limits))
    }

    /// Verifies a file whose bytes were already detected (``AASAFile/detection``), so that a
    /// command that also reads the JSON parses the message once.
    public func verify(_ detection: Detection) -> VerificationResult {
        let checkedAt = options.time ?? Date()
        if let unsupported = detection.unsupportedCMS {
            return result(.unsupportedCMS(unsupported), .unknown, checkedAt)
        }
        if let damaged = detection.damagedPKCS7Encoding {
            return result(.malformed(detection.detail ?? "damaged PKCS#7 \(damaged.rawValue)"), .unknown, checkedAt)
        }
        guard let message = detection.message else {
            let what =
                detection.kind == .json
                ? "the file is plain JSON" : "the file is not PKCS#7 (\(detection.detail ?? "unknown"))"
            return result(.notSigned(what), detection.kind, checkedAt)
        }
        return verify(message, kind: detection.kind, at: checkedAt)
    }

    /// Verifies an already parsed message.
    public func verify(_ message: SignedData) -> VerificationResult {
        let kind: FileKind
        switch message.encoding {
        case .der: kind = message.isSignedData ? .pkcs7DER : .pkcs7Other
        case .pem: kind = message.isSignedData ? .pkcs7PEM : .pkcs7Other
        case .smime: kind = message.isSignedData ? .pkcs7SMIME : .pkcs7Other
        }
        return verify(message, kind: kind, at: options.time ?? Date())
    }

    func verifyOnce(_ message: SignedData, kind: FileKind, at checkedAt: Date) -> VerificationResult {
        guard message.isSignedData else {
            return result(.notSigned("PKCS#7 \(message.contentInfoType), not SignedData"), kind, checkedAt)
        }
        guard !message.signerInfos.isEmpty else {
            return result(
                .notSigned("SignedData with no signer (a certificates-only bundle)"), kind, checkedAt, message)
        }
        guard message.hasContent else {
            return result(.malformed("detached signature: the content is not embedded"), kind, checkedAt, message)
        }
        guard message.encapsulatedContentType == "pkcs7-data" else {
            return result(
                .malformed(
                    "the signed content is \(message.encapsulatedContentDescription), not data (an AASA file signs JSON)"
                ),
                kind, checkedAt, message)
        }

        // 1. The signatures over the content.
        let signature: SignatureCheck
        do {
            signature = try checkSignatures(of: message)
        } catch let failure as SignatureFailure {
            return result(failure.verdict, kind, checkedAt, message, warnings: failure.warnings)
        } catch {
            return result(.malformed("\(error)"), kind, checkedAt, message)
        }

        // 2. Each signer's chain to the trust anchors (remembered in the chain cache, if any).
        let untrustedCertificates = message.certificates + options.intermediates
        let untrusted: CertificateStack
        do {
            untrusted = try CertificateStack(untrustedCertificates)
        } catch {
            return result(.malformed("\(error)"), kind, checkedAt, message, signers: signature.signerInfos)
        }
        var firstChain: [CertificateInfo] = []
        var warnings = signature.warnings
        for index in 0..<signature.signers.count {
            let check = cachedChainCheck(
                of: signature.signers, index: index, signer: signature.signerInfos[index],
                untrusted: untrusted, untrustedCertificates: untrustedCertificates, at: checkedAt)
            if index == 0 { firstChain = check.chain }
            warnings += check.warnings
            if let verdict = check.failure {
                if let store = options.historical, Self.historicalModeApplies(to: verdict) {
                    // `--historical`: the same signatures, the chain as it was when signed.
                    let historical = checkHistorically(
                        against: store, message: message, signers: signature.signers,
                        signerInfos: signature.signerInfos, untrusted: untrusted, today: verdict)
                    var outcome = VerificationResult(
                        verdict: historical.verdict, kind: kind, checkedAt: historical.checkedAt ?? checkedAt,
                        signerInfos: message.signerInfos, signers: signature.signerInfos,
                        chain: historical.chain.isEmpty ? firstChain : historical.chain,
                        content: historical.verdict.isValidThen ? signature.content : nil,
                        warnings: signature.warnings + historical.warnings)
                    outcome.embeddedCertificates = message.certificates.map(\.info)
                    outcome.historicalChecked = true
                    outcome.historicalRemedy = historical.remedy
                    if !historical.verdict.isValidThen { outcome.chainProblems = check.problems }
                    return outcome
                }
                var failed = result(
                    verdict, kind, checkedAt, message, signers: signature.signerInfos, chain: firstChain,
                    warnings: warnings)
                failed.chainProblems = check.problems
                return failed
            }
            if let days = options.minimumDaysValid,
                let soonest = check.chain.min(by: { $0.notAfter < $1.notAfter }),
                soonest.notAfter.timeIntervalSince(checkedAt) < TimeInterval(days) * 86_400
            {
                return result(
                    .expiringSoon(days: days, certificate: soonest), kind, checkedAt, message,
                    signers: signature.signerInfos, chain: firstChain, warnings: warnings)
            }
        }
        var valid = VerificationResult(
            verdict: .valid, kind: kind, checkedAt: checkedAt, signerInfos: message.signerInfos,
            signers: signature.signerInfos, chain: firstChain, content: signature.content, warnings: warnings)
        valid.embeddedCertificates = message.certificates.map(\.info)
        return valid
    }

    private func result(
        _ verdict: VerificationVerdict, _ kind: FileKind, _ checkedAt: Date, _ message: SignedData? = nil,
        signers: [CertificateInfo] = [], chain: [CertificateInfo] = [], warnings: [PolicyFinding] = []
    ) -> VerificationResult {
        precondition(verdict != .valid)
        var failed = VerificationResult(
            verdict: verdict, kind: kind, checkedAt: checkedAt, signerInfos: message?.signerInfos ?? [],
            signers: signers, chain: chain, content: nil, warnings: warnings)
        failed.embeddedCertificates = message?.certificates.map(\.info) ?? []
        return failed
    }

    // MARK: Signatures

    private struct SignatureCheck {
        var content: Data
        var signers: CertificateStack
        var signerInfos: [CertificateInfo]
        /// The policy's warnings on the SignerInfos' algorithms.
        var warnings: [PolicyFinding]
    }

    private struct SignatureFailure: Error {
        var verdict: VerificationVerdict
        var warnings: [PolicyFinding] = []
    }

    private func checkSignatures(of message: SignedData) throws -> SignatureCheck {
        let extra = options.intermediates.isEmpty ? nil : try CertificateStack(options.intermediates)
        var buffer = caasa_buffer()
        var signers: OpaquePointer?
        var report = caasa_policy_report()
        let status = caasa_pkcs7_verify_signature(
            message.pointer, extra?.pointer, options.allowWeakCrypto ? 1 : 0, &report, &buffer, &signers)
        let findings = PolicyFinding.all(in: report)
        let warnings = findings.filter { !$0.refused }
        guard status == .CAASA_OK, let signers else {
            let entries = OpenSSLErrorQueue.drain()
            let explanation = entries.last(where: { $0.explanation?.isEmpty == false })?.explanation
            let openSSL = entries.last?.text
            let detail = openSSL.map { " (OpenSSL: \($0))" } ?? ""
            switch status {
            case .CAASA_ERR_UNSUPPORTED_ALGORITHM:
                throw SignatureFailure(
                    verdict: .unsupportedAlgorithm(explanation ?? "an algorithm OpenSSL cannot verify\(detail)"))
            case .CAASA_ERR_SIGNED_ATTRIBUTES:
                throw SignatureFailure(
                    verdict: .malformed("attributes break RFC 5652: \(explanation ?? "")"))
            case .CAASA_ERR_WEAK_ALGORITHM:
                let refused = findings.first(where: \.refused)?.message ?? "a weak algorithm"
                throw SignatureFailure(verdict: .weakAlgorithm(refused), warnings: warnings)
            case .CAASA_ERR_CONTENT_DIGEST_MISMATCH:
                throw SignatureFailure(
                    verdict: .tampered("the content does not match the signed digest: it was changed after signing"))
            case .CAASA_ERR_BAD_SIGNATURE:
                throw SignatureFailure(
                    verdict: .tampered(
                        "the signature does not match the content: the content or the signature was changed after signing, or another key made it\(detail)"
                    ))
            case .CAASA_ERR_SIGNER_NOT_FOUND:
                let wanted =
                    message.signerInfos.first.map { "issuer \"\($0.issuer)\", serial \($0.serialNumber)" } ?? ""
                throw SignatureFailure(
                    verdict: .signerNotFound("no certificate in the file matches the signer (\(wanted))"))
            default:
                throw SignatureFailure(verdict: .malformed("the signature cannot be checked\(detail)"))
            }
        }
        let content = Data(consuming: &buffer)
        let owner = CertificateStack(takingOwnership: signers)
        return SignatureCheck(
            content: content, signers: owner,
            signerInfos: try owner.certificates(reusing: chainCache?.certificates).map(\.info),
            warnings: warnings)
    }

    // MARK: Chains

    /// ``checkChain(of:index:untrusted:at:)`` through the ``chainCache``, when there is one.
    private func cachedChainCheck(
        of signers: CertificateStack, index: Int, signer: CertificateInfo, untrusted: CertificateStack,
        untrustedCertificates: [X509Certificate], at checkedAt: Date
    ) -> (
        failure: VerificationVerdict?, chain: [CertificateInfo], warnings: [PolicyFinding],
        problems: [VerificationVerdict]
    ) {
        guard let chainCache else {
            let check = checkChain(
                of: signers, index: index, untrusted: untrusted, at: checkedAt, requireDigitalSignature: true)
            return (check.failure, check.chain, check.warnings, check.problems)
        }
        let key = ChainCache.Key(
            signer: signer.sha256Fingerprint, untrusted: untrustedCertificates.map(\.info.sha256Fingerprint),
            trust: ObjectIdentifier(trust), purpose: options.purpose,
            time: UnixSeconds.of(checkedAt), hostname: options.hostname,
            allowPartialChain: options.allowPartialChain, allowWeakCrypto: options.allowWeakCrypto)
        if let entry = chainCache.lookup(key) { return (entry.failure, entry.chain, entry.warnings, entry.problems) }
        let check = checkChain(
            of: signers, index: index, untrusted: untrusted, at: checkedAt, requireDigitalSignature: true)
        if check.ran {  // a check that could not run (out of memory) is not an answer to keep
            chainCache.store(
                ChainCache.Entry(
                    failure: check.failure, chain: check.chain, warnings: check.warnings, problems: check.problems,
                    trust: trust),
                for: key)
        }
        return (check.failure, check.chain, check.warnings, check.problems)
    }

    /// Builds and checks the chain of `signers[index]`, the verification policy included (and the
    /// signer's keyUsage when `requireDigitalSignature`); `ran` is false when the check could not
    /// even run (its verdict then says why).
    func checkChain(
        of signers: CertificateStack, index: Int, untrusted: CertificateStack, at checkedAt: Date,
        requireDigitalSignature: Bool, anchors: TrustStore? = nil
    ) -> (
        failure: VerificationVerdict?, chain: [CertificateInfo], warnings: [PolicyFinding],
        problems: [VerificationVerdict], ran: Bool
    ) {
        var outcome = caasa_chain_result()
        defer { caasa_chain_result_clear(&outcome) }
        let status: caasa_status = options.hostname.withOptionalCString { host in
            var params = caasa_chain_params(
                purpose: options.purpose.cValue, use_time: 1,
                time: UnixSeconds.of(checkedAt),
                host: host, partial_chain: options.allowPartialChain ? 1 : 0,
                allow_weak: options.allowWeakCrypto ? 1 : 0,
                require_digital_signature: requireDigitalSignature ? 1 : 0)
            return caasa_verify_chain(
                (anchors ?? trust).pointer, signers.pointer, index, untrusted.pointer, &params, &outcome)
        }
        guard status == .CAASA_OK else {
            let error = AASAError.fromStatus(status, "cannot check the certificate chain")
            return (.untrusted(error.message, certificate: nil, depth: 0), [], [], [], false)
        }
        let chain =
            outcome.chain.flatMap {
                try? CertificateStack.borrowing($0).certificates(reusing: chainCache?.certificates).map(\.info)
            } ?? []
        let failing = outcome.error_certificate.flatMap {
            try? CertificateStack.borrowing($0).certificates().first?.info
        }
        let depth = Int(outcome.error_depth)
        let detail = String(fixedCString: outcome.error_string)
        let findings = PolicyFinding.all(in: outcome.policy)
        let warnings = findings.filter { !$0.refused }
        let problems = problems(of: outcome, at: checkedAt)
        guard let certificate = failing ?? chain.first else {
            return outcome.failure == .CAASA_CHAIN_OK
                ? (nil, chain, warnings, problems, true)
                : (.untrusted(detail, certificate: nil, depth: depth), chain, warnings, problems, true)
        }
        let verdict: VerificationVerdict?
        switch outcome.failure {
        case .CAASA_CHAIN_WEAK_ALGORITHM:
            let refused = findings.first(where: \.refused)
            verdict = .weakAlgorithm(
                (refused?.message ?? detail) + " (\"\(certificate.subject)\")")
        case .CAASA_CHAIN_KEY_USAGE:
            verdict = .signerKeyUsage(certificate: certificate, keyUsage: KeyUsage.names(outcome.key_usage))
        default:
            verdict = self.verdict(
                outcome.failure, detail: detail, certificate: certificate, depth: depth, leaf: chain.first)
        }
        return (verdict, chain, warnings, problems, true)
    }

    /// The verdict for one chain failure OpenSSL reported; nil for none.
    private func verdict(
        _ failure: caasa_chain_failure, detail: String, certificate: CertificateInfo, depth: Int,
        leaf: CertificateInfo?
    ) -> VerificationVerdict? {
        switch failure {
        case .CAASA_CHAIN_OK: return nil
        case .CAASA_CHAIN_EXPIRED: return .expired(certificate: certificate, depth: depth)
        case .CAASA_CHAIN_NOT_YET_VALID: return .notYetValid(certificate: certificate, depth: depth)
        case .CAASA_CHAIN_WRONG_PURPOSE:
            return .wrongPurpose(options.purpose, certificate: certificate, depth: depth)
        case .CAASA_CHAIN_HOST_MISMATCH:
            return .hostMismatch(host: options.hostname ?? "", certificate: leaf ?? certificate)
        case .CAASA_CHAIN_UNTRUSTED, .CAASA_CHAIN_BAD_CERT_SIGNATURE, .CAASA_CHAIN_OTHER,
            .CAASA_CHAIN_WEAK_ALGORITHM, .CAASA_CHAIN_KEY_USAGE:
            return .untrusted(detail, certificate: certificate, depth: depth)
        }
    }

    /// Every problem of a refused chain (``VerificationResult/chainProblems``), each with its
    /// certificate and dates.
    private func problems(of outcome: caasa_chain_result, at checkedAt: Date) -> [VerificationVerdict] {
        guard outcome.problem_count > 0, let pointer = outcome.problem_chain,
            let chain = try? CertificateStack.borrowing(pointer).certificates().map(\.info), !chain.isEmpty
        else { return [] }
        let recorded = withUnsafeBytes(of: outcome.problems) { raw in
            Array(raw.bindMemory(to: caasa_chain_problem.self).prefix(Int(outcome.problem_count)))
        }
        var problems = recorded.compactMap { problem in
            let depth = Int(problem.depth)
            let certificate = chain[min(max(depth, 0), chain.count - 1)]
            return verdict(
                problem.failure, detail: String(cString: caasa_chain_error_string(problem.error)),
                certificate: certificate, depth: depth, leaf: chain.first)
        }
        // OpenSSL does not check the dates of the top certificate of a chain that reaches no
        // trusted root (nothing verifies its signature either): its dates are said here.
        for (depth, certificate) in chain.enumerated() {
            let dated: VerificationVerdict? =
                checkedAt > certificate.notAfter
                ? .expired(certificate: certificate, depth: depth)
                : checkedAt < certificate.notBefore ? .notYetValid(certificate: certificate, depth: depth) : nil
            if let dated, !problems.contains(dated) { problems.append(dated) }
        }
        return problems
    }
}

extension CertificateStack {
    /// Reads a list still owned by C code (no ownership taken): the certificates are shared.
    static func borrowing(_ pointer: OpaquePointer) throws -> CertificateStack {
        guard let copy = caasa_certs_new() else { throw AASAError(.outOfMemory, "out of memory") }
        let owner = CertificateStack(takingOwnership: copy)
        for index in 0..<caasa_certs_count(pointer) {
            let status = caasa_certs_append(copy, pointer, index)
            guard status == .CAASA_OK else { throw AASAError.fromStatus(status, "cannot copy certificate list") }
        }
        return owner
    }
}

extension Optional where Wrapped == String {
    /// Calls `body` with a C string for the value, or NULL.
    func withOptionalCString<Result>(_ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        switch self {
        case .some(let string): return string.withCString { body($0) }
        case .none: return body(nil)
        }
    }
}
