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
# cli.md's small files: a trailing comma, an app ID listed twice with an unknown key, a clean
# current file, one for shared web credentials only, and a list of URLs.
printf '{"a":1,}\n' > trailing-comma.json
cat > duplicate.json <<'JSON'
{
  "applinks": {
    "details": [
      {
        "appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app"],
        "components": [{ "/": "/help/*" }],
        "x-note": "one app, listed twice"
      }
    ]
  }
}
JSON
cat > modern.json <<'JSON'
{
  "applinks": {
    "details": [
      {
        "appIDs": ["ABCDE12345.com.example.app"],
        "components": [
          { "/": "/help/*" },
          { "/": "/account/*", "exclude": true }
        ]
      }
    ]
  }
}
JSON
printf '{ "webcredentials": { "apps": ["ABCDE12345.com.example.app"] } }\n' > webcredentials-only.json
printf '# URLs from the access log\nhttps://example.com/help/faq\n\n/legacy/admin/users\nhttp://\n' > urls.txt
# A batch to verify: two signed files and one whose content was changed after signing.
mkdir -p batch/sub
sign batch/a.json leaf-rsa --chain certs/chain.pem
sign batch/b.json leaf-rsa --chain certs/chain.pem
sign batch/sub/c.json leaf-rsa --chain certs/chain.pem
python3 - batch/b.json <<'PY'
import sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
at = data.index(b"/help/")
data[at + 1] = ord("H")  # /help/ becomes /Help/: the signature no longer matches
open(path, "wb").write(bytes(data))
PY
# Files detect tells apart: a detached signature, certificates only, a cut file, a text.
openssl smime -sign -binary -outform DER -in apple-app-site-association.json \
    -signer certs/leaf-rsa.pem -inkey certs/leaf-rsa.key -out detached.p7m
openssl crl2pkcs7 -nocrl -certfile certs/leaf-rsa.pem -outform DER -out certsonly.p7b
head -c 1000 examples/apple-app-site-association.p7m > truncated.p7m
printf 'hello\n' > hello.txt
printf '\357\273\277' > bom.json && cat modern.json >> bom.json
# A tree to sign as a batch, with a README that is no AASA file.
mkdir -p plain/sub
cp apple-app-site-association.json plain/a.json
cp modern.json plain/sub/c.json
printf 'notes about these files\n' > plain/README
# File lists: a fleet of signed files and its CA, a list of names.
mkdir -p fleet/eu fleet/us
cp apple-app-site-association fleet/eu/shop.p7m
cp apple-app-site-association fleet/us/help.p7m
cp certs/ca-bundle.pem ca.pem
cp nochain.p7m extra.p7m
printf 'fleet/eu/shop.p7m\nfleet/us/help.p7m\n' > names.txt
# The limits: a 300 KB file, JSON nested 600 deep under an unknown key, a file with 4 certificates.
python3 - <<'PY'
import json
base = json.load(open("apple-app-site-association.json"))
base["x-padding"] = ""
text = json.dumps(base, indent=2)
pad = 300113 - len(text.encode()) - 1
base["x-padding"] = "a" * pad
open("big.json", "w").write(json.dumps(base, indent=2) + "\n")
apps = '{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/help/*"}]}]}, '
open("deep.json", "w").write(apps + '"x": ' + "[" * 600 + "]" * 600 + "}\n")
PY
cat certs/full-chain.pem certs/untrusted-root-ca.pem > four-certificates.pem
sign many-certs.p7m leaf-rsa --chain four-certificates.pem
# git ls-files needs a repository: the JSON files here, staged.
git init -q . && git add -- *.json
# convert-and-migrate.md's files: the example signed under a .p7m name, a legacy file to
# migrate (legacy.json), an access log, a hand-made migration that forgot case-sensitivity,
# two files whose rules moved, a path with "$(", a site tree, and three files to convert in place.
cp apple-app-site-association apple-app-site-association.p7m
cat > legacy.json <<'JSON'
{
  "applinks": {
    "apps": [],
    "defaults": { "caseSensitive": false },
    "details": [
      { "appID": "ABCDE12345.com.example.app", "paths": ["NOT /account/*", "/help/*", "/Shop/*"] },
      { "appID": "ABCDE12345.com.example.beta", "paths": ["NOT /account/*", "/help/*", "/Shop/*"] },
      { "appIDs": ["ABCDE12345.com.example.clip"], "components": [{ "/": "/shop/*" }] }
    ]
  },
  "webcredentials": { "apps": ["ABCDE12345.com.example.app"] }
}
JSON
cat > access.log <<'LOG'
203.0.113.7 - - [15/Sep/2015:10:00:00 +0000] "GET /help/faq?ref=mail HTTP/1.1" 200 512 "-" "Mozilla/5.0"
203.0.113.8 - - [15/Sep/2015:10:00:01 +0000] "GET /Shop/cart HTTP/1.1" 200 1024 "-" "Mozilla/5.0"
https://example.com/account/settings
LOG
cat > hand-migrated.json <<'JSON'
{
  "applinks": {
    "defaults": { "caseSensitive": false },
    "details": [
      {
        "appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.beta"],
        "components": [{ "/": "/account/*", "exclude": true }, { "/": "/help/*" }, { "/": "/Shop/*" }]
      },
      { "appIDs": ["ABCDE12345.com.example.clip"], "components": [{ "/": "/shop/*" }] }
    ]
  },
  "webcredentials": { "apps": ["ABCDE12345.com.example.app"] }
}
JSON
cat > d-old.json <<'JSON'
{
  "applinks": {
    "details": [
      { "appIDs": ["ABCDE12345.com.example.app"], "components": [{ "/": "/account/*", "exclude": true }, { "/": "/*" }] }
    ]
  },
  "webcredentials": { "apps": ["ABCDE12345.com.example.app"] }
}
JSON
cat > d-new.json <<'JSON'
{
  "applinks": {
    "details": [
      { "appIDs": ["ABCDE12345.com.example.app"], "components": [{ "/": "/*" }, { "/": "/account/*", "exclude": true }] }
    ]
  },
  "webcredentials": { "apps": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.beta"] }
}
JSON
cat > price.json <<'JSON'
{ "applinks": { "apps": [], "details": [{ "appID": "ABCDE12345.com.example.app", "paths": ["/shop/*", "/price/$(amount)"] }] } }
JSON
mkdir -p www/.well-known www/legacy
cp apple-app-site-association www/.well-known/apple-app-site-association
printf '<!doctype html><title>example</title>\n' > www/index.html
cp modern.json www/legacy/aasa.json
openssl smime -sign -nodetach -in apple-app-site-association.json -signer certs/leaf-rsa.pem \
    -inkey certs/leaf-rsa.key -certfile certs/chain.pem -out www/legacy/apple-app-site-association
cp apple-app-site-association shop.p7m
cp nochain.p7m stranger.p7m
cp apple-app-site-association help.p7m

# verify-a-signed-file.md's CI step: the site's signed file under public/.
mkdir -p public
cp apple-app-site-association public/apple-app-site-association
