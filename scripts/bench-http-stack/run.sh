#!/usr/bin/env bash
# Benchmark (not a test; CI does not run it) for the HTTP stack decision (docs/audit.md, "The
# HTTP stack"): libcurl's multi interface (curl-multi.c, Debian's libcurl4-openssl-dev: OpenSSL)
# against `aasa audit` (SwiftNIO + swift-nio-ssl: BoringSSL), fetching both paths of N domains
# at concurrency C from one local nginx on 127.0.0.1 (the setup of scripts/bench-audit.sh: the
# test PKI's wildcard certificate, one connection per URL), in two mixes:
#   file: every domain serves a small JSON file at /.well-known (the root path 404s);
#   none: both paths 404, so aasa parses and lints nothing: its work is the fetches, the chain
#         check and the report (the closest to fetch-only aasa gets).
# Prints seconds, domains/s, CPU seconds and peak RSS (/usr/bin/time -v) per program and mix.
#
#   scripts/bench-http-stack/run.sh [N] [C] [AASA]     (defaults 2000, 16, the release build)
#
# Every connection goes to 127.0.0.1; nginx is stopped on exit, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-2000}
concurrency=${2:-16}
aasa=${3:-}
scripts/ensure-deps.sh nginx time libcurl4-openssl-dev pkg-config

work=$(mktemp -d)
nginx_pid=""
cleanup() {
    if [ -n "$nginx_pid" ]; then
        kill -TERM "$nginx_pid" 2>/dev/null || true
        wait "$nginx_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

if [ -z "$aasa" ]; then
    echo "== building aasa (release)" >&2
    swift build -c release --product aasa >/dev/null
    aasa="$(swift build -c release --show-bin-path)/aasa"
fi
# shellcheck disable=SC2046
cc -O2 -Wall -o "$work/curl-multi" scripts/bench-http-stack/curl-multi.c $(pkg-config --cflags --libs libcurl)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
port_file=$(free_port)
port_none=$(free_port)
mkdir -p "$work/tmp"
cat certs/leaf-wildcard.pem certs/chain.pem > "$work/wildcard.chain.pem"
printf '%s\n' '{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/buy/*"}]}]}}' \
    > "$work/aasa.json"
server() { # PORT LOCATIONS
    printf '    server {\n        listen 127.0.0.1:%s ssl;\n        server_name *.example.com;\n' "$1"
    printf '        ssl_certificate %s/wildcard.chain.pem;\n        ssl_certificate_key %s/certs/leaf-wildcard.key;\n' \
        "$work" "$PWD"
    printf '        ssl_protocols TLSv1.2 TLSv1.3;\n        %s\n        location / { return 404; }\n    }\n' "$2"
}
{
    printf 'daemon off;\nmaster_process off;\nworker_processes 1;\npid %s/nginx.pid;\nerror_log stderr warn;\n' "$work"
    printf 'events { worker_connections 4096; }\nhttp {\n    access_log off;\n'
    for temp in body proxy fastcgi uwsgi scgi; do printf '    %s_temp_path %s/tmp/%s;\n' "${temp/body/client_body}" "$work" "$temp"; done
    server "$port_file" "location = /.well-known/apple-app-site-association { types { } default_type application/json; alias $work/aasa.json; }"
    server "$port_none" ""
    printf '}\n'
} > "$work/nginx.conf"
/usr/sbin/nginx -p "$work" -c "$work/nginx.conf" -e stderr &
nginx_pid=$!
for _ in $(seq 100); do
    if echo "d1.example.com:$port_file" | "$work/curl-multi" certs/ca-bundle.pem 1 >/dev/null 2>&1; then break; fi
    sleep 0.1
done

seconds() { awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$1"; }
rss_mib() { awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$1"; }
cpu() { awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$1"; }
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
