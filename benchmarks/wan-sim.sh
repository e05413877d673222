#!/usr/bin/env bash
# The WAN simulation (issue #17): a generated mix of domains behind real servers, reached over
# a delay line with latency, jitter and loss, and a command run on the client side of it.
#
#   benchmarks/wan-sim.sh [--domains N] [--rtt-ms MS] [--jitter-ms MS] [--loss PERCENT]
#                      [--slow-dns-ms MS] [--seed S] -- COMMAND [ARG...]
#
#   --domains N       domains in the mix (default 1000)
#   --rtt-ms MS       round-trip time added between the namespaces (default 100; 0: none)
#   --jitter-ms MS    jitter of each one-way delay, ± MS (default 10)
#   --loss PERCENT    packets dropped, each direction (default 0.5)
#   --slow-dns-ms MS  extra delay each way to and from the slow DNS server (default 250)
#   --seed S          seed of the mix and of the jitter and loss (default 1)
#
# Needs root (network namespaces), /dev/net/tun, a C compiler ($CC, cc, clang or gcc), python3, nginx, dnsmasq (Debian
# dnsmasq-base) and openssl. Exits 77 when it cannot build the simulation here (not root, no
# namespaces, a missing tool), with the reason on stderr; otherwise with COMMAND's status.
#
# What runs where (docs/audit.md, "The WAN simulation"):
#   client namespace  only lo and a TUN (10.200.0.2); COMMAND runs here, its resolv.conf
#                     points at 10.201.0.53 (ip netns exec bind-mounts /etc/netns/NAME/*)
#   server namespace  lo holds 10.201.0.0/16. nginx (wildcard certificate of certs/) on the
#                     CDN and own addresses; dnsmasq on 10.201.0.53, authoritative for
#                     example.com (unknown names NXDOMAIN); the hang listeners (accept, never
#                     speak); the refused addresses, where nothing listens
#   slow-DNS namespace  a second dnsmasq on 10.202.0.53, to which the first forwards the
#                     slow-dns names: that lookup crosses the delay line twice more, plus
#                     --slow-dns-ms each way (a resolver asking a slow authoritative server)
#   wan-delay         benchmarks/wan-sim/wan-delay.c, compiled here: routes IPv4 between the
#                     three TUNs by destination prefix, after the delay. (This kernel has no
#                     sch_netem, so `tc qdisc ... netem` is not an option; a user-space TUN
#                     forwarder is the smallest real packet-level delay.)
# Nothing can leave: no namespace has a route but to the others' TUN.
#
# COMMAND sees these variables:
#   WAN_SIM_DOMAINS   the domains file (one a line, in scan order)
#   WAN_SIM_MANIFEST  manifest.tsv: domain, category, address, expected verdict, expected rule
#   WAN_SIM_MIX       mix.json: the categories, their counts, round trips (the ceiling)
#   WAN_SIM_CA_FILE   the test PKI's root (certs/ca-bundle.pem): use --ca-file with it
#   WAN_SIM_DIR       the simulation's directory (removed on exit: copy what you keep)
#                     with access.log, nginx's line per request: msec request_time
#                     connection_time connection host server_addr uri
# Everything is torn down on exit, on INT and TERM and when a step fails.
set -euo pipefail

# A test runner may start us with signals blocked (they would stay blocked in every child):
# start again with an empty signal mask and default dispositions.
if [ -z "${WAN_SIM_UNMASKED:-}" ]; then
    export WAN_SIM_UNMASKED=1
    exec python3 -c 'import os, signal, sys
signal.pthread_sigmask(signal.SIG_SETMASK, [])
for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):
    signal.signal(s, signal.SIG_DFL)
os.execvp("bash", ["bash"] + sys.argv[1:])' "$0" "$@"
fi

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
domains=1000 rtt=100 jitter=10 loss=0.5 slow_dns=250 seed=1
usage() {
    sed -n '5,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 64
}
while [ $# -gt 0 ]; do
    case "$1" in
    --domains) domains="${2:?}"; shift 2 ;;
    --rtt-ms) rtt="${2:?}"; shift 2 ;;
    --jitter-ms) jitter="${2:?}"; shift 2 ;;
    --loss) loss="${2:?}"; shift 2 ;;
    --slow-dns-ms) slow_dns="${2:?}"; shift 2 ;;
    --seed) seed="${2:?}"; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
    esac
