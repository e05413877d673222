#!/usr/bin/env bash
# The Swift sources' format: swift-format from the toolchain, configured by .swift-format
# (4-space indentation, 120 columns, ordered imports).
#   scripts/format.sh          rewrites every Swift file in place
#   scripts/format.sh --check  changes nothing; lists each deviation and fails if there is one (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests Fuzz)
case "${1:-}" in
    --check) swift format lint --strict --recursive "${paths[@]}" && echo "format: clean" >&2 ;;
    "") swift format format --in-place --recursive "${paths[@]}" ;;
    *) echo "usage: scripts/format.sh [--check]" >&2; exit 64 ;;
esac
