#!/usr/bin/env bash
# Builds a fully static release `aasa` at .build-static/release/aasa: the Swift runtime,
# Foundation, OpenSSL (libssl-dev's static libraries) and glibc are linked in. It starts in
# about 2 ms instead of 10: nothing to load or relocate at start-up (docs/performance.md).
# For CI images that run aasa once per file.
#
# glibc's caveat for static programs: name resolution (getaddrinfo, used by `aasa audit`) and
# OpenSSL's loading of engines still dlopen glibc's shared libraries at run time, which must
# be the version the program was built with: build it on the image that runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
flags=(-c release --scratch-path .build-static --static-swift-stdlib -Xswiftc -static-executable)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! swift build --product aasa "${flags[@]}" > "$log" 2>&1; then
    cat "$log" >&2
    exit 1
fi
# The linker's warning about dlopen in static programs is the caveat above, not news.
grep -v "requires at runtime the shared libraries from the glibc version" "$log" >&2 || true
binary="$(swift build "${flags[@]}" --show-bin-path)/aasa"
[ -x "$binary" ] || { echo "build-static: no binary at $binary" >&2; exit 1; }
if ldd "$binary" >/dev/null 2>&1; then
    echo "build-static: $binary is dynamically linked" >&2
    exit 1
fi
echo "$binary"
