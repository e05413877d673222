import AASA
import Foundation
import NIOHTTP1
import NIOSSL

/// Turns one domain's fetches into its report: which file iOS would use, what `aasa check`
/// says about it, and the hosting findings. Pure: no I/O.
struct DomainAnalysis {
    let domain: AuditDomain
    let wellKnown: FetchResult
    let root: FetchResult
    let cdn: FetchResult?
    /// Verifies signed files (trust as for TLS; no host required: identity is judged apart).
    let verifier: Verifier
    let checkTime: Date
    /// The JSON depth and certificate count allowed (the verifier's).
    var limits: InputLimits { verifier.options.limits }

    /// Apple's documented limit (the CDN and iOS reject larger files).
    static let appleSizeLimit = LintOptions().maximumFileSize

    private var diagnostics: [AuditDiagnostic] = []

    init(
        domain: AuditDomain, wellKnown: FetchResult, root: FetchResult, cdn: FetchResult?, verifier: Verifier,
        checkTime: Date
    ) {
        self.domain = domain
        self.wellKnown = wellKnown
        self.root = root
        self.cdn = cdn
        self.verifier = verifier
        self.checkTime = checkTime
    }

    func report(startedAt: Date, durationMs: Double) -> DomainReport {
        var analysis = self
        return analysis.build(startedAt: startedAt, durationMs: durationMs)
    }

    private mutating func add(_ rule: RuleID, _ message: String, url: String?) {
        let diagnostic = AuditDiagnostic(rule, message, url: url)
        if !diagnostics.contains(diagnostic) { diagnostics.append(diagnostic) }
    }

    // MARK: - The report

    private mutating func build(startedAt: Date, durationMs: Double) -> DomainReport {
        let tls = (wellKnown.tls ?? root.tls)?.report
        if let local = [wellKnown, root, cdn].compactMap({ $0?.failure }).first(where: \.isLocal) {
            // This machine could not fetch every URL: nothing here is a finding on the domain.
            return DomainReport(
                domain: domain.description, host: domain.host, port: domain.port, verdict: .notAudited, file: nil,
                paths: [pathReport(wellKnown), pathReport(root)], tls: tls?.verified == true ? tls : nil,
                cdn: cdn.map { CDNReport(fetch: pathReport($0), failure: [:], comparison: "not-compared") },
                diagnostics: [AuditDiagnostic(local.rule, local.message, url: nil)], startedAt: startedAt,
                durationMs: durationMs)
        }
        if let failure = [wellKnown, root].compactMap(\.failure).first(where: {
            if case .tls = $0 { true } else { false }
        }) {
            add(HostingRules.tlsError, "TLS: \(failure.message)", url: nil)
        }

        // Apple asks .well-known first and the root only when that fails.
        let primary: FetchResult? = serves(wellKnown) ? wellKnown : serves(root) ? root : nil
        pathFindings(wellKnown)
        if primary?.target != wellKnown.target { pathFindings(root) }
        if primary == nil {
            add(
                HostingRules.noFile,
                "no file: \(wellKnown.target.url) \(outcome(wellKnown)); \(root.target.url) \(outcome(root))",
                url: nil)
        } else if primary?.target == root.target {
            add(
                HostingRules.servedAtRootOnly,
                "only the legacy root path serves the file; \(wellKnown.target.url) \(outcome(wellKnown))",
                url: wellKnown.target.url)
        }

        var file: FileReport?
        if let primary, let response = primary.response {
            file = fileFindings(primary, response, tls: primary.tls ?? wellKnown.tls ?? root.tls)
            if primary.target == wellKnown.target, serves(root), let rootBody = root.response?.body,
                CopyComparison(response.body, rootBody, limits: limits) == .different
            {
                add(
                    HostingRules.rootFileDiffers,
                    "\(root.target.url) serves a file that says something else than \(wellKnown.target.url); iOS 9.0-9.2 read only the root path",
                    url: root.target.url)
            }
        }
        let cdnReport = cdn.map { cdnFindings($0, origin: primary?.response?.body) }

        let ordered = diagnostics.enumerated().sorted { a, b in
            a.element.severity != b.element.severity ? a.element.severity > b.element.severity : a.offset < b.offset
        }.map(\.element)
        return DomainReport(
            domain: domain.description, host: domain.host, port: domain.port, verdict: Self.verdict(ordered),
            file: file,
            paths: [pathReport(wellKnown), pathReport(root)], tls: tls, cdn: cdnReport, diagnostics: ordered,
            startedAt: startedAt, durationMs: durationMs)
    }

