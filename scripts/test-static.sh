#!/usr/bin/env bash
# Builds the fully static `aasa` (scripts/build-static.sh) and runs the CLI and audit-command
# tests against it (AASA_EXECUTABLE), so the binary docs/performance.md recommends for CI
# images is tested as much as the ordinary one. Expects scripts/test.sh to have built the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(scripts/build-static.sh)
echo "== the CLI tests against the fully static binary $binary" >&2
AASA_EXECUTABLE="$binary" scripts/swift-test.sh --skip-build --filter 'AASACLITests|AuditCommandTests'
