#!/usr/bin/env bash
# Installs what building and testing aasa needs, when it is missing (Debian/Ubuntu):
# the OpenSSL 3 headers and pkg-config file (libssl-dev), the openssl CLI (interop tests),
# and pkg-config (SwiftPM reads openssl.pc). Extra Debian packages can be named as arguments
# (scripts/test.sh names nginx, which the audit tests start on 127.0.0.1 themselves: the
# package's own service is kept from starting while it installs).
set -euo pipefail

need=()
pkg-config --exists openssl 2>/dev/null || need+=(libssl-dev)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v openssl >/dev/null || need+=(openssl)
for extra in "$@"; do
    dpkg -s "$extra" >/dev/null 2>&1 || need+=("$extra")
done
[ ${#need[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
    echo "ensure-deps: missing ${need[*]}; install them with your package manager" >&2
    exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "ensure-deps: installing ${need[*]}" >&2
# Keep installed services (nginx) from starting: the tests run their own, on a free port.
policy=/usr/sbin/policy-rc.d
made_policy=""
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# ensure-deps: do not start services while installing\nexit 101\n' | $sudo tee "$policy" >/dev/null
    $sudo chmod 755 "$policy"
    made_policy=1
fi
cleanup() { if [ -n "$made_policy" ]; then $sudo rm -f "$policy"; fi; }
trap cleanup EXIT
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