    /// What the domain served, for ``DomainReport/captured``: the answer of the path iOS would
    /// use (as ``build(startedAt:durationMs:)`` picks it), else the `.well-known` one.
    func captured() -> CapturedResponse {
        let tls = wellKnown.tls ?? root.tls
        var captured =
            serves(wellKnown)
            ? CapturedResponse(wellKnown, served: true, tls: tls)
            : serves(root)
                ? CapturedResponse(root, served: true, tls: tls) : CapturedResponse(wellKnown, served: false, tls: tls)
        captured.paths = [.init(wellKnown, name: "well-known"), .init(root, name: "root")]
        return captured
    }

    /// As ``DeprecationReport``: one function decides for both.
    static func verdict(_ diagnostics: [AuditDiagnostic]) -> AuditVerdict {
        AuditVerdict(DeprecationReport.Verdict(severities: diagnostics.map(\.severity)))
    }

    // MARK: - Paths

    /// A complete 200 answer within the size cap.
    private func serves(_ fetch: FetchResult) -> Bool {
        guard fetch.failure == nil, let response = fetch.response else { return false }
        return response.status == 200 && !response.truncated
    }

    /// What a path answered, for a message: "answers 404 Not Found", "redirects (301) to …".
    private func outcome(_ fetch: FetchResult) -> String {
        if let failure = fetch.failure {
            if case .tls = failure { return "fails TLS" }
            return "fails (\(failure.message))"
        }
        guard let response = fetch.response else { return "gives no answer" }
        let status = HTTPResponseStatus(statusCode: response.status)
        let phrase = "\(response.status) \(status.reasonPhrase)".trimmingCharacters(in: .whitespaces)
        if (300..<400).contains(response.status) {
            return "redirects (\(phrase)) to \(response.headers.first(name: "location") ?? "nowhere (no Location)")"
        }
        if response.status == 200 && response.truncated {
            return "serves more than the \(DomainAnalysis.appleSizeLimit / 1024) KB limit"
        }
        return "answers \(phrase)"
    }

    private mutating func pathFindings(_ fetch: FetchResult) {
        let url = fetch.target.url
        if let failure = fetch.failure {
            switch failure {
            case .tls:
                return  // reported once for the domain
            case .connection:
                // Usually the same for both paths: once for the domain.
                add(failure.rule, "\(fetch.target.authority): \(failure.message)", url: nil)
            case .timeout, .interrupted:
                add(failure.rule, "\(url): \(failure.message)", url: url)
            case .descriptorLimit, .proxy:
                return  // a not-audited report (build)
            }
            return
        }
        guard let response = fetch.response else { return }
        switch response.status {
        case 200:
            if response.truncated {
                let size =
                    response.declaredLength.map { "\($0) bytes (Content-Length)" }
                    ?? "more than \(response.body.count) bytes"
                add(
                    .fileTooLarge,
                    "\(url) serves \(size); Apple's limit is \(Self.appleSizeLimit) bytes (128 KB), and reading stopped at the cap",
                    url: url)
            }
        case 300..<400:
            let location = response.headers.first(name: "location").map { "Location: \($0)" } ?? "no Location header"
            add(
                HostingRules.redirect,
                "\(url) answers \(response.status) \(HTTPResponseStatus(statusCode: response.status).reasonPhrase) (\(location)); Apple follows no redirect",
                url: url)
        case 404, 410:
            break  // "not here": no-file or served-at-root-only tells it
        default:
            add(HostingRules.httpStatus, "\(url) \(outcome(fetch))", url: url)
        }
    }

