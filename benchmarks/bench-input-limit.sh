#!/usr/bin/env bash
# The time and peak memory of `check`, `lint` and `diff` on a file at the default input limit
# (16 MiB) made of app identifiers: 80,000 applinks entries of one identifier and one pattern,
# 160,000 identifiers in webcredentials and 120,000 in appclips (GitHub issue #24: `check` was
# quadratic in them, 196 s for 2.4 MB). A benchmark, not a test: LargeInputTests guards the same
# shape at 4 MiB with a generous time limit.
#   benchmarks/bench-input-limit.sh [AASA_BINARY]   (default: the release build, built first)
set -euo pipefail
cd "$(dirname "$0")/.."
aasa=${1:-}
if [ -z "$aasa" ]; then
    swift build -c release --product aasa >&2
    aasa="$(swift build -c release --show-bin-path)/aasa"
fi
command -v /usr/bin/time >/dev/null || scripts/ensure-deps.sh time
work=$(mktemp -d "${TMPDIR:-/tmp}/aasa-input-limit.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 - "$work/limit.json" <<'PY'
import json, sys
ids = [f"ABCDE12345.com.example.app{i:07d}" for i in range(160000)]
doc = {"applinks": {"details": [{"appIDs": [a], "components": [{"/": f"/{a[-7:]}/*"}]} for a in ids[:80000]]},
       "webcredentials": {"apps": ids}, "appclips": {"apps": ids[:120000]}}
text = json.dumps(doc, separators=(",", ":"))
assert len(text) <= 16 * 1024 * 1024
open(sys.argv[1], "w").write(text)
PY
cp "$work/limit.json" "$work/limit-copy.json"
echo "input: $(stat -c %s "$work/limit.json") bytes (limit 16777216)"
for command in "check $work/limit.json" "lint $work/limit.json" "diff $work/limit.json $work/limit-copy.json"; do
    # shellcheck disable=SC2086 # the command's words
    /usr/bin/time -f "aasa ${command%% *}: %e s, %M KiB peak" "$aasa" $command >/dev/null 2>"$work/time" || true
    tail -n 1 "$work/time"
done
