#!/usr/bin/env bash
# Proves the "add the dependency" snippet of docs/library.md: a new package in an empty
# directory depends on this repository by URL (file://, branch main, as the snippet says),
# builds, and its program detects and verifies the bundled example through the AASA library,
# then lints a corpus file and writes its SARIF log through AASAReports (validated against the
# SARIF 2.1.0 schema here). Only the libraries and the C module are built: the consumer names no
# other product, and with
# `traits: []` SwiftPM must resolve no other package (no swift-nio, swift-nio-ssl or
# swift-argument-parser): the checkouts are checked.
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
mkdir -p "$work/MyTool/Sources/MyTool"
cat > "$work/MyTool/Package.swift" <<SWIFT
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "MyTool",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "file://$work/aasa.git", branch: "main", traits: []),
    ],
    targets: [
        .executableTarget(
            name: "MyTool",
            dependencies: [
                .product(name: "AASA", package: "aasa"),
                .product(name: "AASAReports", package: "aasa"),
            ]
        ),
    ]
)
SWIFT
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
if [ "$output" = "pkcs7-der valid findings" ]; then
    echo "consumer: 1 passed, 0 failed"
else
    echo "test-consumer: expected 'pkcs7-der valid findings', got '$output'" >&2
    echo "consumer: 0 passed, 1 failed"
    exit 1
fi
