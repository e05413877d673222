#!/usr/bin/env bash
# Runs `swift test` with the given arguments and, when it fails, repeats every failing test's
# recorded issues after the summary: a CI log is read from its end, and swift-testing prints
# a failure where the test ran, hundreds of lines earlier. The exit status is swift test's.
set -uo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo "== swift test failed (exit $status); the issues it recorded:" >&2
    # swift-testing marks issues with ✘ and their details with ↳; XCTest prints "error:".
    grep -E -A3 'recorded an issue|: error: ' "$log" | grep -v '^--$' | head -n 200 >&2 || true
fi
exit "$status"
