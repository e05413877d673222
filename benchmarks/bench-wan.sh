#!/usr/bin/env bash
# Benchmark (not a test; CI does not run it): `aasa audit` over the WAN simulation
# (benchmarks/wan-sim.sh), the same mix of N domains twice: over a 100 ms RTT line (± 10 ms
# jitter, 0.5 % loss, slow DNS) and with no added latency. Prints domains/s, CPU and peak RSS
# (GNU time) of each run, and the ceiling of the latency run with its computation:
#
#   ceiling = min(a, b)
#   a = the rate of the no-latency run (what the CPU allows)
#   b = CONCURRENCY / T, T = the mix's least mean time per domain: per category, DNS (one
#       RTT; slow names two RTTs and the slow server's delay both ways; NXDOMAIN the same one
#       RTT), plus its round trips after DNS x RTT (TCP, TLS 1.3, one request, both paths at
#       once), or --timeout for the names that hang (it bounds a request, connecting included)
#   ratio = latency run's domains/s / ceiling
#
#   benchmarks/bench-wan.sh N [CONCURRENCY]        (default 10000 domains, --concurrency 1000)
#
# Environment: AASA_EXECUTABLE (default: a release build, made here), TIMEOUT (default 5),
# RTT_MS (100), JITTER_MS (10), LOSS (0.5), SLOW_DNS_MS (250), SEED (1), AUDIT_OPTIONS (extra
# options for both runs, split on spaces), PERF=1 (record the latency run with perf, then
# print the top symbols).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-10000}
concurrency=${2:-1000}
timeout=${TIMEOUT:-5}
rtt=${RTT_MS:-100}
jitter=${JITTER_MS:-10}
loss=${LOSS:-0.5}
slow_dns=${SLOW_DNS_MS:-250}
seed=${SEED:-1}
read -r -a extra_options <<< "${AUDIT_OPTIONS:-}"
scripts/ensure-deps.sh nginx dnsmasq-base iproute2 time

aasa="${AASA_EXECUTABLE:-}"
if [ -z "$aasa" ]; then
    echo "== building aasa (release)" >&2
    swift build -c release --product aasa >/dev/null
    aasa="$(swift build -c release --show-bin-path)/aasa"
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
chmod 755 "$out"

# One run: the simulation with the given line, `aasa audit` under GNU time inside it.
run() {
    local name="$1"
    shift
    echo "== $name: $count domains, --concurrency $concurrency, --timeout $timeout ($*)" >&2
    local perf=()
    if [ "${PERF:-}" = 1 ] && [ "$name" = latency ]; then
        perf=(perf record -g -o "$out/perf.data" --)
    fi
    benchmarks/wan-sim.sh --domains "$count" --seed "$seed" "$@" -- \
        sh -c 'cp "$WAN_SIM_MIX" "$WAN_SIM_MANIFEST" "$1/"; shift
            exec "$@" --domains-file "$WAN_SIM_DOMAINS" --ca-file "$WAN_SIM_CA_FILE"' \
        sh "$out" /usr/bin/time -v -o "$out/$name.time" "${perf[@]}" "$aasa" audit --no-system-roots \
        --concurrency "$concurrency" --timeout "$timeout" --format jsonl --no-progress "${extra_options[@]}" \
        > "$out/$name.jsonl" 2> "$out/$name.log" || true
    grep -E '^(wan-delay|wan-sim):' "$out/$name.log" >&2 || true
    grep -vE '^(wan-delay|wan-sim):' "$out/$name.log" | head -5 >&2 || true
    if [ ! -s "$out/$name.jsonl" ] || grep -q 'Command terminated by signal\|cannot run' "$out/$name.time" "$out/$name.log"; then
        echo "bench-wan: the $name run did not audit (see above)" >&2
        exit 1
    fi
}
run latency --rtt-ms "$rtt" --jitter-ms "$jitter" --loss "$loss" --slow-dns-ms "$slow_dns"
run no-latency --rtt-ms 0 --jitter-ms 0 --loss 0 --slow-dns-ms 0

