#!/usr/bin/env bash
# Benchmark (not a test; CI does not run it): `aasa audit` over N domains (default 1000),
# d1.example.com ... dN.example.com, all served by one local nginx on 127.0.0.1 with the
# test PKI's wildcard certificate, and a plain curl loop over the same URLs as the yardstick.
# Prints domains per second for both and aasa's peak memory (/usr/bin/time -v).
#
#   benchmarks/bench-audit.sh [--ecdsa] [--system-roots] [--no-curl] [--perf FILE] [N] [CONCURRENCY]
#
#   --ecdsa         serve an ECDSA P-256 wildcard leaf made at run time in the temporary
#                   directory (signed with certs/intermediate-ca.key) instead of the RSA one
#   --system-roots  keep the system trust store beside --ca-file (as a user's run does)
#   --no-curl       skip the curl yardstick
#   --perf FILE     record the aasa run with `perf record -g` into FILE
#   --strace FILE   count the aasa run's file system calls (strace -c) into FILE
#   AASA_BIN=PATH   run this aasa binary instead of building one
#
# Every connection goes to 127.0.0.1 (--resolve); nginx is stopped on exit, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
ecdsa=0
system_roots=0
curl_loop=1
perf_file=""
strace_file=""
while [ $# -gt 0 ]; do
    case "$1" in
    --ecdsa) ecdsa=1 ;;
    --system-roots) system_roots=1 ;;
    --no-curl) curl_loop=0 ;;
    --perf)
        perf_file=$2
        shift
        ;;
    --strace)
        strace_file=$2
        shift
        ;;
    -*)
        echo "bench-audit.sh: unknown option $1" >&2
        exit 64
        ;;
    *) break ;;
    esac
    shift
done
count=${1:-1000}
concurrency=${2:-16}
scripts/ensure-deps.sh nginx curl time

if [ -n "${AASA_BIN:-}" ]; then
    aasa=$AASA_BIN # a binary built before (e.g. a copy of the baseline's)
else
    echo "== building aasa (release)" >&2
    swift build -c release --product aasa >/dev/null
    aasa="$(swift build -c release --show-bin-path)/aasa"
fi

# shellcheck source=benchmarks/bench-nginx.sh
. benchmarks/bench-nginx.sh
bench_nginx_init
port=$(bench_free_port)
leaf_key=$PWD/certs/leaf-wildcard.key
if [ "$ecdsa" = 1 ]; then
    # An ECDSA P-256 twin of leaf-wildcard, made here so that no fixture changes.
    leaf_key=$work/leaf-ec-wildcard.key
    openssl ecparam -name prime256v1 -genkey -noout -out "$work/ec.key"
    openssl pkcs8 -topk8 -nocrypt -in "$work/ec.key" -out "$leaf_key"
    openssl req -new -key "$leaf_key" -subj "/CN=*.example.com" -out "$work/leaf.csr"
    printf '%s\n' 'basicConstraints = critical, CA:FALSE' 'keyUsage = critical, digitalSignature' \
        'extendedKeyUsage = serverAuth' 'subjectAltName = DNS:*.example.com' > "$work/leaf.ext"
    openssl x509 -req -in "$work/leaf.csr" -CA certs/intermediate-ca.pem -CAkey certs/intermediate-ca.key \
        -set_serial 0x7777 -days 30 -sha256 -extfile "$work/leaf.ext" -out "$work/leaf.pem" 2>/dev/null
    cat "$work/leaf.pem" certs/chain.pem > "$work/wildcard.chain.pem"
else
    cat certs/leaf-wildcard.pem certs/chain.pem > "$work/wildcard.chain.pem"
fi
bench_nginx_start "$(bench_nginx_server "$port" "$leaf_key" "$(bench_well_known_location)")"
bench_until curl -s -o /dev/null --cacert certs/ca-bundle.pem --resolve "d1.example.com:$port:127.0.0.1" \
    "https://d1.example.com:$port/.well-known/apple-app-site-association" || true

for i in $(seq "$count"); do echo "d$i.example.com:$port"; done > "$work/domains.txt"

roots=(--no-system-roots)
if [ "$system_roots" = 1 ]; then roots=(); fi
profiler=()
if [ -n "$perf_file" ]; then profiler=(perf record -g -o "$perf_file" --); fi
if [ -n "$strace_file" ]; then
    # shellcheck disable=SC2054 # the commas belong to strace -e trace=
    profiler=(strace -f -c -o "$strace_file" -e trace=openat,open,getdents64,newfstatat,stat,statx --)
fi
echo "== aasa audit: $count domains, --concurrency $concurrency, $([ "$ecdsa" = 1 ] && echo ECDSA || echo RSA) leaf, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
/usr/bin/time -v -o "$work/aasa.time" "${profiler[@]}" "$aasa" audit --domains-file "$work/domains.txt" \
    --resolve "*.example.com:$port:127.0.0.1" --ca-file certs/ca-bundle.pem "${roots[@]}" \
    --concurrency "$concurrency" --format jsonl --no-progress > "$work/aasa.jsonl"
audited=$(wc -l < "$work/aasa.jsonl")
current=$(grep -c '"verdict":"current"' "$work/aasa.jsonl" || true)
reused=$(grep -o '"reusedConnection":true' "$work/aasa.jsonl" | wc -l || true)
aasa_seconds=$(bench_seconds "$work/aasa.time")
aasa_rss=$(bench_rss_kib "$work/aasa.time")
aasa_cpu=$(bench_cpu "$work/aasa.time")

echo "== curl loop: the same $((count * 2)) URLs, one curl each, one after another" >&2
curl_start=$(date +%s.%N)
for i in $(seq "$((count * curl_loop))"); do
    for path in /.well-known/apple-app-site-association /apple-app-site-association; do
        curl -s -o /dev/null --resolve "d$i.example.com:$port:127.0.0.1" --cacert certs/ca-bundle.pem \
            "https://d$i.example.com:$port$path" || true
    done
done
curl_end=$(date +%s.%N)
curl_seconds=$(python3 -c "print($curl_end - $curl_start)")
[ "$curl_loop" = 1 ] || echo "   (skipped: --no-curl)" >&2

python3 - "$count" "$audited" "$current" "$aasa_seconds" "$aasa_rss" "$curl_seconds" "$concurrency" "$aasa_cpu" "$reused" <<'EOF'
import sys
count, audited, current = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
aasa_s, rss_kb, curl_s, concurrency = float(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), sys.argv[7]
cpu_s, reused = float(sys.argv[8]), int(sys.argv[9])
print(f"domains:               {count} (audited {audited}, current {current}, second path on a reused connection {reused})")
print(f"aasa audit:            {aasa_s:.2f} s, {count / aasa_s:.1f} domains/s (--concurrency {concurrency}), peak RSS {rss_kb / 1024:.1f} MiB")
print(f"aasa CPU:              {cpu_s:.2f} s user+system, {cpu_s * 1000 / count:.2f} ms per domain")
if curl_s > 0.5:
    print(f"curl loop (yardstick): {curl_s:.2f} s, {count / curl_s:.1f} domains/s (2 URLs per domain, sequential)")
EOF
