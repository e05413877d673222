#!/usr/bin/env bash
# The tool's main job on the bundled example: `aasa check` detects the signed AASA file in
# examples/, verifies it (against the test PKI in certs/; test-only keys), lints its JSON and
# reports what is legacy and what to do next. Then it extracts the JSON and matches a few URLs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
# SwiftPM prints its progress; the first build compiles the dependencies too (about 5 minutes
# on 2 cores), later ones take seconds.
echo "example: building aasa (the first build takes several minutes: it compiles SwiftNIO too)" >&2
swift build --product aasa >&2
aasa=$(swift build --show-bin-path)/aasa
example=examples/apple-app-site-association.p7m
trust=(--ca-file certs/ca-bundle.pem --no-system-roots)

set -x
"$aasa" check "$example" "${trust[@]}" --domain example.com
"$aasa" extract "$example" "${trust[@]}" --lf
"$aasa" match "$example" https://example.com/help/faq https://example.com/legacy/admin/users --explain || true
