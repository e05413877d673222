#!/usr/bin/env bash
# The HTML fleet report at scale (issue #30): `aasa audit summarize --format html` over N audit
# records, the page's size, and how long headless Chromium takes to render it.
#
#   benchmarks/bench-fleet-page.sh [N] [AASA]     (default 100000 and .build/release/aasa)
#
# The records are made here (python3), in the audit's JSON Lines schema, in the mix of
# benchmarks/wan-sim's categories: plain JSON (current or needs-attention), signed files under
# 40 signers (legacy, some expired: broken), no file, redirects, errors, unreachable hosts;
# every record carries both paths, the TLS chain and its findings as `aasa audit` writes them.
# A sample of 200 is validated against docs/schemas/audit.schema.json first. Prints: the
# records' size, summarize's time and peak memory, the page's size, Chromium's whole run
# (`--dump-dom`, browser start and the DOM's serialisation included), the page's own time from
# its script's start to the first page of the table drawn (`data-render-ms`), and from the
# start of the navigation to then (`data-ready-at-ms`: the file read and parsed), median of 3.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-100000}
aasa=${2:-.build/release/aasa}
[ -x "$aasa" ] || { echo "bench-fleet-page: no $aasa (swift build -c release --product aasa)" >&2; exit 2; }
command -v chromium >/dev/null || { echo "bench-fleet-page: chromium is not installed" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$count" "$work/records.jsonl" <<'PY'
import json, random, sys
count, out = int(sys.argv[1]), sys.argv[2]
random.seed(30)
signers = [("CN=signer-%d.example.com" % i, "2016-0%d-01T00:00:00Z" % (1 + i % 9) if i % 3 == 0
            else "20%d-06-30T23:59:59Z" % (27 + i % 5)) for i in range(40)]
chain = ["CN=%s", "O=Example CA, CN=Example Issuing CA 2", "O=Example CA, CN=Example Root"]
def fetch(url, status, ctype, size, kind, error=None):
    return {"url": url, "address": "192.0.2.10", "status": status, "contentType": ctype, "contentEncoding": None,
            "location": None, "size": size, "declaredSize": size, "truncated": False, "kind": kind,
            "signed": kind == "pkcs7-der", "error": error, "attempts": 1, "descriptorWaitMs": None,
            "reusedConnection": False, "timings": {"totalMs": 80.0}}
def effect(apps):
    return {"universalLinks": apps, "webCredentials": [], "activityContinuation": [], "appClips": [], "unusableAppIDs": []}
def finding(rule, severity, message, url=None):
    return {"rule": rule, "severity": severity, "message": message,
            "location": {"path": "$", "line": None, "column": None}, "url": url}
# How the run audited, as `aasa audit --concurrency 1000` records it (the same on every line).
settings = {"checkTime": None, "historical": False, "cdn": False, "systemRoots": True, "extraAnchors": 0,
            "proxy": False, "timeoutSeconds": 10, "retries": 2, "maximumBodyBytes": 135168, "rate": None,
            "maximumPerAddress": None, "disabledRules": [], "ruleSeverities": {}}
with open(out, "w") as f:
    for i in range(count):
        d = "host-%06d.example.com" % i
        wk, root = "https://%s/.well-known/apple-app-site-association" % d, "https://%s/apple-app-site-association" % d
        cert = {"subject": "CN=" + d, "issuer": chain[1], "subjectAlternativeNames": ["DNS:" + d],
                "notBefore": "2026-01-01T00:00:00Z", "notAfter": "2027-01-01T00:00:00Z", "key": "RSA 2048",
                "sha256Fingerprint": "AA:%02X" % (i % 256)}
        tls = {"verified": True, "verdict": "valid", "reason": "ok", "version": "TLSv1.3", "chain": [cert]}
        r = random.random()
        file, diags = None, []
        if r < 0.35:
            paths, verdict = [fetch(wk, 200, "application/json", 120, "json"), fetch(root, 404, "text/html", 153, None)], "current"
            file = {"url": wk, "kind": "json", "signed": False, "size": 120, "items": [],
                    "effect": effect([{"appID": "ABCDE12345.com.example.app%d" % (i % 50), "exampleURL": "/buy/1"}])}
        elif r < 0.5:
            paths, verdict = [fetch(wk, 200, "text/plain", 180, "json"), fetch(root, 404, "text/html", 153, None)], "needs-attention"
            file = {"url": wk, "kind": "json", "signed": False, "size": 180, "items": [], "effect": effect([])}
            diags = [finding("content-type", "warning", "served as text/plain, not application/json", wk)]
        elif r < 0.65:
            s = signers[i % 40]
            signer = {"subject": s[0], "issuer": chain[1], "subjectAlternativeNames": [], "notBefore": "2014-01-01T00:00:00Z",
                      "notAfter": s[1], "key": "RSA 2048", "sha256Fingerprint": "BB:%02X" % (i % 40)}
            expired = s[1] < "2026"
            paths = [fetch(wk, 404, "text/html", 153, None), fetch(root, 200, "application/pkcs7-mime", 3900, "pkcs7-der")]
            file = {"url": root, "kind": "pkcs7-der", "signed": True, "size": 3900, "items": [],
                    "signature": {"valid": not expired, "verdict": "expired" if expired else "valid", "signer": signer,
                                  "identity": "valid-for-host"},
                    "effect": effect([{"appID": "ABCDE12345.com.example.legacy"}])}
            verdict = "broken" if expired else "legacy"
            diags = [finding("signed-file", "deprecation", "the file is PKCS#7 signed data; serve plain JSON", root),
                     finding("legacy-appid", "deprecation", "This entry uses \"appID\", the iOS 9-12 form", root)]
            if expired:
                diags.append(finding("signer-expired", "error", "the signer expired on " + s[1], root))
        elif r < 0.8:
            paths, verdict = [fetch(wk, 404, "text/html", 153, None), fetch(root, 404, "text/html", 153, None)], "broken"
            diags = [finding("no-file", "error", "no apple-app-site-association at either path")]
        elif r < 0.9:
            p = fetch(wk, 301, "text/html", 162, None); p["location"] = "https://www.%s/" % d
            paths, verdict = [p, fetch(root, 404, "text/html", 153, None)], "broken"
            diags = [finding("redirect", "error", "redirects to https://www.%s/; iOS does not follow" % d, wk)]
        else:
            e = {"rule": "connection-failed", "message": "cannot connect: connection refused"}
            paths, verdict, tls = [fetch(wk, None, None, None, None, e), fetch(root, None, None, None, None, e)], "not-audited", None
            diags = [finding("connection-failed", "error", "cannot connect: connection refused", wk)]
        f.write(json.dumps({"schemaVersion": 1, "aasaVersion": "0.2.0", "domain": d, "host": d, "port": 443,
                            "verdict": verdict, "file": file, "paths": paths, "tls": tls, "cdn": None,
                            "diagnostics": diags, "startedAt": "2026-11-28T06:00:00Z", "durationMs": 80,
                            "settings": settings},
                           separators=(",", ":")) + "\n")
PY

# A sample checked against the audit schema, so that the figures are of records aasa writes.
head -n 200 "$work/records.jsonl" > "$work/sample.jsonl"
if ! scripts/validate-json.py --jsonl docs/schemas/audit.schema.json "$work/sample.jsonl" > "$work/invalid" 2>&1; then
    head -c 2000 "$work/invalid" >&2
    echo "bench-fleet-page: the records made here are not audit records" >&2
    exit 1
fi

records_bytes=$(stat -c %s "$work/records.jsonl")
/usr/bin/time -f "%e %M" -o "$work/time" "$aasa" audit summarize "$work/records.jsonl" --format html > "$work/report.html"
read -r seconds peak < "$work/time"
page_bytes=$(stat -c %s "$work/report.html")
loads=()
renders=()
readies=()
for _ in 1 2 3; do
    profile=$(mktemp -d)
    start=$(date +%s.%N)
    chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-extensions \
        --disable-background-networking --disable-component-update --disable-sync --no-proxy-server \
        --user-data-dir="$profile" --virtual-time-budget=60000 --dump-dom "file://$work/report.html" \
        > "$work/dom.html" 2>/dev/null
    end=$(date +%s.%N)
    rm -rf "$profile"
    grep -q 'data-ready="true"' "$work/dom.html" || { echo "bench-fleet-page: the page's script did not finish" >&2; exit 1; }
    loads+=("$(echo "$end - $start" | bc)")
    renders+=("$(grep -o 'data-render-ms="[0-9.]*"' "$work/dom.html" | grep -o '[0-9.]*')")
    readies+=("$(grep -o 'data-ready-at-ms="[0-9.]*"' "$work/dom.html" | grep -o '[0-9.]*')")
done
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
printf 'records: %d (%s bytes of JSON Lines)\n' "$count" "$records_bytes"
printf 'summarize --format html: %s s, peak %s KB\n' "$seconds" "$peak"
printf 'page: %s bytes\n' "$page_bytes"
printf 'chromium --dump-dom, whole run (median of 3): %s s\n' "$(median "${loads[@]}")"
printf 'page script, start to first table page drawn (median of 3): %s ms\n' "$(median "${renders[@]}")"
printf 'navigation start to first table page drawn (median of 3): %s ms\n' "$(median "${readies[@]}")"
