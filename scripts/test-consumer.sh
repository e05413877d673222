#!/usr/bin/env bash
# Proves the "add the dependency" snippet of docs/library.md: a new package in an empty
# directory depends on this repository by URL (file://, branch main, as the snippet says),
# builds, and its program detects and verifies the bundled example through the AASA library,
# then lints a corpus file and writes its SARIF log through AASAReports (validated against the
# SARIF 2.1.0 schema here). Only the libraries and the C module are built: the consumer names no
# other product, and with
# `traits: []` SwiftPM must resolve no other package (no swift-nio, swift-nio-ssl or
# swift-argument-parser): the checkouts are checked. A second package depends on AASA,
# AASAReports and AASAAudit (traits: ["Audit"]) and audits a domain list against an nginx that
# this script starts on 127.0.0.1, then summarizes the reports, without the CLI.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
scripts_dir="$repo/scripts"
"$scripts_dir/ensure-deps.sh"
branch="$(git -C "$repo" rev-parse --abbrev-ref HEAD)"
if [ "$branch" != main ]; then
    echo "test-consumer: the snippet names branch main; this checkout is on '$branch'" >&2
    exit 1
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/aasa-consumer.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# A bare clone named aasa.git: its URL ends as the snippet's does (the package identity is the
# URL's last component), and it holds only what is committed.
git clone --quiet --bare "$repo" "$work/aasa.git"
# A consumer package NAME with one executable target that depends on the products named, and on
# this repository with the traits given (Swift array syntax).
make_package() {
    local name="$1" traits="$2"
    shift 2
    local products=""
    for product in "$@"; do
        products+="                .product(name: \"$product\", package: \"aasa\"),"$'\n'
    done
    mkdir -p "$work/$name/Sources/$name"
    cat > "$work/$name/Package.swift" <<SWIFT
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "$name",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "file://$work/aasa.git", branch: "main", traits: $traits),
    ],
    targets: [
        .executableTarget(
            name: "$name",
            dependencies: [
$products            ]
        ),
    ]
)
SWIFT
}
make_package MyTool "[]" AASA AASAReports
cat > "$work/MyTool/Sources/MyTool/main.swift" <<'SWIFT'
import AASA
import AASAReports
import Foundation

let arguments = CommandLine.arguments
let bytes = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
let detection = FileKindDetector.detect(bytes)
let trust = try TrustStore(TrustConfiguration(useSystemRoots: false, anchorFiles: [arguments[2]]))
let result = try Verifier(trust: trust).verify(bytes)
// A lint run as SARIF, as `aasa lint FILE --format sarif` writes it.
let json = try Data(contentsOf: URL(fileURLWithPath: arguments[3]))
let lint = Linter.lint(json)
let report = Report(
    context: ReportContext(command: "lint", rules: .lint()),
    subjects: [ReportSubject(path: arguments[3], lint: lint, diagnostics: lint.diagnostics)])
try SARIFWriter().write(report).write(to: URL(fileURLWithPath: arguments[4]))
print(detection.kind.rawValue, result.verdict.code, lint.diagnostics.isEmpty ? "no-findings" : "findings")
SWIFT
echo "test-consumer: building a package that depends on the AASA library (file://$work/aasa.git, branch main)" >&2
log="$work/build.log"
if ! swift build --package-path "$work/MyTool" > "$log" 2>&1; then
    cat "$log" >&2
    echo "consumer: 0 passed, 1 failed"
    exit 1
fi
output="$("$(swift build --package-path "$work/MyTool" --show-bin-path)/MyTool" \
    "$repo/examples/apple-app-site-association.p7m" "$repo/certs/ca-bundle.pem" \
    "$repo/Tests/Fixtures/corpus/real-plain/chayev_webpage-sandbox_aasa-missingAppID.json" "$work/lint.sarif")"
checkouts="$(find "$work/MyTool/.build/checkouts" -mindepth 1 -maxdepth 1 -printf '%f ' | sort)"
if [ "$checkouts" != "aasa " ]; then
    echo "test-consumer: with traits: [] only aasa should be resolved; the checkouts are: $checkouts" >&2
    echo "consumer: 0 passed, 1 failed"
    exit 1
fi
if ! python3 "$repo/scripts/validate-json.py" "$repo/Tests/Fixtures/schemas/sarif-schema-2.1.0.json" "$work/lint.sarif" >&2; then
    echo "test-consumer: the consumer's SARIF log is not valid SARIF 2.1.0" >&2
    echo "consumer: 0 passed, 1 failed"
    exit 1
