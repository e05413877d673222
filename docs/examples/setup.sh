#!/usr/bin/env bash
# Makes the directory the examples of the docs run in: `bash docs/examples/setup.sh DIR`, from
# the repository root, then `cd DIR` and type the commands as the pages show them (with `aasa`
# on PATH). DocsConsoleTests runs every ```console block of the pages this way and compares
# what each command prints with the page.
#
# DIR holds links to the repository's certs/, examples/, docs/, scripts/ and Tests/ (so
# `certs/ca-bundle.pem` and `Tests/Fixtures/corpus/…` are what they are in the repository),
# `corpus` (Tests/Fixtures/corpus), and the small files the pages name, made here from the
# test PKI and the corpus. Nothing is written outside DIR.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${1:?usage: docs/examples/setup.sh DIR}"
mkdir -p "$dir"
cd "$dir"
for name in certs examples docs scripts Tests; do ln -sfn "$repo/$name" "$name"; done
ln -sfn "$repo/Tests/Fixtures/corpus" corpus
real="$repo/Tests/Fixtures/corpus/real-signed"

# The served name and the source of the bundled example.
cp "$repo/examples/apple-app-site-association.json" apple-app-site-association.json
# A legacy file of 2015 (artsy.net, GeoTrust) and the intermediate its chain needs.
cp "$real/artsy_artsy-eigen-web-association_aasa-20150915-a.p7m" artsy-2015.p7m
aasa="${AASA:-aasa}"
# git checks the test keys out readable by all, and `aasa sign` rightly warns about that.
chmod 600 "$repo"/certs/*.key "$repo"/certs/*.p12 "$repo/certs/passphrase.txt"
"$aasa" inspect artsy-2015.p7m --format pem --certificate 1 > geotrust-ssl-ca-g3.pem
# The bundled example under the name it is served as, and files signed by the test PKI.
cp "$repo/examples/apple-app-site-association.p7m" apple-app-site-association
sign() {  # sign OUTPUT LEAF [MORE OPTIONS]: the bundled example's JSON, signed by certs/LEAF
    local output=$1 leaf=$2
    shift 2
    "$aasa" sign apple-app-site-association.json -o "$output" --key "certs/$leaf.key" --cert "certs/$leaf.pem" "$@" 2>/dev/null
}
sign fullchain.p7m leaf-rsa --chain certs/full-chain.pem
sign nochain.p7m leaf-rsa
sign client-auth.p7m leaf-client-auth --chain certs/chain.pem
sign expired.p7m leaf-expired --chain certs/chain.pem
sign wildcard.p7m leaf-wildcard --chain certs/chain.pem
sign short-lived.p7m leaf-short-lived --chain certs/chain.pem
# A project's files: aasa.json, and site/ as served; a configuration with a typo in it.
cp apple-app-site-association.json aasa.json
mkdir -p site
cp apple-app-site-association.json site/apple-app-site-association
printf '{ "rules": { "unknown-kye": "error" } }\n' > config-typo.json
