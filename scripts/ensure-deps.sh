#!/usr/bin/env bash
# Installs what building and testing aasa needs, when it is missing (Debian/Ubuntu):
# the OpenSSL 3 headers and pkg-config file (libssl-dev), the openssl CLI (interop tests),
# and pkg-config (SwiftPM reads openssl.pc). Extra Debian packages can be named as arguments.
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
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
