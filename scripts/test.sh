#!/usr/bin/env bash
# Builds aasa and runs its whole test suite (library, OpenSSL interop, CLI, and the audit
# against a real nginx that the tests start on 127.0.0.1).
# Installs libssl-dev, openssl, pkg-config, nginx, python3-jsonschema and libxml2-utils (the
# schema validators of the output tests), python3-yaml (GitHubActionTests read action.yml) and time (GNU time: the peak memory of a child, for
# the --files-from memory test) first when they are missing, tinyproxy (the proxy tests), and
# dnsmasq-base and iproute2 for the WAN simulation (benchmarks/wan-sim.sh, which the
# WANSimulationTests run as root), pre-commit (PreCommitHookTests run the hooks with it),
# parallel (ScaleOutRecipeTests run docs/audit.md's GNU parallel block) and chromium
# (FleetPageTests load the HTML fleet report headless, on local files only).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh nginx python3-jsonschema python3-yaml libxml2-utils time tinyproxy dnsmasq-base iproute2 strace pre-commit parallel chromium
swift build --build-tests
scripts/swift-test.sh --skip-build "$@"
