#!/usr/bin/env bash
#
# make-test-certs.sh — generate a throwaway, TEST-ONLY PKI for the aasa test suite.
#
#   !!! Every private key written here is a PUBLIC TEST FIXTURE (it is committed to   !!!
#   !!! git). Never trust these certificates anywhere, never install the roots into   !!!
#   !!! a trust store, never use them for anything but tests.                         !!!
#
# Requires only the openssl CLI (written against OpenSSL 3.0). Validity dates and serial
# numbers are fixed; keys are regenerated on every run. Running it again deletes and
# regenerates every generated file in this folder. See README.md for the file table.

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

PASSPHRASE='correct horse battery staple'

# Fixed validity windows (GeneralizedTime form; OpenSSL re-encodes dates before 2050 as UTCTime).
# CA certificates start in 2010 (not 2020) so that the chain is also valid in 2015, when
# leaf-expired.pem was valid: chain validation requires EVERY certificate to be in date.
CA_START=20100101000000Z
CA_END=20991231235959Z
LONG_START=20200101000000Z
LONG_END=20991231235959Z
EXPIRED_START=20150101000000Z
EXPIRED_END=20160101000000Z
FUTURE_START=20900101000000Z
FUTURE_END=20991231235959Z
SHORT_START=20200101000000Z
SHORT_END=20300101000000Z

# Times used by the self-checks at the end.
CHECK_AT=1735689600          # 2025-01-01T00:00:00Z
EXPIRED_VALID_AT=1433116800  # 2015-06-01T00:00:00Z

