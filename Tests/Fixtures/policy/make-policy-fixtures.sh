#!/usr/bin/env bash
#
# make-policy-fixtures.sh: the signed files that test the verification policy (GitHub issue
# #12, docs/security.md#verification-policy). See README.md for what each file is and the
# verdict the tests expect.
#
#   !!! Every private key written here is a PUBLIC TEST FIXTURE. Never trust pki/root.pem. !!!
#
# Needs the openssl CLI (OpenSSL 3.0, with the legacy provider for MD4) and python3 (standard
# library only: craft.py lays out the DER of the hand-made files; openssl makes every
# signature). Keys are new on every run, so the files differ byte for byte between runs but
# not in structure; dates and serials are fixed. The generated files are committed: the tests
# never run this script.

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
HERE="$PWD"
CRAFT=(python3 "$HERE/craft.py")

WORK="$(mktemp -d "${TMPDIR:-/tmp}/aasa-policy-fixtures.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

rm -rf pki files
mkdir -p pki files

# ---- the content every file signs ------------------------------------------------------
cat > files/content.json <<'JSON'
{
  "applinks": {
    "apps": [],
    "details": [
      {
        "appID": "ABCDE12345.com.example.app",
        "paths": ["/buy/*", "NOT /buy/admin"]
      }
    ]
  }
}
JSON

