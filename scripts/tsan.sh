#!/usr/bin/env bash
# ThreadSanitizer over the code that runs on several threads: batch mode (worker threads, the
# calling thread that works and prints, per-thread certificates, the caches, ordered output),
# the chain cache shared by many threads, and
# the audit (SwiftNIO event loops, TLS verification callbacks, bounded concurrency).
# The CLI tests run the instrumented `aasa` binary, so a race in a batch child process ends it
# with status 66 and fails its test. Uses its own build folder (.build-tsan), built with line
# tables only (file and line of each frame, all a report needs): a quarter less build time.
# The WAN simulation's 2,000 domains are left to the plain and ASan suites: under TSan's
# 5-15x slowdown they would time out in numbers, and its concurrency (lookups, per-address
# slots, --rate, kept connections, the proxy tunnel) is exercised by the other audit suites here.
# So are docs/audit.md's scale-out recipes (ScaleOutRecipeTests): 16 processes of the same audit
# in parallel, which adds no concurrency inside one process to what the suites here run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh nginx
echo "== ThreadSanitizer: swift test --sanitize=thread (batch, file lists, chain cache, audit)" >&2
TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1" \
    scripts/swift-test.sh --scratch-path .build-tsan --sanitize=thread -Xswiftc -gline-tables-only -Xcc -gline-tables-only \
    --filter 'BatchCommandTests|BatchFrontendTests|FilesFromTests|ChainCacheTests|CertificateCacheThreadTests|AASAAuditTests' \
    --skip 'WANSimulationTests|ScaleOutRecipeTests'
echo "tsan: ThreadSanitizer clean" >&2