WORK="$(mktemp -d "${TMPDIR:-/tmp}/aasa-test-pki.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# ---------------------------------------------------------------------------------------
# Clean out everything this script generates (never touches the script or README.md).
# ---------------------------------------------------------------------------------------
rm -f -- ./*.pem ./*.key ./*.der ./*.p12 passphrase.txt

# ---------------------------------------------------------------------------------------
# openssl configuration: one file with the `openssl ca` settings, the `req` stub and every
# X.509 v3 extension profile. The CA database location comes from $CADIR (set per issuance).
# ---------------------------------------------------------------------------------------
CONF="$WORK/openssl.cnf"
cat > "$CONF" <<'CNF'
[ ca ]
default_ca = test_ca

[ test_ca ]
dir             = $ENV::CADIR
database        = $dir/index.txt
serial          = $dir/serial
new_certs_dir   = $dir/newcerts
default_md      = sha256
policy          = policy_anything
unique_subject  = no
email_in_dn     = no
copy_extensions = none
preserve        = yes

[ policy_anything ]
countryName            = optional
stateOrProvinceName    = optional
localityName           = optional
organizationName       = optional
organizationalUnitName = optional
commonName             = supplied
emailAddress           = optional

[ req ]
distinguished_name = req_dn
prompt             = no
[ req_dn ]
CN = placeholder

# ---- CA profiles ------------------------------------------------------------------------
[ ext_root_ca ]
basicConstraints     = critical, CA:TRUE
keyUsage             = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash

[ ext_intermediate_ca ]
basicConstraints       = critical, CA:TRUE, pathlen:0
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

# ---- leaf profiles ----------------------------------------------------------------------
[ ext_leaf_rsa_server ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature, keyEncipherment
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = $ENV::SAN

[ ext_leaf_ec_server ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = $ENV::SAN

[ ext_leaf_rsa_client ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature, keyEncipherment
extendedKeyUsage       = clientAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = $ENV::SAN

[ ext_self_signed_server ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature, keyEncipherment
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
subjectAltName         = $ENV::SAN
CNF
# Both variables are referenced by the config, so they must always be set; they are
# overridden per issuance / per leaf.
export CADIR="$WORK" SAN="DNS:placeholder.invalid"

# ---------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------

# new_rsa_key OUT   — RSA-2048, unencrypted PKCS#8 PEM
new_rsa_key() { openssl genpkey -quiet -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1"; }

# new_ec_key OUT CURVE   — ECDSA on a named curve, unencrypted PKCS#8 PEM
new_ec_key() {
    openssl genpkey -quiet -algorithm EC -pkeyopt "ec_paramgen_curve:$2" \
        -pkeyopt ec_param_enc:named_curve -out "$1"
}

# issue KEY SUBJECT PROFILE SERIAL START END OUT SIGNER_CERT SIGNER_KEY
#   Signs a CSR for KEY with `openssl ca`. SIGNER_CERT "-" means self-signed (-selfsign).
#   Every issuance uses a fresh, throwaway CA database so serials can be fixed (and reused).
issue() {
    local key=$1 subject=$2 profile=$3 serial=$4 start=$5 end=$6 out=$7 signer_cert=$8 signer_key=$9
    local dir
    dir="$(mktemp -d "$WORK/ca.XXXXXX")"
    mkdir "$dir/newcerts"
    : > "$dir/index.txt"
    echo "$serial" > "$dir/serial"

    openssl req -new -config "$CONF" -key "$key" -subj "$subject" -out "$dir/req.csr"

    local signer_args=(-keyfile "$signer_key")
    if [[ "$signer_cert" == "-" ]]; then
        signer_args+=(-selfsign)
    else
        signer_args+=(-cert "$signer_cert")
    fi

    CADIR="$dir" openssl ca -batch -notext -config "$CONF" -preserveDN \
        -md sha256 -extensions "$profile" -startdate "$start" -enddate "$end" \
        "${signer_args[@]}" -in "$dir/req.csr" -out "$out" > "$dir/ca.log" 2>&1 \
        || { cat "$dir/ca.log" >&2; echo "openssl ca failed for $out" >&2; return 1; }
}

# make_root_ca NAME CN SERIAL
make_root_ca() {
    local name=$1 cn=$2 serial=$3
    new_rsa_key "$name.key"
    issue "$name.key" "/O=aasa test PKI/CN=$cn" ext_root_ca "$serial" \
        "$CA_START" "$CA_END" "$name.pem" - "$name.key"
}

# make_intermediate_ca NAME CN SERIAL ISSUER
make_intermediate_ca() {
    local name=$1 cn=$2 serial=$3 issuer=$4
    new_rsa_key "$name.key"
    issue "$name.key" "/O=aasa test PKI/CN=$cn" ext_intermediate_ca "$serial" \
        "$CA_START" "$CA_END" "$name.pem" "$issuer.pem" "$issuer.key"
}

# make_leaf NAME KEYTYPE(rsa|P-256|P-384) CN SAN PROFILE SERIAL START END ISSUER
make_leaf() {
    local name=$1 keytype=$2 cn=$3 san=$4 profile=$5 serial=$6 start=$7 end=$8 issuer=$9
    if [[ "$keytype" == rsa ]]; then new_rsa_key "$name.key"; else new_ec_key "$name.key" "$keytype"; fi
    SAN="$san" issue "$name.key" "/CN=$cn" "$profile" "$serial" "$start" "$end" \
        "$name.pem" "$issuer.pem" "$issuer.key"
}

# make_self_signed_leaf NAME CN SAN SERIAL
make_self_signed_leaf() {
    local name=$1 cn=$2 san=$3 serial=$4
    new_rsa_key "$name.key"
    SAN="$san" issue "$name.key" "/CN=$cn" ext_self_signed_server "$serial" \
        "$LONG_START" "$LONG_END" "$name.pem" - "$name.key"
}

# make_rsa_key_encodings NAME   — alternative encodings of NAME.key / NAME.pem
make_rsa_key_encodings() {
    local name=$1
    openssl pkey -in "$name.key" -traditional -out "$name.pkcs1.key"
    openssl pkey -in "$name.key" -outform DER -out "$name.key.der"
    openssl pkcs8 -topk8 -in "$name.key" -v2 aes-256-cbc \
        -passout file:passphrase.txt -out "$name.enc.key"
    openssl x509 -in "$name.pem" -outform DER -out "$name.der"
    openssl pkcs12 -export -inkey "$name.key" -in "$name.pem" -certfile chain.pem \
        -name "$name" -passout file:passphrase.txt -out "$name.p12"
}

EXAMPLE_SANS="DNS:example.com,DNS:www.example.com"

# ---------------------------------------------------------------------------------------
# Generate
# ---------------------------------------------------------------------------------------
printf '%s\n' "$PASSPHRASE" > passphrase.txt

make_root_ca         root-ca           "AASA Test Root CA"         1000
make_intermediate_ca intermediate-ca   "AASA Test Intermediate CA" 2000 root-ca
make_root_ca         untrusted-root-ca "AASA Untrusted Root CA"    9000

cp intermediate-ca.pem chain.pem
cp root-ca.pem ca-bundle.pem
cat intermediate-ca.pem root-ca.pem > full-chain.pem

#         name               key    CN                   SANs                                               profile             serial start          end          issuer
make_leaf leaf-rsa           rsa    example.com          "$EXAMPLE_SANS"                                    ext_leaf_rsa_server 3001 "$LONG_START"    "$LONG_END"    intermediate-ca
make_leaf leaf-ec            P-256  example.com          "$EXAMPLE_SANS"                                    ext_leaf_ec_server  3002 "$LONG_START"    "$LONG_END"    intermediate-ca
make_leaf leaf-ec384         P-384  example.com          "$EXAMPLE_SANS"                                    ext_leaf_ec_server  3003 "$LONG_START"    "$LONG_END"    intermediate-ca
make_leaf leaf-wildcard      rsa    "*.example.com"      "DNS:*.example.com"                                ext_leaf_rsa_server 3004 "$LONG_START"    "$LONG_END"    intermediate-ca
make_leaf leaf-expired       rsa    expired.example.com  "DNS:expired.example.com,DNS:example.com"          ext_leaf_rsa_server 3005 "$EXPIRED_START" "$EXPIRED_END" intermediate-ca
make_leaf leaf-not-yet-valid rsa    future.example.com   "DNS:future.example.com,DNS:example.com"           ext_leaf_rsa_server 3006 "$FUTURE_START"  "$FUTURE_END"  intermediate-ca
make_leaf leaf-short-lived   rsa    example.com          "$EXAMPLE_SANS"                                    ext_leaf_rsa_server 3007 "$SHORT_START"   "$SHORT_END"   intermediate-ca
make_leaf leaf-client-auth   rsa    example.com          "$EXAMPLE_SANS"                                    ext_leaf_rsa_client 3008 "$LONG_START"    "$LONG_END"    intermediate-ca
make_leaf leaf-other-domain  rsa    other.example.org    "DNS:other.example.org"                            ext_leaf_rsa_server 3009 "$LONG_START"    "$LONG_END"    intermediate-ca
make_leaf leaf-untrusted     rsa    example.com          "$EXAMPLE_SANS"                                    ext_leaf_rsa_server 9001 "$LONG_START"    "$LONG_END"    untrusted-root-ca
# Different key, same issuer + same serial (3001) + same subject as leaf-rsa.
make_leaf leaf-rsa-twin      rsa    example.com          "$EXAMPLE_SANS"                                    ext_leaf_rsa_server 3001 "$LONG_START"    "$LONG_END"    intermediate-ca

make_self_signed_leaf self-signed example.com "DNS:example.com" 4001

make_rsa_key_encodings leaf-rsa

# ---------------------------------------------------------------------------------------
# Self-checks (any failure => non-zero exit)
# ---------------------------------------------------------------------------------------
failures=0
pass() { printf '  ok    %s\n' "$*"; }
fail() { printf '  FAIL  %s\n' "$*" >&2; failures=$((failures + 1)); }

verifies() { # CERT ATTIME
    openssl verify -x509_strict -attime "$2" -CAfile ca-bundle.pem -untrusted chain.pem "$1" >/dev/null 2>&1
}
expect_verify_ok() {
    if verifies "$1" "$2"; then pass "$1 verifies at $2"; else fail "$1 should verify at $2"; fi
}
expect_verify_fail() {
    if verifies "$1" "$2"; then fail "$1 should NOT verify at $2"; else pass "$1 rejected at $2"; fi
}
expect_eku() { # CERT EXPECTED-TEXT
    local got
    got="$(openssl x509 -in "$1" -noout -ext extendedKeyUsage | sed -n '2p' | sed 's/^ *//; s/ *$//')"
    if [[ "$got" == "$2" ]]; then pass "$1 EKU = $got"; else fail "$1 EKU is '$got', expected '$2'"; fi
}
expect_cmd_ok() { # DESCRIPTION CMD...
    local d=$1; shift
    if "$@" >/dev/null 2>&1; then pass "$d"; else fail "$d"; fi
}
expect_cmd_fail() { # DESCRIPTION CMD...
    local d=$1; shift
    if "$@" >/dev/null 2>&1; then fail "$d"; else pass "$d"; fi
}

