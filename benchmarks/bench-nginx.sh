# shellcheck shell=bash
# Sourced by the audit benchmarks (benchmarks/bench-audit.sh, benchmarks/bench-http-stack/run.sh), run
# from the repository's root: one local nginx on 127.0.0.1 for *.example.com with a wildcard
# certificate, in a temporary directory that is removed on exit, nginx stopped, whatever happens.
#
#   bench_nginx_init                     $work: a new temporary directory (with tmp/ and
#                                        aasa.json, a small current AASA file); the exit trap
#   bench_free_port                      a TCP port free on 127.0.0.1 a moment ago
#   bench_nginx_server PORT KEY [LOCATION]  a server block: $work/wildcard.chain.pem and KEY,
#                                        LOCATION (nginx directives) beside `location / 404`
#   bench_nginx_start SERVER_BLOCK...    writes $work/nginx.conf (one worker, no access log)
#                                        and starts nginx ($nginx_pid)
#   bench_well_known_location            the location that serves $work/aasa.json at /.well-known/
#   bench_until COMMAND...               runs COMMAND until it succeeds, at most 100 times, 0.1 s apart
#   bench_seconds / bench_rss_kib / bench_cpu TIME_FILE   wall seconds, peak RSS (KiB) and
#                                        user + system seconds from a `/usr/bin/time -v` file

# shellcheck disable=SC2034 # work and nginx_pid are the sourcing script's
bench_nginx_init() {
    work=$(mktemp -d)
    nginx_pid=""
    trap bench_nginx_cleanup EXIT INT TERM
    mkdir -p "$work/tmp"
    printf '%s\n' '{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/buy/*"}]}]}}' \
        > "$work/aasa.json"
}

bench_nginx_cleanup() {
    if [ -n "$nginx_pid" ]; then
        kill -TERM "$nginx_pid" 2>/dev/null || true
        wait "$nginx_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}

bench_free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

bench_nginx_server() {
    printf '    server {\n        listen 127.0.0.1:%s ssl;\n        server_name *.example.com;\n' "$1"
    printf '        ssl_certificate %s/wildcard.chain.pem;\n        ssl_certificate_key %s;\n' "$work" "$2"
    printf '        ssl_protocols TLSv1.2 TLSv1.3;\n        %s\n        location / { return 404; }\n    }\n' "${3:-}"
}

bench_nginx_start() {
    {
        printf 'daemon off;\nmaster_process off;\nworker_processes 1;\npid %s/nginx.pid;\nerror_log stderr warn;\n' "$work"
        printf 'events { worker_connections 4096; }\nhttp {\n    access_log off;\n'
        for temp in body proxy fastcgi uwsgi scgi; do
            printf '    %s_temp_path %s/tmp/%s;\n' "${temp/body/client_body}" "$work" "$temp"
        done
        printf '%s\n' "$@"
        printf '}\n'
    } > "$work/nginx.conf"
    /usr/sbin/nginx -p "$work" -c "$work/nginx.conf" -e stderr &
    nginx_pid=$!
}

bench_until() {
    for _ in $(seq 100); do
        if "$@"; then return 0; fi
        sleep 0.1
    done
    return 1
}

bench_seconds() {
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$1"
}
bench_rss_kib() { awk -F': ' '/Maximum resident set size/ { print $2 }' "$1"; }
bench_cpu() { awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$1"; }

# The well-known location that serves $work/aasa.json as application/json.
bench_well_known_location() {
    printf 'location = /.well-known/apple-app-site-association { types { } default_type application/json; alias %s/aasa.json; }' "$work"
}
