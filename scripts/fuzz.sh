#!/usr/bin/env bash
# Runs a libFuzzer harness (Fuzz/README.md) for N seconds, or replays the regression inputs.
#   scripts/fuzz.sh HARNESS [SECONDS]     fuzz (default 60 s); crashes go to fuzz-artifacts/
#   scripts/fuzz.sh --all SECONDS         every harness, one after the other
#   scripts/fuzz.sh --replay              replay Fuzz/regressions/* through a normal build
# Seeds: certs/, examples/, Tests/Fixtures/corpus/ and generated signed files; the working corpus
# grows in .build-fuzz/corpus/HARNESS (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
harnesses=(FuzzSignedData FuzzDocument FuzzMatch)

if [ "${1:-}" = "--replay" ]; then
    swift build --product FuzzSignedData >/dev/null
    bin=$(swift build --show-bin-path)
    for h in "${harnesses[@]}"; do
        swift build --product "$h" >/dev/null
        files=(Fuzz/regressions/"$h"/*)
        # A harness with nothing to replay would pass this step without running: refused.
        if [ ! -e "${files[0]}" ]; then
            echo "fuzz.sh --replay: Fuzz/regressions/$h holds no input" >&2
            exit 1
        fi
        "$bin/$h" "${files[@]}"
    done
    exit 0
fi
if [ "${1:-}" = "--all" ]; then
    for h in "${harnesses[@]}"; do "$0" "$h" "${2:-60}"; done
    exit 0
fi

harness=${1:?usage: scripts/fuzz.sh HARNESS [SECONDS] | --all SECONDS | --replay}
seconds=${2:-60}
scratch=.build-fuzz
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xcc -fsanitize=fuzzer-no-link,address)
swift build --scratch-path "$scratch" --product "$harness" "${flags[@]}" >/dev/null
bin="$(swift build --scratch-path "$scratch" --show-bin-path "${flags[@]}")/$harness"

corpus="$scratch/corpus/$harness"
seeds="$scratch/seeds/$harness"
mkdir -p "$corpus" "$seeds" fuzz-artifacts
if [ -z "$(ls -A "$seeds")" ]; then
    case "$harness" in
        FuzzSignedData)
            cp certs/*.pem certs/*.der certs/*.p12 examples/*.p7m "$seeds"/ 2>/dev/null || true
            cp Tests/Fixtures/corpus/real-signed/* "$seeds"/
            openssl smime -sign -nodetach -noattr -outform PEM -inkey certs/leaf-ec.key -signer certs/leaf-ec.pem \
                -in examples/apple-app-site-association.json -out "$seeds/ec.pem.p7"
            openssl smime -sign -nodetach -inkey certs/leaf-rsa.key -signer certs/leaf-rsa.pem \
                -in examples/apple-app-site-association.json -out "$seeds/rsa.smime"
            openssl cms -sign -nodetach -stream -outform DER -inkey certs/leaf-rsa.key -signer certs/leaf-rsa.pem \
                -in examples/apple-app-site-association.json -out "$seeds/ber.p7m" ;;
        FuzzDocument)
            cp examples/*.json Tests/Fixtures/corpus/real-plain/* "$seeds"/ ;;
        FuzzMatch)
            i=0
            for url in https://example.com/help/x /en_US/taco-bell/1?ref=a\&id=12 /a/q/b/z/c /legacy/admin/x \
                "/x/shop/y?x=1#frag" "https://example.com/%F0%9F%98%80?%ZZ" /; do
                printf '%s' "$url" > "$seeds/url$i"; i=$((i + 1))
            done ;;
    esac
fi
echo "fuzz: $harness for $seconds s (corpus $corpus, seeds $seeds)" >&2
log="fuzz-artifacts/$harness.log"
# The same LeakSanitizer suppressions as the test suite: Swift values whose only references sit
# in spare-bit-tagged enum payloads, made once by a global's initialiser (the harness's fixed
# matcher keeps its compiled patterns that way). No OpenSSL allocation is suppressed.
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
status=0
"$bin" "$corpus" "$seeds" -max_total_time="$seconds" -rss_limit_mb=4096 -max_len=65536 -timeout=10 \
    -artifact_prefix=fuzz-artifacts/"$harness"- -print_final_stats=1 > "$log" 2>&1 || status=$?
# The whole log stays in fuzz-artifacts/; print the coverage reached and the final figures
# (or the crash report).
if [ "$status" -ne 0 ]; then
    tail -n 60 "$log"
    echo "fuzz: $harness FAILED (exit $status); the input is in fuzz-artifacts/, the log in $log" >&2
    exit "$status"
fi
grep -E '^#[0-9]+' "$log" | tail -n 1
grep -E '^(Done|stat::)' "$log"
