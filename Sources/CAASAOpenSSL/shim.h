// The OpenSSL 3 headers that CAASACrypto uses. Nothing but CAASACrypto imports this module.
#ifndef CAASA_OPENSSL_SHIM_H
#define CAASA_OPENSSL_SHIM_H
#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#endif
