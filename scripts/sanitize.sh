#!/usr/bin/env bash
# Memory safety of the C boundary:
#  1. the test suite under AddressSanitizer + LeakSanitizer (the library, the CLI, and the audit's
#     suites that reach our C code; see below);
#  2. valgrind memcheck over the CLI (sign, verify, extract, detect, inspect, lint, check, match,
#     and batches with worker threads), good and bad inputs:
#     zero errors and zero definite or indirect leaks.
# ASan uses its own build folder (.build-asan); valgrind runs the debug `aasa` of .build (the
# tests' build: scripts/test.sh), built here when it is not there yet.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh valgrind binutils

echo "== AddressSanitizer: swift test --sanitize=address" >&2
# What runs under ASan is where memory errors can be: our C code and the Swift that owns its
# pointers. So: the library and its C module (AASATests), the report writers, of the CLI the
# suites that feed real, signed and hostile files through the C boundary (the ASan-built aasa:
# sign, verify, extract, convert, detect, inspect, check, lint, the historical store, the bad
# input catalogue, hostile text, batches with their worker threads and caches, the system
# roots, large and FIFO inputs), and of the audit the suites that feed fetched bytes to our C
# code (the issuers that --fetch-issuers fetches, the servers' TLS chains, hostile answers of
# servers). Left to the plain run (scripts/test.sh), the TSan run and the static binary's run:
# the CLI suites of pure Swift behaviour (help, options, colour, docs, next steps, rule
# selection, baselines, diff, migrate, match, summaries, atomic-write races, interrupts,
# descriptor limits), and the audit suites that drive SwiftNIO's connections (politeness,
# reuse, descriptor shortage, the WAN simulation), which took 37 % of the ASan suite's time on
# a 2-core machine (401 s of 1,086 s) for no C boundary of ours.
cli_suites='SignCommandTests|VerifyCommandTests|ExtractCommandTests|ConvertCommandTests|DetectCommandTests'
cli_suites+='|InspectCommandTests|InspectPolicyTests|CheckCommandTests|LintCommandTests|HistoricalCommandTests'
cli_suites+='|BadInputCatalogueTests|HostileTextTests|BatchCommandTests|SystemRootsTests|LargeInputTests|FIFOInputTests'
# Line tables only (file and line of each frame, what ASan's reports and the suppressions use),
# not full debug info: the build, most of this stage's time, is about a quarter shorter.
LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0" \
    scripts/swift-test.sh --scratch-path .build-asan --sanitize=address -Xswiftc -gline-tables-only -Xcc -gline-tables-only \
    --filter "AASATests|AASAReportsTests|AASACLITests\.($cli_suites)|FetchIssuersTests|ServerChainCacheTests|AuditHostileTextTests"

echo "== valgrind memcheck over the CLI" >&2
# valgrind 3.19 cannot read Swift 6's default DWARF 5: it runs a copy of the tests' debug build
# without its DWARF (objcopy --strip-debug). The symbols stay, which the reports and the
# suppressions name; a separate DWARF 4 build cost CI a whole debug build of the package.
swift build --product aasa >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
aasa="$work/aasa"
objcopy --strip-debug "$(swift build --show-bin-path)/aasa" "$aasa"
certs=certs
example=examples/apple-app-site-association.p7m
printf 'garbage\x30\x82' > "$work/garbage"
head -c 1000 "$example" > "$work/truncated.p7m"

# The checks run side by side, one per core (valgrind runs a program on one thread at a time,
# so two checks take the time of one on a 2-core machine). `after_these` waits for every
# check started so far, where a check reads what an earlier one wrote.
mkdir "$work/checks"
parallel_checks=$(nproc)
started=0
check() {  # check EXPECTED_STATUS ARGS...: runs aasa under memcheck in the background
    started=$((started + 1))
    while [ "$(jobs -rp | wc -l)" -ge "$parallel_checks" ]; do wait -n || true; done
    run_check "$work/checks/$started" "$@" &
}
run_check() {  # run_check RESULT EXPECTED_STATUS ARGS...: RESULT gets "ok" or the failure
    local result=$1 expected=$2; shift 2
    local log="$result.valgrind" stderr="$result.stderr"
    set +e
    valgrind --quiet --error-exitcode=99 --suppressions=scripts/valgrind.supp --leak-check=full --errors-for-leak-kinds=definite,indirect \
        --show-leak-kinds=definite,indirect --log-file="$log" "$aasa" "$@" >/dev/null 2>"$stderr"
    local status=$?
    set -e
    if [ "$status" -ne "$expected" ] || [ -s "$log" ]; then
        { echo "valgrind: aasa $* -> exit $status (expected $expected)"; cat "$log" "$stderr"; } > "$result"
        cat "$result" >&2
    else
        echo ok > "$result"
        echo "valgrind clean: aasa $*" >&2
    fi
}
after_these() { wait; }

