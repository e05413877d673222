#!/usr/bin/env bash
# Benchmark (not a test; CI does not run it) for the HTTP stack decision (docs/audit.md, "The
# HTTP stack"): libcurl's multi interface (curl-multi.c, Debian's libcurl4-openssl-dev: OpenSSL)
# against `aasa audit` (SwiftNIO + swift-nio-ssl: BoringSSL), fetching both paths of N domains
# at concurrency C from one local nginx on 127.0.0.1 (the setup of benchmarks/bench-audit.sh: the
# test PKI's wildcard certificate, one connection per URL), in two mixes:
#   file: every domain serves a small JSON file at /.well-known (the root path 404s);
#   none: both paths 404, so aasa parses and lints nothing: its work is the fetches, the chain
#         check and the report (the closest to fetch-only aasa gets).
# Prints seconds, domains/s, CPU seconds and peak RSS (/usr/bin/time -v) per program and mix.
#
#   benchmarks/bench-http-stack/run.sh [N] [C] [AASA]     (defaults 2000, 16, the release build)
#
# Every connection goes to 127.0.0.1; nginx is stopped on exit, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-2000}
concurrency=${2:-16}
aasa=${3:-}
scripts/ensure-deps.sh nginx time libcurl4-openssl-dev pkg-config

# shellcheck source=benchmarks/bench-nginx.sh
. benchmarks/bench-nginx.sh
bench_nginx_init

if [ -z "$aasa" ]; then
    echo "== building aasa (release)" >&2
    swift build -c release --product aasa >/dev/null
    aasa="$(swift build -c release --show-bin-path)/aasa"
fi
# shellcheck disable=SC2046
cc -O2 -Wall -o "$work/curl-multi" benchmarks/bench-http-stack/curl-multi.c $(pkg-config --cflags --libs libcurl)

port_file=$(bench_free_port)
port_none=$(bench_free_port)
cat certs/leaf-wildcard.pem certs/chain.pem > "$work/wildcard.chain.pem"
bench_nginx_start "$(bench_nginx_server "$port_file" "$PWD/certs/leaf-wildcard.key" "$(bench_well_known_location)")" \
    "$(bench_nginx_server "$port_none" "$PWD/certs/leaf-wildcard.key")"
reachable() { echo "d1.example.com:$port_file" | "$work/curl-multi" certs/ca-bundle.pem 1 >/dev/null 2>&1; }
bench_until reachable || true

seconds() { bench_seconds "$1"; }
rss_mib() { awk -v kib="$(bench_rss_kib "$1")" 'BEGIN { printf "%.1f", kib / 1024 }'; }
cpu() { bench_cpu "$1"; }
rate() { python3 -c "import sys; print(f'{int(sys.argv[1]) / float(sys.argv[2]):.1f}')" "$1" "$2"; }

printf '%-5s %-11s %8s %10s %7s %8s  %s\n' mix program seconds domains/s cpu-s rss-MiB check
for mix in file none; do
    port=$port_file
    if [ "$mix" = none ]; then port=$port_none; fi
    for i in $(seq "$count"); do echo "d$i.example.com:$port"; done > "$work/domains-$mix.txt"

    /usr/bin/time -v -o "$work/curl.time" "$work/curl-multi" certs/ca-bundle.pem "$concurrency" \
        < "$work/domains-$mix.txt" > "$work/curl.out" || true
    s=$(seconds "$work/curl.time")
    printf '%-5s %-11s %8.2f %10s %7s %8s  %s\n' "$mix" curl-multi "$s" "$(rate "$count" "$s")" \
        "$(cpu "$work/curl.time")" "$(rss_mib "$work/curl.time")" "$(cat "$work/curl.out")"

    /usr/bin/time -v -o "$work/aasa.time" env -u https_proxy -u HTTPS_PROXY -u all_proxy -u ALL_PROXY \
        "$aasa" audit --domains-file "$work/domains-$mix.txt" \
        --resolve "*:*:127.0.0.1" --ca-file certs/ca-bundle.pem --no-system-roots \
        --concurrency "$concurrency" --format jsonl --no-progress > "$work/aasa.jsonl" || true
    s=$(seconds "$work/aasa.time")
    verdicts=$(python3 -c "import json,collections,sys; print(dict(collections.Counter(json.loads(l)['verdict'] for l in open(sys.argv[1]))))" "$work/aasa.jsonl")
    printf '%-5s %-11s %8.2f %10s %7s %8s  %s\n' "$mix" "aasa audit" "$s" "$(rate "$count" "$s")" \
        "$(cpu "$work/aasa.time")" "$(rss_mib "$work/aasa.time")" "$verdicts"
done
echo "(N=$count domains, $((count * 2)) URLs, concurrency $concurrency domains; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg))"
