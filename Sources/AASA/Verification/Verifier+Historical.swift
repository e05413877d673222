internal import CAASACrypto
import Foundation

/// The historical mode (``VerificationOptions/historical``, `--historical`): was the file signed
/// under a publicly trusted chain when it was served?
///
/// The signatures have been checked exactly as for any file (``Verifier``), and the chain failed
/// today only for its trust or its dates. Then, for each signer:
/// 1. the chain is built to a root of the historical store (to the roots trusted at
///    ``VerificationOptions/time`` when one is given), checking signatures but no dates;
/// 2. its window is the intersection of every certificate's validity (as OpenSSL checks it,
///    `notBefore <= t < notAfter`) with the spans the store trusted that root;
/// 3. the time is the one asked for, else the signed signingTime if it lies in the window,
///    else the window's start;
/// 4. the chain is verified again at that time against that root alone, with every check of an
///    ordinary verification: purpose, host, key usage, the verification policy.
/// The answer is ``VerificationVerdict/validThen(_:)`` or a refusal that says which step failed.
extension Verifier {
    /// The failures the historical mode looks past: a chain that does not reach today's roots,
    /// or is out of its dates. Every other verdict stands.
    static func historicalModeApplies(to verdict: VerificationVerdict) -> Bool {
        switch verdict {
        case .untrusted, .expired, .notYetValid: return true
        default: return false
        }
    }

    struct HistoricalOutcome {
        var verdict: VerificationVerdict
        var checkedAt: Date?
        var chain: [CertificateInfo] = []
        var warnings: [PolicyFinding] = []
        /// What would let the chain be built (an issuer to supply), when that is what failed.
        var remedy: VerificationRemedy?
    }

    func checkHistorically(
        against store: HistoricalTrustStore, message: SignedData, signers: CertificateStack,
        signerInfos: [CertificateInfo], untrusted: CertificateStack, today: VerificationVerdict
    ) -> HistoricalOutcome {
        var first: (validity: HistoricalValidity, chain: [CertificateInfo])?
        var warnings: [PolicyFinding] = []
        var window: ClosedRange<Date>?
        for index in 0..<signerInfos.count {
            let outcome = checkSignerHistorically(
                index, against: store, message: message, signers: signers, untrusted: untrusted, today: today)
            warnings += outcome.warnings
            guard case .validThen(let validity) = outcome.verdict else {
                return HistoricalOutcome(
                    verdict: outcome.verdict, checkedAt: outcome.checkedAt, chain: outcome.chain, warnings: warnings,
                    remedy: outcome.remedy)
            }
            if first == nil { first = (validity, outcome.chain) }
            if let current = window {
                guard current.overlaps(validity.window) else {
                    return HistoricalOutcome(
                        verdict: .untrusted(
                            "the signers' chains were never valid at the same time (historical mode): SignerInfo 1 from \(Self.span(current)), SignerInfo \(index + 1) from \(Self.span(validity.window))",
                            certificate: nil, depth: 0),
                        checkedAt: nil, chain: first?.chain ?? [], warnings: warnings)
                }
                window = current.clamped(to: validity.window)
            } else {
                window = validity.window
            }
        }
        guard let first, let window else { return HistoricalOutcome(verdict: today, checkedAt: nil) }
        var validity = first.validity
        let chain = first.chain
        validity.window = window
        return HistoricalOutcome(
            verdict: .validThen(validity), checkedAt: validity.checkedAt, chain: chain, warnings: warnings)
    }

    private static func span(_ range: ClosedRange<Date>) -> String {
        "\(InternetDateTime.string(from: range.lowerBound)) to \(InternetDateTime.string(from: range.upperBound))"
    }

