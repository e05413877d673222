import AASA

/// Each hosting rule's full description, the text of its section in docs/rules.md (a test keeps
/// the two the same). Paragraphs are separated by a blank line.
extension HostingRules {
    static let fullDescriptions: [RuleID: String] = [
        "no-file":
            "Fires when neither path gives a file: no `200` answer with a complete body within the size cap. The message says what each path did (`404`, a redirect, a TLS failure, a timeout, …).\n\nWithout a file, no universal link, shared web credential, Handoff or App Clip association works for the domain.",
        "served-at-root-only":
            "Fires when the root path serves the file and `.well-known` does not (it answers 404, a redirect or an error).\n\n`/.well-known/` is the only path Apple documents today. The root path is a leftover of iOS 9.0–9.2 that later versions only fell back to, and nothing says Apple's CDN, which iOS 14 and later ask, still does.",
        "redirect":
            "Fires when a path answers with a 3xx status. The message gives the status and the `Location`, which is never followed.\n\nApple's fetcher follows no redirect, not even to `www.` or from `http:` to `https:`: a redirect is the same as no file at that path.",
        "http-status":
            "Fires when a path answers with an error status other than 404 or 410 (403, 429, 500, 503, …) instead of the file. A plain 404 is reported by `no-file` or `served-at-root-only`.\n\nThe fetcher treats it as no file. A 403 or 429 often comes from bot protection or a web application firewall in front of the site, which blocks Apple's fetcher too.",
        "content-type":
            "Fires when the file iOS would use is served with a `Content-Type` other than `application/json`, or, for a signed file, other than `application/pkcs7-mime`. Parameters such as `; charset=utf-8` are fine.\n\nApple's documentation says to serve the file as `application/json`, and iOS 8 read signed files as `application/pkcs7-mime`. A fetcher that goes by the type may ignore the file, and a proxy or CDN in between may treat it as something else.",
        "content-encoding":
            "Fires when the file is served with a `Content-Encoding` (such as `gzip`) although the request sent no `Accept-Encoding`. The body is read and checked as served.\n\nA client that did not ask for compression may not undo it, and then reads garbage instead of JSON.",
        "tls-error":
            "Fires when the server's certificate does not verify against the system roots (plus `--ca-file`), for the TLS server purpose and the domain's name, or the TLS handshake fails. The message says why: untrusted (with the certificate where the chain breaks), expired, not yet valid, not valid for the host (with the names it has), or the handshake error.\n\nApple's fetcher requires valid HTTPS with no certificate errors, so neither path can give a file.",
        "connection-failed":
            "Fires when the server cannot be reached: the name does not resolve, the connection is refused or reset, or it breaks in the middle of the answer. Connection errors are tried again (`--retries`, default 2) before they are reported.\n\nNo connection, no file.",
        "timeout":
            "Fires when a path does not give its whole answer within `--timeout` seconds (default 10), connecting included. The message says in which phase it gave up.\n\nApple's fetcher gives up on slow servers too, and the file is then missing.",
        "signer-not-domain-identity":
            "Fires when a signed file's signer certificate is neither the server's TLS certificate nor has its key, and is not valid for the domain either (no matching subjectAltName).\n\niOS 8 accepted a signed file only when it was signed with the identity that secures the domain, so a file signed by another certificate never worked there. It also shows that the file was made somewhere else, often copied from another domain.",
        "signer-expired":
            "Fires when a signed file's signer certificate has expired (at `--at`, default now), whatever else is wrong with the signature. `signature-not-valid` usually fires with it.\n\nA device that checks the signature rejects the file, and nothing but a new signature brings it back.",
        "root-file-differs":
            "Fires when both paths serve a file and the root one means something else than the `.well-known` one (compared after parsing, and after taking a signed file's JSON out, so layout, key order and signing do not count).\n\niOS 9.0–9.2 read only the root path, and get other rules than everyone else. It is usually a stale signed copy left behind.",
        "cdn-no-file":
            "Fires when (with `--cdn`) Apple's CDN, `https://app-site-association.cdn-apple.com/a/v1/DOMAIN`, answers without a file for the domain: a `404` (its own word, usually with `Apple-Failure-*` headers, which are then in the message and the report), another status, a redirect, or a file over the size cap. A CDN that gives no answer at all is `cdn-not-reached`.\n\niOS 14 and later get the file from the CDN, not from the domain (unless an app uses developer mode): no CDN copy, no associated domains on those devices.",
        "cdn-not-reached":
            "Fires when (with `--cdn`) the request to Apple's CDN got no answer: the CDN's host did not resolve, the connection was refused or reset, no answer came within `--timeout`, its TLS certificate did not verify, or a `200` answer was cut short. The message gives the failure, and says that whether the CDN has a copy is unknown.\n\nIt is about the path from this machine to the CDN, not about the domain: `cdn-no-file` is for a CDN that answered (`404` with its `Apple-Failure-*` headers, or any other status). It is an error all the same, so that an audit asked to check the CDN does not pass without its answer; `--severity cdn-not-reached=warning` makes it a warning, `--disable cdn-not-reached` drops it.",
        "cdn-differs":
            "Fires when (with `--cdn`) the CDN's copy means something else than the file the origin serves now (compared as for `root-file-differs`).\n\niOS 14 and later use the CDN copy, so a change at the origin is not seen until the CDN takes it.",
        "local-descriptor-limit":
            "Fires when the machine running the audit had no file descriptor free to open a connection (`Too many open files`: EMFILE, the process's open-file limit, or ENFILE, the system's table), and none came free while the request waited for one (up to `--timeout`, backing off from 10 ms to 250 ms; the waits are not retries and do not use up `--retries`).",
        "local-proxy-failure":
            "Fires when the audit goes through a proxy (`--proxy`, or `https_proxy`/`HTTPS_PROXY`/`all_proxy`/`ALL_PROXY` in the environment) and the proxy could not be used for the domain: it cannot be reached (refused, no such name, reset), it closed the connection before it answered the `CONNECT`, it did not answer in HTTP, or it refused the tunnel with a status other than 2xx or 5xx (`407 Proxy Authentication Required`, `403 Forbidden`, …). The message names the proxy (never its credentials) and quotes its status line (controls escaped in text output).",
    ]
}

extension HostingRules {
    /// The registry metadata of every hosting rule (category ``RuleCategory/hosting``), in
    /// ``all``'s order: what `lint --list-rules` and SARIF publish about them.
    public static let metadata: [RuleMetadata] = all.map { entry in
        RuleMetadata(
            id: entry.id, severity: entry.severity, category: .hosting, summary: entry.summary,
            fullDescription: fullDescriptions[entry.id] ?? entry.summary,
            since: [localDescriptorLimit, localProxyFailure, cdnNotReached].contains(entry.id) ? "0.3.0" : "0.1.0",
            fix: nil)
    }
}