# ---- a one-level PKI: a root and leaves issued by it -------------------------------------
CONF="$WORK/openssl.cnf"
cat > "$CONF" <<'CNF'
[ ca ]
default_ca = policy_ca
[ policy_ca ]
dir             = $ENV::CADIR
database        = $dir/index.txt
new_certs_dir   = $dir
serial          = $dir/serial
policy          = anything
unique_subject  = no
email_in_dn     = no
copy_extensions = none
preserve        = yes
[ anything ]
commonName       = supplied
organizationName = optional
[ req ]
distinguished_name = dn
prompt             = no
[ dn ]
CN = placeholder
[ root ]
basicConstraints     = critical, CA:TRUE
keyUsage             = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ server ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature, keyEncipherment
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:example.com
[ nonrepudiation ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, nonRepudiation
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:example.com
[ intermediate ]
basicConstraints       = critical, CA:TRUE, pathlen:0
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
[ keyenc ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, keyEncipherment
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:example.com
CNF
export CADIR="$WORK"

# issue NAME PROFILE DIGEST SERIAL [ISSUER [NOT_AFTER]]: pki/NAME.pem for pki/NAME.key, issued by
# pki/ISSUER (the root unless said), valid from 2020 to NOT_AFTER (2099-12-31 unless said).
issue() {
    local name=$1 profile=$2 digest=$3 serial=$4 issuer=${5:-root} not_after=${6:-20991231235959Z}
    : > "$WORK/index.txt"
    echo "$serial" > "$WORK/serial"
    openssl req -new -config "$CONF" -key "pki/$name.key" -subj "/O=aasa policy fixtures/CN=$name" \
        -out "$WORK/$name.csr"
    openssl ca -batch -config "$CONF" -extfile "$CONF" -extensions "$profile" -md "$digest" \
        -startdate 20200101000000Z -enddate "$not_after" -notext \
        -cert "pki/$issuer.pem" -keyfile "pki/$issuer.key" -in "$WORK/$name.csr" -out "pki/$name.pem" 2>/dev/null
}
# self_signed NAME DIGEST: pki/NAME.pem, a root self-signed with DIGEST, valid 2010 to 2099.
self_signed() {
    local name=$1 digest=$2
    openssl genpkey -quiet -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "pki/$name.key"
    : > "$WORK/index.txt"
    echo 01 > "$WORK/serial"
    openssl req -new -config "$CONF" -key "pki/$name.key" -subj "/O=aasa policy fixtures/CN=$name" \
        -out "$WORK/$name.csr"
    openssl ca -batch -selfsign -config "$CONF" -extfile "$CONF" -extensions root -md "$digest" \
        -startdate 20100101000000Z -enddate 20991231235959Z -notext \
        -keyfile "pki/$name.key" -in "$WORK/$name.csr" -out "pki/$name.pem" 2>/dev/null
}
rsa_key() { openssl genpkey -quiet -algorithm RSA -pkeyopt "rsa_keygen_bits:$2" -out "pki/$1.key"; }

openssl genpkey -quiet -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out pki/root.key
: > "$WORK/index.txt"
echo 01 > "$WORK/serial"
openssl req -new -config "$CONF" -key pki/root.key -subj "/O=aasa policy fixtures/CN=Policy Test Root" \
    -out "$WORK/root.csr"
openssl ca -batch -selfsign -config "$CONF" -extfile "$CONF" -extensions root -md sha256 \
    -startdate 20100101000000Z -enddate 20991231235959Z -notext \
    -keyfile pki/root.key -in "$WORK/root.csr" -out pki/root.pem 2>/dev/null

serial=16
for bits in 512 1023 1024 2047 2048; do
    rsa_key "rsa$bits" "$bits"
    issue "rsa$bits" server sha256 "$serial"
    serial=$((serial + 1))
done
rsa_key md5cert 2048 && issue md5cert server md5 20
rsa_key sha1cert 2048 && issue sha1cert server sha1 21
rsa_key keyenc 2048 && issue keyenc keyenc sha256 22
openssl genpkey -quiet -algorithm ED25519 -out pki/ed25519.key && issue ed25519 server sha256 23
openssl genpkey -quiet -genparam -algorithm DSA -pkeyopt dsa_paramgen_bits:2048 -out "$WORK/dsa.param"
openssl genpkey -quiet -paramfile "$WORK/dsa.param" -out pki/dsa.key && issue dsa server sha256 24
"${CRAFT[@]}" strip-dsa-params "$WORK/dsa-inherited.der" pki/dsa.pem pki/root.key
openssl x509 -inform DER -in "$WORK/dsa-inherited.der" -out pki/dsa-inherited.pem

# ---- signed with the openssl CLI ---------------------------------------------------------
# sign OUT LEAF DIGEST [extra smime options]: the AASA recipe (-noattr -nodetach, DER).
sign() {
    local out=$1 leaf=$2 digest=$3
    shift 3
    openssl smime -sign -in files/content.json -inkey "pki/$leaf.key" -signer "pki/$leaf.pem" \
        -md "$digest" -noattr -nodetach -outform DER -out "files/$out" "$@"
}
sign valid.p7m rsa2048 sha256
for bits in 512 1023 1024 2047; do sign "rsa$bits.p7m" "rsa$bits" sha256; done
sign md5-digest.p7m rsa2048 md5
sign sha1-digest.p7m rsa2048 sha1
sign md5-cert.p7m md5cert sha256
sign sha1-cert.p7m sha1cert sha256
sign keyenc-only.p7m keyenc sha256

# Padding after DER that docs/cli.md promises to tolerate: NUL bytes and white space.
{ cat files/valid.p7m; printf '\0\0\0\0\r\n \t\n'; } > files/valid-nul-padded.p7m

# A signer identified by subjectKeyIdentifier: valid CMS that PKCS#7 v1.5 cannot represent.
openssl cms -sign -in files/content.json -inkey pki/rsa2048.key -signer pki/rsa2048.pem -keyid \
    -md sha256 -noattr -nodetach -outform DER -out files/cms-keyid-signer.p7m

# PEM: one message, two messages, a message and then text.
openssl smime -sign -in files/content.json -inkey pki/rsa2048.key -signer pki/rsa2048.pem -md sha256 \
    -noattr -nodetach -outform PEM -out files/valid.pem
cat files/valid.pem files/valid.pem > files/two-messages.pem
{ cat files/valid.pem; echo 'this line is not part of the message'; } > files/trailing-text.pem
{ cat files/valid.pem; printf '\n  \n\0'; } > files/valid-padded.pem

# S/MIME (application/pkcs7-mime): one message, two, a message and then text.
openssl smime -sign -in files/content.json -inkey pki/rsa2048.key -signer pki/rsa2048.pem -md sha256 \
    -noattr -nodetach -out files/valid.smime
cat files/valid.smime files/valid.smime > files/two-messages.smime
{ cat files/valid.smime; echo 'this line is not part of the message'; } > files/trailing-text.smime

# multipart/signed: what `openssl smime -sign` writes without -nodetach.
openssl smime -sign -in files/content.json -inkey pki/rsa2048.key -signer pki/rsa2048.pem -md sha256 \
    -noattr -out files/multipart.smime
# The same message with one content byte changed ("buy" -> "bux"), and with a second message after it.
sed '0,/\/buy\/\*/s//\/bux\/*/' files/multipart.smime > files/multipart-tampered.smime
cat files/multipart.smime files/valid.smime > files/multipart-trailing.smime
# Signed by the 512-bit key: the policy applies to multipart/signed too.
openssl smime -sign -in files/content.json -inkey pki/rsa512.key -signer pki/rsa512.pem -md sha256 \
    -noattr -out files/multipart-rsa512.smime

# ---- boundaries a one-line bug in the chain policy would cross (GitHub issue #24) ----------
# Anchors self-signed with MD5 and with SHA-1 above a SHA-256 leaf: an anchor's own signature is
# never relied on, so both are valid without a warning (trust md5root.pem or sha1root.pem).
for weak in md5 sha1; do
    self_signed "${weak}root" "$weak"
    rsa_key "under-${weak}root" 2048 && issue "under-${weak}root" server sha256 30 "${weak}root"
    sign "${weak}-anchor.p7m" "under-${weak}root" sha256
done
# keyUsage nonRepudiation only: no digitalSignature bit, so wrong-purpose with any --purpose.
rsa_key nonrepudiation 2048 && issue nonrepudiation nonrepudiation sha256 31
sign nonrepudiation-only.p7m nonrepudiation sha256
# An intermediate that expires (2030-01-01) long before its leaf (2099): --min-days-valid names it.
rsa_key short-intermediate 2048 && issue short-intermediate intermediate sha256 32 root 20300101000000Z
rsa_key under-short-intermediate 2048 && issue under-short-intermediate server sha256 33 short-intermediate
sign short-intermediate.p7m under-short-intermediate sha256 -certfile pki/short-intermediate.pem

# ---- hand-made with craft.py (openssl makes the signatures) ------------------------------
for variant in good no-content-type two-content-type-values two-content-type-attributes \
    content-type-mismatch no-message-digest bad-signing-time signing-time-generalized-1999 \
    two-message-digest-attributes two-signing-time-attributes two-signing-time-values unsigned-signing-time \
    unsigned-signing-time-beside-signed unsigned-content-type unsigned-message-digest signed-countersignature \
    unsigned-countersignature unsigned-signing-certificate two-signing-certificate-attributes; do
    "${CRAFT[@]}" signed-attrs "files/attrs-$variant.p7m" files/content.json pki/rsa2048.pem pki/rsa2048.key \
        "$variant"
done

# MD4: a real MD4 signature (legacy provider); OpenSSL's default provider cannot verify it.
openssl dgst -md4 -provider legacy -provider default -sign pki/rsa2048.key -out "$WORK/md4.sig" \
    files/content.json
"${CRAFT[@]}" raw-signer files/md4-digest.p7m files/content.json pki/rsa2048.pem \
    1.2.840.113549.2.4 1.2.840.113549.1.1.1 "$WORK/md4.sig"
# Ed25519 over the content itself, no signed attributes (RFC 8419 needs them for the PKCS#7 path).
openssl pkeyutl -sign -rawin -inkey pki/ed25519.key -in files/content.json -out "$WORK/ed25519.sig"
"${CRAFT[@]}" raw-signer files/ed25519-noattr.p7m files/content.json pki/ed25519.pem \
    2.16.840.1.101.3.4.2.3 1.3.101.112 "$WORK/ed25519.sig"
# An unknown signature algorithm (an OID under the IANA example arc) over a real RSA signature.
openssl dgst -sha256 -sign pki/rsa2048.key -out "$WORK/rsa.sig" files/content.json
"${CRAFT[@]}" raw-signer files/unknown-signature-algorithm.p7m files/content.json pki/rsa2048.pem \
    2.16.840.1.101.3.4.2.1 1.3.6.1.4.1.32473.1.1 "$WORK/rsa.sig"
# An unknown digest algorithm.
"${CRAFT[@]}" raw-signer files/unknown-digest-algorithm.p7m files/content.json pki/rsa2048.pem \
    1.3.6.1.4.1.32473.1.2 1.2.840.113549.1.1.1 "$WORK/rsa.sig"
# DSA whose certificate omits the parameters (inherited from the issuer, RFC 3279).
openssl dgst -sha256 -sign pki/dsa.key -out "$WORK/dsa.sig" files/content.json
"${CRAFT[@]}" raw-signer files/dsa-inherited-parameters.p7m files/content.json pki/dsa-inherited.pem \
    2.16.840.1.101.3.4.2.1 2.16.840.1.101.3.4.3.2 "$WORK/dsa.sig"

# SignedData whose encapsulated content is not data.
# Authenticode: SpcIndirectDataContent (1.3.6.1.4.1.311.2.1.4), a SEQUENCE.
# SEQUENCE { SEQUENCE { SPC_PE_IMAGE_DATA }, DigestInfo { SHA-256, 32 zero bytes } }.
"${CRAFT[@]}" econtent files/authenticode.p7m pki/rsa2048.pem 1.3.6.1.4.1.311.2.1.4 \
    "3041300c060a2b06010401823702010f3031300d06096086480165030402010500$(printf '0420%064d' 0)"
# A catalog / certificate trust list (1.3.6.1.4.1.311.10.1), a SEQUENCE.
"${CRAFT[@]}" econtent files/catalog.p7m pki/rsa2048.pem 1.3.6.1.4.1.311.10.1 3000
# DigestedData (1.2.840.113549.1.7.5): version, SHA-256, data, a digest.
"${CRAFT[@]}" econtent files/digested-data.p7m pki/rsa2048.pem 1.2.840.113549.1.7.5 \
    "3041020100300d06096086480165030402010500300b06092a864886f70d010701$(printf '0420%064d' 0)"

# The certificates field with an element after the signer's certificate: an INTEGER, an empty
# SEQUENCE (neither is a certificate: malformed alone and in a batch), the certificate again.
"${CRAFT[@]}" append-to-certificates files/certs-extra-integer.p7m files/valid.p7m 020105
"${CRAFT[@]}" append-to-certificates files/certs-extra-empty-sequence.p7m files/valid.p7m 3000
"${CRAFT[@]}" append-to-certificates files/certs-extra-copy.p7m files/valid.p7m \
    "$(openssl x509 -in pki/rsa2048.pem -outform DER | od -An -v -tx1 | tr -d ' \n')"

# A SignedData ContentInfo whose [0] content field is missing.
"${CRAFT[@]}" content-info files/signed-data-without-content.der 1.2.840.113549.1.7.2

# CMS content types under 1.2.840.113549.1.9.16.1, in DER and in PEM (the two must agree).
# id-ct-compressedData: version 0, zlib, EncapsulatedContentInfo { data }.
"${CRAFT[@]}" content-info files/cms-compressed.der 1.2.840.113549.1.9.16.1.9 \
    301f020100300d060b2a864886f70d0109100308300b06092a864886f70d010701
# id-ct-authEnvelopedData: a placeholder SEQUENCE (only the content type matters to detection).
"${CRAFT[@]}" content-info files/cms-auth-enveloped.der 1.2.840.113549.1.9.16.1.23 3003020100
for name in cms-compressed cms-auth-enveloped; do
    { echo '-----BEGIN CMS-----'; base64 -w 64 "files/$name.der"; echo '-----END CMS-----'; } > "files/$name.pem"
done

# ---- self-checks: what openssl itself says about some of them ---------------------------
openssl smime -verify -inform DER -in files/valid.p7m -CAfile pki/root.pem -purpose sslserver \
    -out /dev/null 2>/dev/null
openssl smime -verify -in files/multipart.smime -CAfile pki/root.pem -purpose sslserver \
    -out /dev/null 2>/dev/null
openssl cms -verify -inform DER -in files/attrs-good.p7m -CAfile pki/root.pem -purpose sslserver \
    -out /dev/null 2>/dev/null
if openssl cms -verify -inform DER -in files/attrs-no-content-type.p7m -CAfile pki/root.pem \
    -purpose sslserver -out /dev/null 2>/dev/null; then
    echo "openssl cms -verify accepted attrs-no-content-type.p7m" >&2
    exit 1
fi
test "$(openssl pkey -in pki/rsa1023.key -noout -text | head -1)" = "Private-Key: (1023 bit, 2 primes)"
test "$(openssl pkey -in pki/rsa2047.key -noout -text | head -1)" = "Private-Key: (2047 bit, 2 primes)"
rm -f pki/*.srl
echo "policy fixtures written to $HERE/files and $HERE/pki"
