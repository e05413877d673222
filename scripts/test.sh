#!/usr/bin/env bash
# Builds aasa and runs its whole test suite (library, OpenSSL interop, CLI).
# Installs libssl-dev, openssl and pkg-config first when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
swift build --build-tests
swift test --skip-build "$@"