echo "Self-checks:"
for c in leaf-rsa leaf-ec leaf-ec384 leaf-wildcard leaf-client-auth leaf-other-domain \
         leaf-short-lived leaf-rsa-twin; do
    expect_verify_ok "$c.pem" "$CHECK_AT"
done
expect_verify_fail leaf-expired.pem       "$CHECK_AT"
expect_verify_ok   leaf-expired.pem       "$EXPIRED_VALID_AT"
expect_verify_fail leaf-not-yet-valid.pem "$CHECK_AT"
expect_verify_fail leaf-untrusted.pem     "$CHECK_AT"
expect_verify_fail self-signed.pem        "$CHECK_AT"
expect_cmd_ok "full-chain.pem verifies the intermediate" \
    openssl verify -x509_strict -attime "$CHECK_AT" -CAfile full-chain.pem intermediate-ca.pem

for c in leaf-rsa leaf-ec leaf-ec384 leaf-wildcard leaf-expired leaf-not-yet-valid \
         leaf-short-lived leaf-other-domain leaf-untrusted leaf-rsa-twin self-signed; do
    expect_eku "$c.pem" "TLS Web Server Authentication"
done
expect_eku leaf-client-auth.pem "TLS Web Client Authentication"

serial_of() { openssl x509 -in "$1" -noout -serial; }
issuer_of() { openssl x509 -in "$1" -noout -issuer; }
pubkey_of() { openssl x509 -in "$1" -noout -pubkey; }
if [[ "$(serial_of leaf-rsa.pem)" == "$(serial_of leaf-rsa-twin.pem)" &&
      "$(issuer_of leaf-rsa.pem)" == "$(issuer_of leaf-rsa-twin.pem)" &&
      "$(pubkey_of leaf-rsa.pem)" != "$(pubkey_of leaf-rsa-twin.pem)" ]]; then
    pass "leaf-rsa-twin: same issuer + serial ($(serial_of leaf-rsa.pem)), different key"
