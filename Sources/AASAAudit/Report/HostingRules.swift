import AASA

/// The findings that only a live deployment can have: how the file is served, not what it
/// says. They are rule IDs like the lint rules (``RuleID``), documented in docs/rules.md
/// ("Findings reported by aasa audit"), and keep their IDs for ever.
///
/// They live here rather than in ``RuleCatalogue``: `aasa lint` never fetches anything, so it
/// can never fire them.
public enum HostingRules {
    /// One hosting rule: its ID, severity, when it fires, and what to do.
    public struct Entry: Sendable, Hashable {
        public let id: RuleID
        public let severity: Severity
        /// When it fires, in one line.
        public let summary: String
        /// The next step, in one line.
        public let fix: String
    }

    public static let noFile: RuleID = "no-file"
    public static let servedAtRootOnly: RuleID = "served-at-root-only"
    public static let redirect: RuleID = "redirect"
    public static let httpStatus: RuleID = "http-status"
    public static let contentType: RuleID = "content-type"
    public static let contentEncoding: RuleID = "content-encoding"
    public static let tlsError: RuleID = "tls-error"
    public static let connectionFailed: RuleID = "connection-failed"
    public static let timeout: RuleID = "timeout"
    public static let signerNotDomainIdentity: RuleID = "signer-not-domain-identity"
    public static let signerExpired: RuleID = "signer-expired"
    public static let rootFileDiffers: RuleID = "root-file-differs"
    public static let cdnNoFile: RuleID = "cdn-no-file"
    public static let cdnDiffers: RuleID = "cdn-differs"
    /// The CDN's copy is unknown: the request to the CDN got no answer (no such name, refused,
    /// timed out, TLS), which says nothing about the domain.
    public static let cdnNotReached: RuleID = "cdn-not-reached"
    /// Not a finding on the domain: this machine ran out of file descriptors, and the domain
    /// was not audited (its verdict is ``AuditVerdict/notAudited``).
    public static let localDescriptorLimit: RuleID = "local-descriptor-limit"
    /// Not a finding on the domain: the proxy (`--proxy`, `HTTPS_PROXY`) could not be used,
    /// and the domain was not audited (its verdict is ``AuditVerdict/notAudited``).
    public static let localProxyFailure: RuleID = "local-proxy-failure"

    /// Every hosting rule, in the order docs/rules.md lists them.
    public static let all: [Entry] = [
        Entry(
            id: noFile, severity: .error,
            summary: "Neither /.well-known/apple-app-site-association nor /apple-app-site-association gives a file.",
            fix: "Serve the file at https://DOMAIN/.well-known/apple-app-site-association with status 200."),
        Entry(
            id: servedAtRootOnly, severity: .warning,
            summary: "Only the legacy root path serves the file; /.well-known/ does not.",
            fix: "Serve the same file at /.well-known/apple-app-site-association, the only path Apple documents today."),
        Entry(
            id: redirect, severity: .error,
            summary: "A path answers with a redirect (3xx); Apple follows none.",
            fix: "Serve the file directly at that URL with status 200, on the domain itself."),
        Entry(
            id: httpStatus, severity: .error,
            summary: "A path answers with an error status (other than 404 or 410) instead of the file.",
            fix: "Make the server answer 200 with the file, without authentication or bot protection in front."),
        Entry(
            id: contentType, severity: .warning,
            summary:
                "The file is served with a Content-Type other than application/json (application/pkcs7-mime for a signed file).",
            fix: "Serve plain JSON as application/json (signed files, while they last, as application/pkcs7-mime)."),
        Entry(
            id: contentEncoding, severity: .warning,
            summary: "The file is served with a Content-Encoding although none was asked for.",
            fix: "Serve the file uncompressed unless the client sends Accept-Encoding."),
        Entry(
            id: tlsError, severity: .error,
            summary:
                "The TLS certificate does not verify: untrusted, expired, not valid for the host, or the handshake fails.",
            fix: "Install a certificate from a public CA that is valid for the domain, with its intermediates."),
        Entry(
            id: connectionFailed, severity: .error,
            summary: "The server cannot be reached: the name does not resolve, or the connection is refused or reset.",
            fix: "Make the domain resolve and accept HTTPS connections on port 443 from the internet."),
        Entry(
            id: timeout, severity: .error,
            summary: "The server does not answer in full within the timeout.",
            fix: "Serve the file as a static file, fast; Apple's fetcher gives up on slow servers."),
        Entry(
            id: signerNotDomainIdentity, severity: .warning,
            summary:
                "A signed file's signer is not the domain's TLS identity: another key, and not valid for the host.",
            fix: "Stop signing (serve plain JSON); iOS 8 required the signer to be the domain's own TLS certificate."),
        Entry(
            id: signerExpired, severity: .error,
            summary: "A signed file's signer certificate has expired.",
            fix:
                "Stop signing: extract the JSON (aasa extract --no-verify --lf) and serve it unsigned as application/json."
        ),
        Entry(
            id: rootFileDiffers, severity: .warning,
            summary: "Both paths serve a file, and the root path's says something else.",
            fix: "Serve the same content at both paths, or remove the root copy once iOS 9.0-9.2 no longer matter."),
        Entry(
            id: cdnNoFile, severity: .error,
            summary: "Apple's CDN has no copy of the file for the domain (with --cdn).",
            fix: "Read the Apple-Failure-* headers; fix the origin and wait for the CDN to fetch it again."),
        Entry(
            id: cdnNotReached, severity: .error,
            summary:
                "Apple's CDN could not be reached (with --cdn): no answer came, so whether it has a copy is unknown.",
            fix:
                "Check that this machine reaches the CDN over HTTPS (DNS, firewall, proxy, --cdn-base-url), then audit again."
        ),
        Entry(
            id: cdnDiffers, severity: .warning,
            summary: "Apple's CDN copy says something else than the origin's file (with --cdn).",
            fix: "Usually a recent change the CDN has not fetched yet; it refreshes within about a day."),
        Entry(
            id: localDescriptorLimit, severity: .error,
            summary:
                "Not about the domain: the machine running the audit had no file descriptor free to connect, even after waiting; the domain is not-audited.",
            fix:
                "Raise the open-file limit (ulimit -n), lower --concurrency or close what holds descriptors, then audit the domain again."
        ),
        Entry(
            id: localProxyFailure, severity: .error,
            summary:
                "Not about the domain: the proxy could not be reached, closed, or refused the CONNECT tunnel (403, 407, ...); the domain is not-audited.",
            fix:
                "Check the proxy URL and its credentials (--proxy, HTTPS_PROXY) and that it allows CONNECT to port 443, or exempt the domain with NO_PROXY; then audit the domain again."
        ),
    ]

    /// The entries by ID.
    public static let entries: [RuleID: Entry] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    /// The severity of a hosting rule (or of a lint rule, for IDs that are not hosting rules).
    public static func severity(of rule: RuleID) -> Severity { entries[rule]?.severity ?? rule.severity }
}