check 0 sign examples/apple-app-site-association.json -o "$work/out.der" --key $certs/leaf-rsa.key --cert $certs/leaf-rsa.pem --chain $certs/chain.pem
check 0 sign examples/apple-app-site-association.json -o "$work/out.pem" --pkcs12 $certs/leaf-rsa.p12 --passphrase-file $certs/passphrase.txt --outform pem
check 0 sign examples/apple-app-site-association.json -o "$work/out-ec.der" --key $certs/leaf-ec.key --cert $certs/leaf-ec.pem --chain $certs/chain.pem
check 2 sign examples/apple-app-site-association.json -o "$work/never" --key $certs/leaf-rsa.enc.key --cert $certs/leaf-rsa.pem
check 2 sign examples/apple-app-site-association.json -o "$work/never" --key $certs/leaf-ec.key --cert $certs/leaf-rsa.pem
check 0 verify "$example" --ca-file $certs/ca-bundle.pem --no-system-roots --domain example.com
check 1 verify "$example"
check 1 verify "$work/truncated.p7m" --ca-file $certs/ca-bundle.pem
check 1 verify "$work/garbage"
check 0 extract "$example" --ca-file $certs/ca-bundle.pem --no-system-roots --lf -o "$work/out.json"
check 1 extract "$example" -o "$work/never.json"
check 0 inspect "$example" --format json
check 2 inspect "$work/garbage"
check 0 lint examples/apple-app-site-association.json Tests/Fixtures/corpus/real-signed/Handbid_Handbid-WordPress_aasa-smime-format.p7m --format sarif
check 1 lint "$work/garbage" --format json
check 0 check "$example" --ca-file $certs/ca-bundle.pem --no-system-roots --format json
check 1 check Tests/Fixtures/corpus/real-signed/artsy_artsy-eigen-web-association_aasa-20150915-a.p7m
# The historical mode: the compiled-in roots as anchors decoded when a chain asks for them.
check 0 verify Tests/Fixtures/corpus/real-signed/artsy_artsy-eigen-web-association_aasa-20150915-a.p7m --historical
check 1 verify Tests/Fixtures/corpus/real-signed/Handbid_Handbid-WordPress_aasa-smime-format.p7m --historical --at 2015-01-01
check 1 match "$example" https://example.com/help/faq /account/x http:// --explain --format json
after_these  # the signed files of the first checks
check 0 verify "$work/out-ec.der" --ca-file $certs/ca-bundle.pem --no-system-roots --format json
check 0 detect "$example" "$work/out.pem" "$work/garbage" Tests/Fixtures/corpus/real-signed/Handbid_Handbid-WordPress_aasa-smime-format.p7m
# Batch mode: worker threads, the certificate and chain caches, ordered output.
mkdir -p "$work/plain" && cp examples/apple-app-site-association.json "$work/plain/a.json" && cp examples/apple-app-site-association.json "$work/plain/b.json" \
    && cp Tests/Fixtures/corpus/real-plain/*.json "$work/plain/"
check 0 sign "$work/plain" --out-dir "$work/signed" --key $certs/leaf-rsa.key --cert $certs/leaf-rsa.pem --chain $certs/chain.pem --jobs 2
after_these  # the batch's signed files
cp "$work/garbage" "$work/signed/zz-garbage.p7m"
check 1 verify "$work/signed" --ca-file $certs/ca-bundle.pem --no-system-roots --jobs 2 --format json
check 2 extract "$work/signed" --out-dir "$work/extracted" --ca-file $certs/ca-bundle.pem --no-system-roots --jobs 2
check 1 lint "$work/signed" --jobs 2 --format json
check 0 detect "$work/signed" --jobs 2
after_these
failures=0
for result in "$work"/checks/*; do
    case "$result" in *.valgrind | *.stderr) continue ;; esac
    [ "$(cat "$result")" = ok ] || failures=$((failures + 1))
done
ran=$(find "$work/checks" -type f ! -name '*.*' | wc -l)
if [ "$ran" -ne "$started" ]; then
    echo "sanitize: $started valgrind checks started, $ran finished" >&2
    exit 1
fi
[ ! -e "$work/never" ] && [ ! -e "$work/never.json" ] || { echo "a failed command left an output file" >&2; failures=$((failures + 1)); }
if [ "$failures" -ne 0 ]; then
    echo "sanitize: $failures valgrind check(s) failed" >&2
    exit 1
fi
echo "sanitize: AddressSanitizer and valgrind clean" >&2