    private func checkSignerHistorically(
        _ index: Int, against store: HistoricalTrustStore, message: SignedData, signers: CertificateStack,
        untrusted: CertificateStack, today: VerificationVerdict
    ) -> HistoricalOutcome {
        let requested = options.time
        let asOf = requested.map { " at \(InternetDateTime.string(from: $0))" } ?? ""
        func refused(
            _ reason: String, _ certificate: CertificateInfo? = nil, depth: Int = 0, chain: [CertificateInfo] = [],
            remedy: VerificationRemedy? = nil
        )
            -> HistoricalOutcome
        {
            HistoricalOutcome(
                verdict: .untrusted(reason, certificate: certificate, depth: depth), checkedAt: nil, chain: chain,
                remedy: remedy)
        }

        // 1. Which root of the store the chain reaches, whenever that was.
        let anchors: TrustStore
        do {
            anchors = try store.trustStore(trustedAt: requested)
        } catch {
            return refused("cannot load \(store.name): \(error)")
        }
        var built = caasa_chain_result()
        defer { caasa_chain_result_clear(&built) }
        let status = caasa_build_chain_untimed(anchors.pointer, signers.pointer, index, untrusted.pointer, &built)
        guard status == .CAASA_OK else {
            return refused(AASAError.fromStatus(status, "cannot build the certificate chain").message)
        }
        let chain = built.chain.flatMap { try? CertificateStack.borrowing($0).certificates().map(\.info) } ?? []
        guard built.failure == .CAASA_CHAIN_OK, let top = chain.last else {
            let detail = String(fixedCString: built.error_string)
            let depth = Int(built.error_depth)
            guard let top = chain.last else { return refused("no chain to \(store.name)\(asOf): \(detail)") }
            if built.failure == .CAASA_CHAIN_UNTRUSTED {
                return refused(
                    "the chain cannot be built (historical mode): its issuer \"\(top.issuer)\" is not in the file, not among the intermediates given and not a root of \(store.name)\(asOf)",
                    top, depth: chain.count - 1, chain: chain, remedy: .supplyIssuer)
            }
            return refused(
                "no chain to a root of \(store.name)\(asOf): \(detail)", chain[min(depth, chain.count - 1)],
                depth: depth, chain: chain)
        }
        guard let root = store.root(withFingerprint: top.sha256Fingerprint) else {
            return refused(
                "the chain ends at \"\(top.subject)\", which is not a root of \(store.name)", top,
                depth: chain.count - 1,
                chain: chain)
        }

        // 2. The window: every certificate within its dates, the root in the store.
        let validFrom = chain.map(\.notBefore).max() ?? top.notBefore
        let lastValid = chain.map { Self.lastValidSecond(of: $0) }.min() ?? top.notAfter
        guard validFrom <= lastValid else {
            let ends = chain.min { $0.notAfter < $1.notAfter } ?? top
            let starts = chain.max { $0.notBefore < $1.notBefore } ?? top
            return refused(
                "no time when the chain was valid (historical mode): the validity periods of its certificates never overlap (\"\(ends.subject)\" expired at \(InternetDateTime.string(from: ends.notAfter)), \"\(starts.subject)\" is valid from \(InternetDateTime.string(from: starts.notBefore)))",
                ends, chain: chain)
        }
        let windows: [(range: ClosedRange<Date>, period: TrustPeriod)] = root.periods.compactMap { period in
            let start = max(validFrom, period.from)
            let end = period.removedBy.map { min(lastValid, $0.addingTimeInterval(-1)) } ?? lastValid
            return start <= end ? (start...end, period) : nil
        }
        let validity = InternetDateTime.string(from: validFrom) + " to " + InternetDateTime.string(from: lastValid)
        guard !windows.isEmpty else {
            let spans = root.periods.map { period in
                HistoricalValidity.describe(period)
            }.joined(separator: ", ")
            return refused(
                "no time when the chain was valid and its root trusted (historical mode): its certificates were valid from \(validity), but \(store.name) held \"\(top.subject)\" only \(spans)",
                top, depth: chain.count - 1, chain: chain)
        }

        // 3. The time.
        let signingTime = message.signingTime(ofSignerInfo: index)
        let chosen:
            (
                time: Date, source: HistoricalValidity.TimeSource,
                window: (range: ClosedRange<Date>, period: TrustPeriod)?
            )
        if let requested {
            chosen = (requested, .requested, windows.first { $0.range.contains(requested) })
        } else if let signingTime, let window = windows.first(where: { $0.range.contains(signingTime) }) {
            chosen = (signingTime, .signingTime, window)
        } else {
            chosen = (windows[0].range.lowerBound, .windowStart, windows[0])
        }

        // 4. The chain again at that time, against that root alone, with every check.
        let rootOnly: TrustStore
        let rootInfo: CertificateInfo
        do {
            let certificate = try root.certificate()
            rootInfo = certificate.info
            rootOnly = try TrustStore(TrustConfiguration(useSystemRoots: false, anchors: [certificate]))
        } catch {
            return refused("cannot load the root \"\(top.subject)\": \(error)")
        }
        let check = checkChain(
            of: signers, index: index, untrusted: untrusted, at: chosen.time, requireDigitalSignature: true,
            anchors: rootOnly)
        if let failure = check.failure {
            return HistoricalOutcome(
                verdict: failure, checkedAt: chosen.time, chain: check.chain, warnings: check.warnings)
        }
        guard let window = chosen.window else {
            return HistoricalOutcome(
                verdict: .untrusted(
                    "\(InternetDateTime.string(from: chosen.time)) is outside the window (historical mode): the chain was valid and its root trusted only from \(windows.map { Self.span($0.range) }.joined(separator: ", "))",
                    certificate: nil, depth: 0),
                checkedAt: chosen.time, chain: check.chain, warnings: check.warnings)
        }
        let result = HistoricalValidity(
            window: window.range, checkedAt: chosen.time, timeSource: chosen.source, signingTime: signingTime,
            store: store.name, root: rootInfo, rootPeriod: window.period,
            failsToday: failsToday(check.chain, root: root, rootInfo: rootInfo, store: store, today: today))
        return HistoricalOutcome(
            verdict: .validThen(result), checkedAt: chosen.time, chain: check.chain, warnings: check.warnings)
    }

    /// The last whole second at which OpenSSL accepts `certificate`'s dates: it counts a
    /// certificate as expired from its notAfter second on (`X509_cmp_time` returns -1 for equal).
    static func lastValidSecond(of certificate: CertificateInfo) -> Date {
        Date(timeIntervalSince1970: certificate.notAfter.timeIntervalSince1970.rounded(.down) - 1)
    }

    /// Why the chain fails today, one sentence each.
    private func failsToday(
        _ chain: [CertificateInfo], root: HistoricalRoot, rootInfo: CertificateInfo, store: HistoricalTrustStore,
        today: VerificationVerdict
    ) -> [String] {
        let now = Date()
        var reasons: [String] = []
        for (depth, certificate) in chain.enumerated() where certificate.notAfter <= now {
            let which = depth == 0 ? "the signer certificate" : "\"\(certificate.subject)\""
            reasons.append("\(which) expired at \(InternetDateTime.string(from: certificate.notAfter))")
        }
        if !root.isTrusted(at: now), let last = root.periods.last {
            let day = { (date: Date) in String(InternetDateTime.string(from: date).prefix(10)) }
            let removal =
                last.removedBy.map {
                    "was removed from \(store.name) by \(day($0)) (last in the snapshot of \(day(last.lastSeen)))"
                }
                ?? "is not in \(store.name) today"
            reasons.append("the root \"\(rootInfo.subject)\" \(removal)")
        }
        if reasons.isEmpty, let reason = today.reason { reasons.append(reason) }
        return reasons
    }
}
