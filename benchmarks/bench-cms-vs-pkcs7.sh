#!/usr/bin/env bash
# The measurement behind docs/security.md's "Why PKCS#7 and not CMS for verification": the
# per-message cost of d2i_PKCS7 + PKCS7_verify against d2i_CMS_ContentInfo + CMS_verify (the
# signature only, no chain), on one file, in C against the system OpenSSL. Not a test.
# Usage: benchmarks/bench-cms-vs-pkcs7.sh [FILE] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 benchmarks/cms-vs-pkcs7.c -o "$work/cms-vs-pkcs7" $(pkg-config --cflags --libs libcrypto)
"$work/cms-vs-pkcs7" "${1:-examples/apple-app-site-association.p7m}" "${2:-3000}"