else
    fail "leaf-rsa-twin must share issuer + serial with leaf-rsa but have a different key"
fi

# Every certificate is v3 and every key matches its certificate.
for cert in *.pem; do
    case "$cert" in chain.pem|ca-bundle.pem|full-chain.pem) continue ;; esac
    key="${cert%.pem}.key"
    if ! openssl x509 -in "$cert" -noout -text | grep -q 'Version: 3 (0x2)'; then
        fail "$cert is not X.509 v3"
    fi
    if [[ "$(pubkey_of "$cert")" != "$(openssl pkey -in "$key" -pubout)" ]]; then
        fail "$key does not match $cert"
    fi
done
pass "all certificates are v3 and match their keys"

expect_cmd_ok   "leaf-rsa.p12 opens with the passphrase" \
    openssl pkcs12 -in leaf-rsa.p12 -passin file:passphrase.txt -noout
expect_cmd_fail "leaf-rsa.p12 rejects a wrong passphrase" \
    openssl pkcs12 -in leaf-rsa.p12 -passin pass:wrong -noout
expect_cmd_ok   "leaf-rsa.enc.key opens with the passphrase" \
    openssl pkey -in leaf-rsa.enc.key -passin file:passphrase.txt -noout
expect_cmd_fail "leaf-rsa.enc.key rejects a wrong passphrase" \
    openssl pkey -in leaf-rsa.enc.key -passin pass:wrong -noout
if grep -q 'BEGIN RSA PRIVATE KEY' leaf-rsa.pkcs1.key &&
   [[ "$(openssl pkey -in leaf-rsa.pkcs1.key -pubout)" == "$(openssl pkey -in leaf-rsa.key -pubout)" &&
      "$(openssl pkey -in leaf-rsa.key.der -inform DER -pubout)" == "$(openssl pkey -in leaf-rsa.key -pubout)" &&
      "$(openssl x509 -in leaf-rsa.der -inform DER)" == "$(openssl x509 -in leaf-rsa.pem)" ]]; then
    pass "leaf-rsa PKCS#1 / DER encodings match"
else
    fail "leaf-rsa PKCS#1 / DER encodings do not match"
fi

if (( failures > 0 )); then
    echo "$failures check(s) FAILED" >&2
    exit 1
fi
echo "All checks passed. TEST-ONLY keys: never trust these anywhere."