fi
if [ "$output" != "pkcs7-der valid findings" ]; then
    echo "test-consumer: expected 'pkcs7-der valid findings', got '$output'" >&2
    echo "consumer: 0 passed, 1 failed"
    exit 1
fi

# The fleet audit as a library (issue #26): a second package depends on AASA, AASAReports and
# AASAAudit (traits: ["Audit"]), audits a domain list with a bounded window against an nginx
# that this script starts on 127.0.0.1, writes each report as `aasa audit --format jsonl` does,
# reads the lines back and summarizes them as `aasa audit summarize` does, without the CLI.
command -v nginx >/dev/null || PATH="$PATH:/usr/sbin"
if ! command -v nginx >/dev/null; then
    echo "test-consumer: nginx is not installed (run scripts/ensure-deps.sh nginx)" >&2
    echo "consumer: 1 passed, 1 failed"
    exit 1
fi
make_package FleetTool '["Audit"]' AASA AASAReports AASAAudit
# The program is docs/library.md's fleet example, taken from the page as it is printed there.
python3 - "$repo/docs/library.md" "$work/FleetTool/Sources/FleetTool/main.swift" <<'PYTHON'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
found = re.search(r"<!-- test-consumer: FleetTool/main.swift -->\n```swift\n(.*?)\n```\n", text, re.S)
if not found:
    sys.exit("test-consumer: docs/library.md has no FleetTool/main.swift example")
open(sys.argv[2], "w", encoding="utf-8").write(found.group(1) + "\n")
PYTHON
# The nginx: one TLS server for *.example.com (the test PKI's wildcard leaf), the file of a host
# under sites/HOST; a host without one answers 404.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mkdir -p "$work/nginx/tmp" "$work/sites/current.example.com" "$work/sites/legacy.example.com"
printf '%s\n' '{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/buy/*"}]}]}}' \
    > "$work/sites/current.example.com/aasa.json"
printf '%s\n' '{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app", "paths": ["/buy/*"]}]}}' \
    > "$work/sites/legacy.example.com/aasa.json"
cat "$repo/certs/leaf-wildcard.pem" "$repo/certs/intermediate-ca.pem" > "$work/nginx/wildcard.chain.pem"
cat > "$work/nginx/nginx.conf" <<NGINX
daemon off;
master_process off;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log stderr warn;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $work/nginx/tmp/body;
    proxy_temp_path $work/nginx/tmp/proxy;
    fastcgi_temp_path $work/nginx/tmp/fastcgi;
    uwsgi_temp_path $work/nginx/tmp/uwsgi;
    scgi_temp_path $work/nginx/tmp/scgi;
    server {
        listen 127.0.0.1:$port ssl;
        server_name *.example.com;
        ssl_certificate $work/nginx/wildcard.chain.pem;
        ssl_certificate_key $repo/certs/leaf-wildcard.key;
        root $work/sites/\$host;
        location = /.well-known/apple-app-site-association { default_type application/json; try_files /aasa.json =404; }
        location / { return 404; }
    }
}
NGINX
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e stderr 2> "$work/nginx/nginx.log" &
nginx_pid=$!
trap 'kill "$nginx_pid" 2>/dev/null; wait "$nginx_pid" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
done
printf '%s\n' "# the fleet" "current.example.com:$port" "not a domain" "legacy.example.com:$port" \
    "missing.example.com:$port  # no file" > "$work/domains.txt"
echo "test-consumer: building a package that depends on AASA, AASAReports and AASAAudit (traits: [\"Audit\"])" >&2
if ! swift build --package-path "$work/FleetTool" > "$log" 2>&1; then
    cat "$log" >&2
    echo "consumer: 1 passed, 1 failed"
    exit 1
fi
fleet="$("$(swift build --package-path "$work/FleetTool" --show-bin-path)/FleetTool" \
    "$work/domains.txt" "$repo/certs/ca-bundle.pem" "$work/results.jsonl")"
expected="audited 3, not domains: [\"3\"], records 3
current 1, legacy 1, broken 1
no failures"
if [ "$fleet" != "$expected" ]; then
    echo "test-consumer: the fleet consumer printed" >&2
    printf '%s\n' "$fleet" >&2
    echo "test-consumer: expected" >&2
    printf '%s\n' "$expected" >&2
    cat "$work/nginx/nginx.log" >&2
    echo "consumer: 1 passed, 1 failed"
    exit 1
fi
echo "consumer: 2 passed, 0 failed"