    private func pathReport(_ fetch: FetchResult) -> PathReport {
        let response = fetch.response
        var kind: FileKind?
        if let response, serves(fetch) {
            kind = FileKindDetector.detect(response.body, limits: limits).kind
        }
        let isRedirect = response.map { (300..<400).contains($0.status) } ?? false
        return PathReport(
            url: fetch.target.url, address: fetch.address, status: response?.status,
            contentType: response?.headers.first(name: "content-type"),
            contentEncoding: response?.headers.first(name: "content-encoding"),
            location: isRedirect ? response?.headers.first(name: "location") : nil, size: response?.body.count,
            declaredSize: response?.declaredLength, truncated: response?.truncated ?? false, kind: kind?.rawValue,
            signed: kind?.isSigned ?? false,
            error: fetch.failure.map { PathReport.FetchError(rule: $0.rule.rawValue, message: $0.message) },
            attempts: fetch.attempts, descriptorWaitMs: fetch.descriptorWait.map { ($0 * 10_000).rounded() / 10 },
            reusedConnection: fetch.reusedConnection, timings: fetch.timings)
    }

    // MARK: - The file

    private mutating func fileFindings(_ fetch: FetchResult, _ response: FetchedResponse, tls: TLSObservation?)
        -> FileReport
    {
        let url = fetch.target.url
        let body = response.body
        let file = AASAFile.read(body, limits: limits, certificates: verifier.chainCache?.certificates)
        let lint = Linter.lint(file, size: body.count, options: LintOptions(limits: limits))
        let kind = lint.kind

        // Headers.
        let mediaType = response.headers.first(name: "content-type").map {
            String($0.split(separator: ";", maxSplits: 1)[0]).trimmingCharacters(in: .whitespaces).lowercased()
        }
        let expected = kind.isSigned ? "application/pkcs7-mime" : "application/json"
        if mediaType != expected {
            let served = mediaType.map { "as \($0)" } ?? "without a Content-Type"
            let what = kind.isSigned ? "a signed file" : "the file"
            add(HostingRules.contentType, "\(url) serves \(what) \(served), not \(expected)", url: url)
        }
        if let encoding = response.headers.first(name: "content-encoding"), encoding.lowercased() != "identity" {
            add(
                HostingRules.contentEncoding,
                "\(url) is served with Content-Encoding: \(encoding) although the request asked for no compression; the body was read as served",
                url: url)
        }

        // What `aasa check` runs: verify when signed, then the deprecation report over the lint.
        let verification = kind.isSigned ? verifier.verify(file.detection) : nil
        let deprecation = DeprecationReport(lint: lint, verification: verification)
        for diagnostic in deprecation.diagnostics {
            let finding = AuditDiagnostic(diagnostic, url: url)
            if !diagnostics.contains(finding) { diagnostics.append(finding) }
        }

        var signature: SignatureReport?
        if let verification {
            signature = signatureFindings(file.message, verification, tls: tls, url: url)
        }
        return FileReport(
            url: url, kind: kind.rawValue, signed: kind.isSigned, size: body.count,
            signature: signature, items: deprecation.items, effect: deprecation.effect)
    }

