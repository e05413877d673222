#!/usr/bin/env bash
# Re-signs the bundled example with the test PKI, exactly as the legacy recipe did:
#   openssl smime -sign -inkey KEY -signer CERT -certfile CHAIN -noattr -nodetach -outform DER
# Run it after certs/make-test-certs.sh (which makes new keys).
set -euo pipefail
cd "$(dirname "$0")/.."
openssl smime -sign -inkey certs/leaf-rsa.key -signer certs/leaf-rsa.pem -certfile certs/chain.pem \
    -noattr -nodetach -outform DER \
    -in examples/apple-app-site-association.json -out examples/apple-app-site-association.p7m