python3 - "$out" "$count" "$concurrency" "$timeout" "$rtt" "$slow_dns" <<'EOF'
import json, re, sys
out, count, concurrency, timeout, rtt, slow = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]) / 1000, float(sys.argv[6]) / 1000
mix = json.load(open(f"{out}/mix.json"))["categories"]
expected = {}
for line in open(f"{out}/manifest.tsv"):
    if not line.startswith("#"):
        domain, category, _address, verdict, _rule = line.rstrip("\n").split("\t")
        expected[domain] = (category, verdict)

def gnu_time(name):
    text = open(f"{out}/{name}.time").read()
    field = lambda label: re.search(rf"{label}: (.*)", text).group(1)
    wall = 0.0
    for part in field(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\)").split(":"):
        wall = wall * 60 + float(part)
    cpu = float(field("User time \(seconds\)")) + float(field("System time \(seconds\)"))
    return wall, cpu, int(field(r"Maximum resident set size \(kbytes\)")) / 1024

def delay_line(name):
    text = open(f"{out}/{name}.log").read()
    found = re.search(r"wan-delay: forwarded (\d+) packets .* CPU ([0-9.]+) s", text)
    return (int(found.group(1)), float(found.group(2))) if found else (0, 0.0)

runs = {}
for name in ("latency", "no-latency"):
    wall, cpu, rss = gnu_time(name)
    reports = [json.loads(line) for line in open(f"{out}/{name}.jsonl") if line.strip()]
    domains = [r["domain"] for r in reports]
    agree = sum(1 for r in reports if expected.get(r["domain"], ("", ""))[1] == r["verdict"])
    packets, line_cpu = delay_line(name)
    runs[name] = count / wall
    print(f"{name:10}  {wall:8.1f} s  {count / wall:8.1f} domains/s  aasa CPU {cpu:7.1f} s "
          f"({1000 * cpu / count:.2f} ms/domain)  peak RSS {rss:6.1f} MiB  reported {len(domains)} "
          f"(unique {len(set(domains))})  verdict as the manifest {agree}/{count}  "
          f"delay line {packets / wall:,.0f} packets/s, CPU {line_cpu:.1f} s ({100 * line_cpu / wall:.0f} %)")

print(f"\nleast mean time per domain at RTT {rtt * 1000:.0f} ms, timeout {timeout:g} s, slow DNS +{slow * 1000:.0f} ms each way:")
total = 0.0
for category, entry in mix.items():
    share = entry["count"] / count
    dns = rtt + ((rtt + 2 * slow) if entry["slowDNS"] else 0)
    # --timeout bounds each request, connecting included: a hanging domain costs DNS + timeout.
    seconds = dns + (timeout if entry["hangs"] else entry["roundTrips"] * rtt)
    total += share * seconds
    after = f"timeout {timeout:g} s (connecting included)" if entry["hangs"] else f"{entry['roundTrips']} x {rtt * 1000:.0f} ms"
    what = f"DNS {dns * 1000:.0f} ms + {after}"
    print(f"  {category:11} {entry['count']:7} ({100 * share:4.1f} %)  {seconds:6.3f} s = {what}")
a = runs["no-latency"]
b = concurrency / total
ceiling = min(a, b)
print(f"  T = sum(share x time) = {total:.3f} s")
print(f"ceiling = min(a = no-latency rate {a:.1f}/s, b = {concurrency} / {total:.3f} s = {b:.1f}/s) = {ceiling:.1f} domains/s")
print(f"latency run: {runs['latency']:.1f} domains/s = {100 * runs['latency'] / ceiling:.0f} % of the ceiling")
EOF
if [ "${PERF:-}" = 1 ] && [ -s "$out/perf.data" ]; then
    echo "== perf report (latency run, self time): by library, then the top 30 symbols"
    perf report -i "$out/perf.data" --no-children -g none --sort dso --stdio 2>/dev/null |
        grep -v '^#' | grep -v '^$' | head -12
    perf report -i "$out/perf.data" --no-children -g none --sort dso,symbol --stdio 2>/dev/null |
        grep -v '^#' | grep -v '^$' | head -30
fi