    /// The signer against the domain's TLS identity, and its expiry.
    private mutating func signatureFindings(
        _ message: SignedData?, _ verification: VerificationResult, tls: TLSObservation?, url: String
    ) -> SignatureReport {
        let certificates = message?.certificates ?? []
        var signer: X509Certificate?
        if let info = verification.signers.first {
            signer = certificates.first { $0.info.sha256Fingerprint == info.sha256Fingerprint }
        }
        if signer == nil, let wanted = message?.signerInfos.first {
            signer = certificates.first {
                $0.info.issuer == wanted.issuer && $0.info.serialNumber == wanted.serialNumber
            }
        }

        var identity = "unknown"
        if let signer {
            if signer.info.notAfter < checkTime {
                add(
                    HostingRules.signerExpired,
                    "the signer certificate \"\(signer.info.subject)\" expired at \(InternetDateTime.string(from: signer.info.notAfter)); devices that check the signature reject the file",
                    url: url)
            }
            if let leaf = tls?.leaf {
                if leaf.info.sha256Fingerprint == signer.info.sha256Fingerprint {
                    identity = "same-certificate"
                } else if let key = tls?.leafPublicKey, let signerKey = Self.publicKey(of: signer), key == signerKey {
                    identity = "same-key"
                } else if signer.isValid(forHost: domain.host) {
                    identity = "valid-for-host"
                } else {
                    identity = "not-identity"
                    let names =
                        signer.info.dnsNames.isEmpty ? "no DNS names" : signer.info.dnsNames.joined(separator: ", ")
                    add(
                        HostingRules.signerNotDomainIdentity,
                        "the file is signed by \"\(signer.info.subject)\" (\(names)), not by the domain's TLS identity: another key than the server certificate's, and not valid for \(domain.host)",
                        url: url)
                }
            }
        }
        return SignatureReport(
            valid: verification.isValid, verdict: verification.verdict.code, reason: verification.verdict.reason,
            signer: signer.map { CertificateSummary($0.info) }, identity: identity)
    }

    /// A certificate's SubjectPublicKeyInfo (DER), read with NIOSSL.
    private static func publicKey(of certificate: X509Certificate) -> [UInt8]? {
        guard let der = try? certificate.derRepresentation,
            let parsed = try? NIOSSLCertificate(bytes: Array(der), format: .der)
        else { return nil }
        return try? parsed.extractPublicKey().toSPKIBytes()
    }

    // MARK: - Apple's CDN

    private mutating func cdnFindings(_ fetch: FetchResult, origin: Data?) -> CDNReport {
        let url = fetch.target.url
        var failure: [String: String] = [:]
        for (name, value) in fetch.response?.headers ?? HTTPHeaders()
        where name.lowercased().hasPrefix("apple-failure-") {
            failure[name] = value
        }
        var comparison = CopyComparison.notCompared
        if serves(fetch), let copy = fetch.response?.body {
            if let origin {
                comparison = CopyComparison(origin, copy, limits: limits)
                if comparison == .different {
                    add(
                        HostingRules.cdnDiffers,
                        "Apple's CDN copy (\(url)) says something else than the origin's file; devices on iOS 14 and later use the CDN copy",
                        url: url)
                }
            }
        } else if let error = fetch.failure, (fetch.response?.status ?? 200) == 200 {
            // No answer from the CDN, or a 200 cut short: nothing is known about its copy, and
            // nothing about the domain (issue #27).
            let reason: String
            if case .tls = error { reason = "TLS: \(error.message)" } else { reason = error.message }
            let what = fetch.response == nil ? "was not reached" : "did not answer in full"
            add(
                HostingRules.cdnNotReached,
                "Apple's CDN \(what): \(url): \(reason); whether it has a copy is unknown",
                url: url)
        } else {
            // The CDN answered, without the file: 404 (its own word, with Apple-Failure-*
            // headers), another status, a redirect, or a file over the size cap.
            let headers = failure.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            let detail = headers.isEmpty ? "" : " (\(headers.joined(separator: "; ")))"
            add(
                HostingRules.cdnNoFile,
                "Apple's CDN has no copy: \(url) \(outcome(fetch))\(detail); devices on iOS 14 and later get nothing",
                url: url)
        }
        return CDNReport(fetch: pathReport(fetch), failure: failure, comparison: comparison.rawValue)
    }
}
