#!/usr/bin/env bash
# The tool's main job on the bundled example: detect, verify, inspect and extract the signed
# AASA file in examples/ (signed with the test PKI in certs/; test-only keys).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
swift build --product aasa >/dev/null
aasa=$(swift build --show-bin-path)/aasa
example=examples/apple-app-site-association.p7m

set -x
"$aasa" detect "$example"
"$aasa" verify "$example" --ca-file certs/ca-bundle.pem --no-system-roots --domain example.com
"$aasa" extract "$example" --ca-file certs/ca-bundle.pem --no-system-roots --lf
