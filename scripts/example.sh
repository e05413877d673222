#!/usr/bin/env bash
# The tool's main job on the bundled example: `aasa check` detects the signed AASA file in
# examples/, verifies it (against the test PKI in certs/; test-only keys), lints its JSON and
# reports what is legacy and what to do next. Then it extracts the JSON and matches a few URLs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
swift build --product aasa >/dev/null
aasa=$(swift build --show-bin-path)/aasa
example=examples/apple-app-site-association.p7m
trust=(--ca-file certs/ca-bundle.pem --no-system-roots)

set -x
"$aasa" check "$example" "${trust[@]}" --domain example.com
"$aasa" extract "$example" "${trust[@]}" --lf
"$aasa" match "$example" https://example.com/help/faq https://example.com/legacy/admin/users --explain || true
