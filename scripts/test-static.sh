#!/usr/bin/env bash
# Builds the fully static `aasa` (scripts/build-static.sh) and runs against it (AASA_EXECUTABLE)
# the CLI suites where a static, optimised binary can differ from the debug one that
# scripts/test.sh tests: OpenSSL's compiled-in configuration and certificate paths (the system
# roots, verify, sign, extract, convert, check, the historical store), static glibc's name
# lookups (the audit command), optimisation (overflow traps, bad and hostile input, batches on
# worker threads), signals and atomic writes (interrupts, stream failures), and the docs'
# console examples (what a user of the release sees). The suites of argument parsing and
# report formatting run the same Swift code in both and are left to scripts/test.sh.
# Expects scripts/test.sh to have built the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(scripts/build-static.sh)
echo "== the CLI tests against the fully static binary $binary" >&2
suites='SystemRootsTests|SignCommandTests|VerifyCommandTests|ExtractCommandTests|ConvertCommandTests'
suites+='|CheckCommandTests|HistoricalCommandTests|BadInputCatalogueTests|HostileTextTests|OverflowTrapTests'
suites+='|BatchCommandTests|FilesFromTests|AtomicWriteTests|InterruptTests|StreamFailureTests|DocsConsoleTests'
AASA_EXECUTABLE="$binary" scripts/swift-test.sh --skip-build --filter "AASACLITests\.($suites)|AuditCommandTests"