done
[ $# -gt 0 ] || usage
for number in "$domains" "$rtt" "$jitter" "$slow_dns" "$seed"; do
    [[ "$number" =~ ^[0-9]+$ ]] || { echo "wan-sim: not a whole number: $number" >&2; exit 64; }
done
[[ "$loss" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "wan-sim: --loss is a percentage: $loss" >&2; exit 64; }
one_way=$(python3 -c "print($rtt / 2)")
(( jitter * 2 <= rtt )) || { echo "wan-sim: --jitter-ms must be at most half of --rtt-ms" >&2; exit 64; }

cannot() {
    echo "wan-sim: cannot build the simulation here: $*" >&2
    exit 77
}
[ "$(id -u)" -eq 0 ] || cannot "not root (network namespaces need root)"
[ -c /dev/net/tun ] || cannot "no /dev/net/tun"
for tool in ip python3 openssl; do
    command -v "$tool" >/dev/null || cannot "$tool is not installed"
done
compiler=""
for candidate in "${CC:-}" cc clang gcc; do
    if [ -n "$candidate" ] && command -v "$candidate" >/dev/null; then
        compiler="$candidate"
        break
    fi
done
[ -n "$compiler" ] || cannot "no C compiler (cc, clang or gcc) for wan-delay.c"
nginx_bin="${NGINX:-/usr/sbin/nginx}"
dnsmasq_bin="${DNSMASQ:-/usr/sbin/dnsmasq}"
[ -x "$nginx_bin" ] || cannot "nginx is not installed ($nginx_bin): scripts/ensure-deps.sh nginx"
[ -x "$dnsmasq_bin" ] || cannot "dnsmasq is not installed ($dnsmasq_bin): scripts/ensure-deps.sh dnsmasq-base"

# Unique per run: several simulations may run at once.
prefix="aasa-wan-$$-$RANDOM"
ns_client="$prefix-c" ns_server="$prefix-s" ns_dns="$prefix-d"
work="$(mktemp -d /tmp/aasa-wan.XXXXXXXX)"
pids=()
made_namespaces=()

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    set +e
    # Whatever still runs in our namespaces (COMMAND's leftovers included), then our daemons;
    # wan-delay last, so that it prints its counters.
    local ns pid
    for ns in "${made_namespaces[@]}"; do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -TERM "$pid" 2>/dev/null; done
    done
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
    for _ in $(seq 50); do
        local alive=""
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ -z "$alive" ] && break
        sleep 0.1
    done
    for ns in "${made_namespaces[@]}"; do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
    done
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
    [ -s "$work/wan-delay.log" ] && cat "$work/wan-delay.log" >&2
    for ns in "${made_namespaces[@]}"; do
        ip netns del "$ns" 2>/dev/null
        rm -rf "/etc/netns/$ns"
    done
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "wan-sim: $domains domains, RTT $rtt ms ± $jitter ms, loss $loss %, slow DNS +$slow_dns ms each way, seed $seed" >&2
"$compiler" -O2 -Wall -o "$work/wan-delay" "$here/wan-sim/wan-delay.c"
python3 "$here/wan-sim/make-mix.py" "$work" "$domains" "$seed" "$repo"
chmod 755 "$work"

# The namespaces, each with lo and one TUN (wan0) that wan-delay attaches to.
for ns in "$ns_client" "$ns_server" "$ns_dns"; do
    ip netns add "$ns" || cannot "ip netns add failed"
    made_namespaces+=("$ns")
    ip -n "$ns" link set lo up
    ip -n "$ns" tuntap add dev wan0 mode tun
    ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 2>/dev/null || true
done
extra=()
[ "$slow_dns" -gt 0 ] && extra=(--extra "10.202.0.53:$slow_dns")
"$work/wan-delay" --delay-ms "$one_way" --jitter-ms "$jitter" --loss "$loss" --seed "$seed" \
    "${extra[@]}" --ready "$work/wan-delay.ready" \
    "/run/netns/$ns_client:wan0:10.200.0.0/16" "/run/netns/$ns_server:wan0:10.201.0.0/16" \
    "/run/netns/$ns_dns:wan0:10.202.0.0/16" 2>"$work/wan-delay.log" &
pids+=($!)
for _ in $(seq 100); do [ -e "$work/wan-delay.ready" ] && break; sleep 0.05; done
[ -e "$work/wan-delay.ready" ] || { cat "$work/wan-delay.log" >&2; echo "wan-sim: wan-delay did not start" >&2; exit 1; }

# Addresses and routes: each namespace reaches the others' prefixes through its TUN only.
ip -n "$ns_client" addr add 10.200.0.2/32 dev wan0
ip -n "$ns_server" addr add 10.201.0.1/16 dev lo
ip -n "$ns_server" addr add 10.201.0.53/32 dev lo
ip -n "$ns_dns" addr add 10.202.0.53/32 dev lo
for ns in "$ns_client" "$ns_server" "$ns_dns"; do
    ip -n "$ns" link set wan0 mtu 1500 txqueuelen 10000 up
done
ip -n "$ns_client" route add 10.201.0.0/16 dev wan0 src 10.200.0.2
ip -n "$ns_server" route add 10.200.0.0/16 dev wan0 src 10.201.0.1
ip -n "$ns_server" route add 10.202.0.0/16 dev wan0 src 10.201.0.53
ip -n "$ns_dns" route add 10.201.0.0/16 dev wan0 src 10.202.0.53

# The client's resolver: the front dnsmasq, and files then DNS (nothing else, e.g. no
# systemd-resolved socket, which would answer from outside the namespace).
mkdir -p "/etc/netns/$ns_client"
printf 'nameserver 10.201.0.53\noptions timeout:2 attempts:3\n' > "/etc/netns/$ns_client/resolv.conf"
printf 'hosts: files dns\n' > "/etc/netns/$ns_client/nsswitch.conf"
printf '127.0.0.1 localhost\n' > "/etc/netns/$ns_client/hosts"

# The servers.
dnsmasq_common=(--keep-in-foreground --conf-file=/dev/null --no-resolv --no-hosts --bind-interfaces
    --addn-hosts="$work/hosts" --local=/example.com/ --cache-size=10000 --dns-forward-max=4096
    --user=root --log-facility=-)
ip netns exec "$ns_server" "$dnsmasq_bin" "${dnsmasq_common[@]}" --listen-address=10.201.0.53 \
    --servers-file="$work/slow-servers" --pid-file="$work/dnsmasq.pid" 2>"$work/dnsmasq.log" &
pids+=($!)
ip netns exec "$ns_dns" "$dnsmasq_bin" "${dnsmasq_common[@]}" --listen-address=10.202.0.53 \
    --pid-file="$work/dnsmasq-slow.pid" 2>"$work/dnsmasq-slow.log" &
pids+=($!)
ip netns exec "$ns_server" "$nginx_bin" -p "$work" -c "$work/nginx.conf" -e "$work/nginx-error.log" &
pids+=($!)
mapfile -t hang_addresses < "$work/hang-addresses"
ip netns exec "$ns_server" python3 "$here/wan-sim/hang-listener.py" "${hang_addresses[@]}" &
pids+=($!)

# Ready when the client resolves a name and reaches nginx and a hang listener through the line.
first_served="$(awk -F '\t' '$2 == "json" { print $1; exit }' "$work/manifest.tsv")"
ready=""
for _ in $(seq 100); do
    if ip netns exec "$ns_client" getent hosts "${first_served:-json-1.example.com}" >/dev/null 2>&1 &&
        ip netns exec "$ns_client" bash -c 'exec 3<>/dev/tcp/10.201.1.1/443 && exec 4<>/dev/tcp/"$1"/443' \
            - "${hang_addresses[0]}" 2>/dev/null; then
        ready=1
        break
    fi
    sleep 0.1
done
if [ -z "$ready" ]; then
    cat "$work"/*.log >&2 || true
    echo "wan-sim: the simulation did not come up" >&2
    exit 1
fi
echo "wan-sim: ready; running ${1@Q} in namespace $ns_client" >&2

# In the background, then `wait`: bash runs a trap only once the foreground command is over,
# but `wait` returns at once on INT or TERM. (A background command's standard input would be
# /dev/null: it gets ours explicitly.)
exec 3<&0
ip netns exec "$ns_client" env WAN_SIM_DOMAINS="$work/domains.txt" WAN_SIM_MANIFEST="$work/manifest.tsv" \
    WAN_SIM_MIX="$work/mix.json" WAN_SIM_CA_FILE="$repo/certs/ca-bundle.pem" WAN_SIM_DIR="$work" "$@" <&3 3<&- &
command_pid=$!
exec 3<&-
set +e
wait "$command_pid"
status=$?
set -e
exit "$status"
