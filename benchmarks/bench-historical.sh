#!/usr/bin/env bash
# The cost of `--historical` (issue #25), whole processes, beside openssl doing the same by hand:
# the 2015 artsy file of the corpus verified with and without the mode, and openssl with the
# file's own intermediate, then with the 153 roots Mozilla's store held on 2015-10-28 (the
# manual form of the mode). Not a test: docs/performance.md#start-up-with---historical has the
# figures and says on which binary they were taken.
#
#   benchmarks/bench-historical.sh [AASA_BINARY] [RUNS]
#
# AASA_BINARY defaults to the static release binary (scripts/build-static.sh); RUNS to 40.
set -euo pipefail
cd "$(dirname "$0")/.."
aasa="${1:-.build-static/release/aasa}"
runs="${2:-40}"
[ -x "$aasa" ] || { echo "bench-historical: no aasa binary at $aasa (scripts/build-static.sh builds it)" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "bench-historical: needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
aasa="$(cd "$(dirname "$aasa")" && pwd)/$(basename "$aasa")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
file="$PWD/Tests/Fixtures/corpus/real-signed/artsy_artsy-eigen-web-association_aasa-20150915-a.p7m"
"$aasa" inspect "$file" --format pem --certificate 1 > "$work/issuer-1.pem"
# The roots of the 2015-10-28 snapshot, from the store's own data (history.json names each
# root's periods by SHA-256; roots.pem holds every root once).
python3 - "$work/bundle-2015-10-28.pem" <<'EOF'
import base64, hashlib, json, re, sys
history = json.load(open("data/mozilla-root-history/history.json"))
held = {root["sha256"] for root in history["roots"]
        if any(p["from"] <= "2015-10-28" <= p["lastSeen"] for p in root["inBundle"])}
text = open("data/mozilla-root-history/roots.pem").read()
blocks = re.findall(r"-----BEGIN CERTIFICATE-----\n.*?-----END CERTIFICATE-----\n", text, re.S)
kept = [b for b in blocks
        if hashlib.sha256(base64.b64decode("".join(b.splitlines()[1:-1]))).hexdigest() in held]
assert len(kept) == len(held) == 153, (len(kept), len(held))
open(sys.argv[1], "w").write("".join(kept))
EOF

at=1442275200  # 2015-09-15T00:00:00Z
cd "$work"
hyperfine -N -w 3 -r "$runs" --export-markdown "$work/table.md" \
    -n "aasa verify F --ca-file issuer-1.pem --no-system-roots --partial-chain --at 2015-09-15 (no mode)" \
    "$aasa verify $file --ca-file issuer-1.pem --no-system-roots --partial-chain --at 2015-09-15T00:00:00Z" \
    -n "aasa verify F --historical" "$aasa verify $file --historical" \
    -n "aasa verify F --historical --at 2015-09-15" "$aasa verify $file --historical --at 2015-09-15T00:00:00Z" \
    -n "openssl smime -verify -CAfile issuer-1.pem -partial_chain -attime $at" \
    "openssl smime -verify -inform DER -in $file -CAfile issuer-1.pem -partial_chain -attime $at -purpose sslserver -out /dev/null" \
    -n "openssl smime -verify -CAfile bundle-2015-10-28.pem -attime $at (the manual form of the mode)" \
    "openssl smime -verify -inform DER -in $file -CAfile bundle-2015-10-28.pem -attime $at -purpose sslserver -out /dev/null" \
    >&2
cat "$work/table.md"
