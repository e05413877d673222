// CAASACrypto: the narrow C API that the AASA Swift library uses to reach OpenSSL 3.
//
// Why this exists: Swift cannot import OpenSSL's function-like macros (sk_X509_num,
// PKCS7_type_is_signed, BIO_get_mem_data, OPENSSL_free, ...) and every OpenSSL object needs
// a matching free. Keeping all of that in one small C target means the Swift side sees only
// opaque handles, plain structs and status codes, and every free lives in one place where
// AddressSanitizer and valgrind can watch it. This header includes no OpenSSL header.
//
// Conventions:
// - Every function is prefixed `caasa_`. Handles are opaque; each has exactly one `_free`.
// - Functions that can fail return a `caasa_status`. They clear this thread's OpenSSL error
//   queue on entry and leave OpenSSL's own explanation on it on failure: drain it with
//   `caasa_error_pop` on the same thread before the next call.
// - Buffers returned through `caasa_buffer` are owned by the caller: free with
//   `caasa_buffer_free`. Input buffers may be (NULL, 0).
// - Out-parameters are written only on success, except where documented.

#ifndef CAASA_CRYPTO_H
#define CAASA_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#if defined(__clang__)
#define CAASA_CLOSED_ENUM __attribute__((enum_extensibility(closed)))
#pragma clang assume_nonnull begin
#else
#define CAASA_CLOSED_ENUM
#define _Nullable
#define _Nonnull
#endif

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Status codes

/// The result of every fallible call. Swift words the message; OpenSSL's own lines are on
/// the error queue (see `caasa_error_pop`).
typedef enum CAASA_CLOSED_ENUM caasa_status {
    CAASA_OK = 0,
    CAASA_ERR_MEMORY,                  ///< allocation failed
    CAASA_ERR_INVALID_ARGUMENT,        ///< a NULL handle, an index out of range, a bad option
    CAASA_ERR_KEY_DECODE,              ///< the bytes are not a private key OpenSSL can read
    CAASA_ERR_KEY_NEEDS_PASSPHRASE,    ///< the key is encrypted and no passphrase was given
    CAASA_ERR_KEY_BAD_PASSPHRASE,      ///< the key is encrypted and the passphrase is wrong
    CAASA_ERR_CERT_DECODE,             ///< the bytes are not (only) X.509 certificates
    CAASA_ERR_NO_CERTIFICATES,         ///< PEM text with no CERTIFICATE block
    CAASA_ERR_PKCS12_DECODE,           ///< the bytes are not a PKCS#12 bundle
    CAASA_ERR_PKCS12_BAD_PASSPHRASE,   ///< the PKCS#12 MAC does not verify with that passphrase
    CAASA_ERR_PKCS12_INCOMPLETE,       ///< the PKCS#12 bundle lacks a key or a certificate
    CAASA_ERR_KEY_CERT_MISMATCH,       ///< the private key is not the certificate's key
    CAASA_ERR_UNKNOWN_DIGEST,          ///< the digest name is unknown to OpenSSL
    CAASA_ERR_SIGN,                    ///< OpenSSL failed to build the signature
    CAASA_ERR_ENCODE,                  ///< OpenSSL failed to serialise the result
    CAASA_ERR_PKCS7_DECODE,            ///< the bytes are not a PKCS#7 structure in that format
    CAASA_ERR_TRAILING_DATA,           ///< DER/BER followed by bytes that are not part of it
    CAASA_ERR_NOT_SIGNED_DATA,         ///< PKCS#7, but not SignedData
    CAASA_ERR_NO_CONTENT,              ///< SignedData without embedded content (detached)
    CAASA_ERR_NO_SIGNERS,              ///< SignedData with no SignerInfo
    CAASA_ERR_SIGNER_NOT_FOUND,        ///< no certificate matches a SignerInfo's issuer+serial
    CAASA_ERR_CONTENT_DIGEST_MISMATCH, ///< the content does not match the signed digest
    CAASA_ERR_BAD_SIGNATURE,           ///< the signature does not verify with the signer's key
    CAASA_ERR_VERIFY,                  ///< any other verification failure
    CAASA_ERR_TRUST_LOAD,              ///< trust anchors could not be loaded
    CAASA_ERR_UNSUPPORTED_ALGORITHM,   ///< a SignerInfo names an algorithm OpenSSL cannot verify
    CAASA_ERR_SIGNED_ATTRIBUTES,       ///< signed attributes that break RFC 5652 (§5.3, §11)
    CAASA_ERR_UNSUPPORTED_CMS,         ///< valid CMS that PKCS#7 v1.5 cannot represent (keyid signers, …)
    CAASA_ERR_MISSING_CONTENT_FIELD,   ///< a SignedData ContentInfo without its [0] content
    CAASA_ERR_WEAK_ALGORITHM,          ///< refused by the verification policy (see caasa_policy_report)
    CAASA_ERR_TOO_MANY_CERTIFICATES,   ///< more certificates (or CRLs) than the caller's limit, counted before decoding
} caasa_status;

// MARK: - Errors

/// One entry of OpenSSL's per-thread error queue.
typedef struct caasa_error_entry {
    unsigned long code;  ///< OpenSSL's packed error code
    int library;         ///< ERR_GET_LIB(code)
    int reason;          ///< ERR_GET_REASON(code)
    char text[512];      ///< "library: reason (extra data)", NUL-terminated
    char detail[384];    ///< the extra data alone ("" when none): this module's own explanations
    int from_caasa;      ///< 1 when this module raised the entry (its `detail` is a full sentence)
} caasa_error_entry;

/// Pops the oldest entry of this thread's OpenSSL error queue into `out`.
/// Returns 1 when an entry was popped, 0 when the queue is empty.
int caasa_error_pop(caasa_error_entry *out);

/// Empties this thread's OpenSSL error queue.
void caasa_error_clear(void);

// MARK: - Buffers

/// Bytes allocated by this module and owned by the caller.
typedef struct caasa_buffer {
    uint8_t *_Nullable data;
    size_t length;
} caasa_buffer;

/// Frees (and zeroes) a buffer's bytes and resets it to (NULL, 0). Safe on an empty buffer.
void caasa_buffer_free(caasa_buffer *buffer);

/// Overwrites `length` bytes at `data` with zeroes in a way the compiler cannot elide.
void caasa_cleanse(void *_Nullable data, size_t length);

// MARK: - Private keys

/// An OpenSSL private key (EVP_PKEY).
typedef struct caasa_key caasa_key;

/// Reads a private key: PEM (PKCS#1, PKCS#8, encrypted PKCS#8, SEC1) or DER (PKCS#8,
/// encrypted PKCS#8, PKCS#1). `passphrase` may be NULL; it is used only if the key is
/// encrypted, and is not kept. Returns `CAASA_ERR_KEY_NEEDS_PASSPHRASE` when the key is
/// encrypted and `passphrase` is NULL.
caasa_status caasa_key_load(const void *_Nullable data, size_t length,
                            const void *_Nullable passphrase, size_t passphrase_length,
                            caasa_key *_Nullable *_Nonnull out);

/// Frees a key. NULL is ignored.
void caasa_key_free(caasa_key *_Nullable key);

/// The key's algorithm name ("RSA", "EC", "ED25519", ...), owned by OpenSSL.
const char *caasa_key_type(const caasa_key *key);

/// The key's size in bits (RSA modulus, EC field size).
int caasa_key_bits(const caasa_key *key);

// MARK: - Certificates

/// An ordered list of X.509 certificates (STACK_OF(X509)).
typedef struct caasa_certs caasa_certs;

/// Reads certificates: every CERTIFICATE block of PEM text (other blocks are skipped), or
/// one or more concatenated DER certificates. Fails on any undecodable certificate.
caasa_status caasa_certs_load(const void *_Nullable data, size_t length,
                              caasa_certs *_Nullable *_Nonnull out);

/// A new, empty list (NULL when out of memory).
caasa_certs *_Nullable caasa_certs_new(void);

/// Appends `source[index]` to `list`, sharing the certificate (reference counted).
caasa_status caasa_certs_append(caasa_certs *list, const caasa_certs *source, size_t index);

/// The number of certificates in the list.
size_t caasa_certs_count(const caasa_certs *list);

/// Frees the list and releases its certificates. NULL is ignored.
void caasa_certs_free(caasa_certs *_Nullable list);

/// The identity of `list[index]`: the same value for two lists sharing one certificate object
/// (never dereference it). NULL when out of range.
const void *_Nullable caasa_certs_identity(const caasa_certs *list, size_t index);

/// The DER encoding of `list[index]`.
caasa_status caasa_certs_der(const caasa_certs *list, size_t index, caasa_buffer *out);

/// The `position`-th caIssuers URI of `list[index]`'s authorityInfoAccess extension (RFC 5280
/// §4.2.2.1), its bytes exactly as the certificate holds them (attacker-controlled: check and
/// escape them before any use). `*count_out` is always set to the number of caIssuers URIs (0
/// when the extension is absent or unreadable); the buffer is filled only when `position` is
/// below it, else `CAASA_ERR_INVALID_ARGUMENT`.
caasa_status caasa_certs_ca_issuer(const caasa_certs *list, size_t index, size_t position,
                                   size_t *count_out, caasa_buffer *out);

/// 1 when `list[index]` is valid for `host` as TLS checks it (subjectAltName dNSName only,
/// wildcards in the left-most label only), 0 when not, -1 on error.
int caasa_certs_check_host(const caasa_certs *list, size_t index, const char *host);

/// 1 when `key` is the private key of `list[index]`, 0 when not.
int caasa_certs_match_key(const caasa_certs *list, size_t index, const caasa_key *key);

/// What a certificate says, as plain C strings (owned by the struct).
typedef struct caasa_cert_info {
    char *subject;              ///< "C=US, O=Example, CN=example.com"
    char *issuer;               ///< same format
    char *serial;               ///< upper-case hex, no separators
    int64_t not_before;         ///< Unix seconds
    int64_t not_after;          ///< Unix seconds
    char *_Nullable dns_names;  ///< subjectAltName entries "DNS:x", "IP:x", "email:x", "URI:x", '\n'-separated
    char *_Nullable key_usage_ext; ///< extendedKeyUsage short names ("serverAuth"), '\n'-separated; NULL if absent
    char *key_type;             ///< "RSA", "EC", ...
    int key_bits;
    char *_Nullable curve;      ///< EC curve name ("prime256v1"), NULL otherwise
    char *signature_algorithm;  ///< "sha256WithRSAEncryption"
    int is_ca;                  ///< basicConstraints CA:TRUE
    int self_signed;            ///< issuer == subject and the signature verifies with its own key
    uint8_t sha256[32];         ///< SHA-256 fingerprint of the DER
    uint8_t sha1[20];           ///< SHA-1 fingerprint of the DER
} caasa_cert_info;

/// Describes `list[index]`. Free the result with `caasa_cert_info_free`.
caasa_status caasa_certs_info(const caasa_certs *list, size_t index,
                              caasa_cert_info *_Nullable *_Nonnull out);

/// Frees a `caasa_cert_info`. NULL is ignored.
void caasa_cert_info_free(caasa_cert_info *_Nullable info);

// MARK: - PKCS#12

/// Opens a PKCS#12 bundle: its private key, its certificate, and any further certificates.
/// `passphrase` may be NULL for an unprotected bundle. `chain_out` receives an empty list
/// when the bundle has no further certificates.
caasa_status caasa_pkcs12_load(const void *_Nullable data, size_t length,
                               const void *_Nullable passphrase, size_t passphrase_length,
                               caasa_key *_Nullable *_Nonnull key_out,
                               caasa_certs *_Nullable *_Nonnull certificate_out,
                               caasa_certs *_Nullable *_Nonnull chain_out);

// MARK: - Signing

/// The serialisation of a signed message.
typedef enum CAASA_CLOSED_ENUM caasa_encoding {
    CAASA_ENCODING_DER = 0,   ///< binary DER (the AASA recipe's `-outform DER`)
    CAASA_ENCODING_PEM,       ///< "-----BEGIN PKCS7-----" armour
    CAASA_ENCODING_SMIME,     ///< S/MIME: application/x-pkcs7-mime, base64 body
} caasa_encoding;

/// How to sign. Mirrors `openssl smime -sign -nodetach` flags.
typedef struct caasa_sign_options {
    const char *digest;         ///< "sha256", "sha384", "sha512", "sha1"
    int binary;                 ///< 1: `-binary` (bytes as given); 0: MIME canonical CRLF text
    int signed_attributes;      ///< 0: `-noattr` (the AASA recipe); 1: signingTime, contentType, smimeCapabilities
    caasa_encoding encoding;
} caasa_sign_options;

/// Signs `content` exactly as
/// `openssl smime -sign -signer CERT -inkey KEY -certfile CHAIN -nodetach [-noattr] [-binary] -md DIGEST`
/// does: SignedData with the content embedded, the `chain` certificates first and the signer
/// certificate `signer[signer_index]` last. `chain` may be NULL.
caasa_status caasa_sign(const caasa_key *key, const caasa_certs *signer, size_t signer_index,
                        const caasa_certs *_Nullable chain,
                        const void *_Nullable content, size_t content_length,
                        const caasa_sign_options *options, caasa_buffer *out);

// MARK: - Verification policy
//
// What verification refuses beyond "the signature matches": the policy of docs/security.md
// (#verification-policy), enforced here so that every caller gets the same answers.
//
// - Digests MD2, MD4 and MD5 are refused wherever they appear: the SignerInfo's digest
//   algorithm, a digest named by its signature algorithm (md5WithRSAEncryption), and the
//   signature of every certificate of the chain (except the self-signature of a self-signed
//   trust anchor, which nothing relies on). SHA-1 there is accepted with a warning.
// - RSA (and RSA-PSS) and DSA keys of fewer than 1,024 bits are refused anywhere in the
//   chain, and below 2,048 bits are accepted with a warning; EC keys on curves of fewer
//   than 160 bits are refused.
// - `allow_weak` (the CLI's --allow-weak-crypto) turns every refusal of the two rules above
//   into a warning: for forensic work only.
// - The signer certificate's keyUsage, when present, must include digitalSignature
//   (`caasa_chain_params.require_digital_signature`), whatever the purpose; `allow_weak` does
//   not change this.

/// A parsed PKCS#7 message (PKCS7). Immutable once parsed (see "Parsing signed messages").
typedef struct caasa_pkcs7 caasa_pkcs7;

/// What one finding of the policy is about.
typedef enum CAASA_CLOSED_ENUM caasa_policy_subject {
    CAASA_POLICY_DIGEST = 0,          ///< the SignerInfo's digest algorithm
    CAASA_POLICY_SIGNATURE_DIGEST,    ///< the digest named by the SignerInfo's signature algorithm
    CAASA_POLICY_CERT_SIGNATURE,      ///< the digest of a certificate's signature
    CAASA_POLICY_KEY_SIZE,            ///< a certificate's key size
} caasa_policy_subject;

/// One refusal or warning of the policy.
typedef struct caasa_policy_finding {
    caasa_policy_subject subject;
    int refused;          ///< 1: refused; 0: a warning (SHA-1, RSA/DSA below 2048 bits, or allowed weak)
    int weak;             ///< 1: the policy refuses it by default (so `refused` is 0 only with allow_weak)
    int depth;            ///< chain depth of the certificate (0: the signer); the SignerInfo index otherwise
    int bits;             ///< CAASA_POLICY_KEY_SIZE: the key size in bits
    char algorithm[64];   ///< "MD5", "SHA1" (digests) or "RSA", "DSA", "EC" (keys)
} caasa_policy_finding;

enum { CAASA_POLICY_MAX_FINDINGS = 16 };

/// The findings of the policy, in the order they were found (further ones are dropped).
typedef struct caasa_policy_report {
    int count;
    caasa_policy_finding findings[CAASA_POLICY_MAX_FINDINGS];
} caasa_policy_report;

/// Applies the digest rules to `message`'s SignerInfo `index`, adding findings to `report`.
/// Returns 1 when a finding is refused, else 0.
int caasa_policy_check_signer_info(const caasa_pkcs7 *message, size_t index, int allow_weak,
                                   caasa_policy_report *report);

/// Applies the key-size and certificate-signature rules to a chain as built (leaf first,
/// anchor last), adding findings to `report`. Returns 1 when a finding is refused, else 0.
int caasa_policy_check_chain(const caasa_certs *chain, int allow_weak, caasa_policy_report *report);

/// Applies the key-size and certificate-signature rules to `certs[index]` read on its own, with
/// no chain and no trust store (what `aasa inspect` shows): the same findings as in a chain,
/// `depth` set to `index`, and the self-signature of a self-signed certificate not checked (as
/// for an anchor). Returns 1 when a finding is refused, else 0.
int caasa_policy_check_certificate(const caasa_certs *certs, size_t index, int allow_weak,
                                   caasa_policy_report *report);

// MARK: - Parsing signed messages


/// Parses a PKCS#7 message in the given encoding. DER input may be BER (indefinite
/// lengths); PEM accepts the labels PKCS7, "PKCS #7 SIGNED DATA" and CMS; S/MIME accepts
/// application/(x-)pkcs7-mime and multipart/signed. Any PKCS#7 content type parses; check
/// `caasa_pkcs7_summary.is_signed_data`.
caasa_status caasa_pkcs7_parse(const void *_Nullable data, size_t length, caasa_encoding encoding,
                               caasa_pkcs7 *_Nullable *_Nonnull out);

/// Parsed certificates kept between parses, keyed by their DER bytes: a batch of messages
/// carrying the same certificates parses each of them once per thread (OpenSSL 3.0 spends most
/// of a message's parse decoding certificate public keys). Thread-safe: each thread keeps its
/// own parsed certificates, so threads share no lock and no certificate object. Holds at most
/// `capacity` certificates per thread (and 256 per thread over all caches), each new one
/// replacing the one in its slot.
typedef struct caasa_cert_cache caasa_cert_cache;

/// A new, empty cache (NULL when out of memory).
caasa_cert_cache *_Nullable caasa_cert_cache_new(size_t capacity);

/// Frees the cache and releases the calling thread's certificates of it (messages parsed with it
/// keep theirs; other threads' go when they stop, `caasa_thread_stop`). NULL is ignored.
void caasa_cert_cache_free(caasa_cert_cache *_Nullable cache);

/// `caasa_pkcs7_parse`, taking the certificates of DER (and PEM) SignedData from `cache` (or
/// parsing and adding them). The result, and every error, is the same as without a cache.
/// A message whose certificates field (or crls field) holds more than `max_certificates`
/// elements is refused with `CAASA_ERR_TOO_MANY_CERTIFICATES`, explained, before any of them
/// is decoded, in every encoding.
caasa_status caasa_pkcs7_parse_cached(const void *_Nullable data, size_t length, caasa_encoding encoding,
                                      caasa_cert_cache *_Nullable cache, size_t max_certificates,
                                      caasa_pkcs7 *_Nullable *_Nonnull out);

/// Frees a parsed message. NULL is ignored.
void caasa_pkcs7_free(caasa_pkcs7 *_Nullable message);

/// The outline of a parsed message.
typedef struct caasa_pkcs7_summary {
    char type[64];          ///< outer content type, short name ("pkcs7-signedData")
    int is_signed_data;     ///< 1 for SignedData
    char content_type[64];  ///< SignedData only: encapsulated content type ("pkcs7-data")
    char content_type_oid[64]; ///< SignedData only: the same as a dotted OID ("1.2.840.113549.1.7.1")
    int has_content;        ///< SignedData only: 1 when the content is embedded (not detached)
    int content_is_octets;  ///< SignedData only: 1 when the embedded content is an OCTET STRING (data)
    int signer_count;       ///< SignedData only
    int certificate_count;  ///< SignedData only
} caasa_pkcs7_summary;

caasa_status caasa_pkcs7_summarize(const caasa_pkcs7 *message, caasa_pkcs7_summary *out);

/// One SignerInfo of a SignedData.
typedef struct caasa_signer_summary {
    char digest[64];            ///< digest algorithm short name ("SHA256")
    char signature[64];         ///< signature algorithm short name ("rsaEncryption")
    int has_signed_attributes;  ///< 1 when authenticatedAttributes are present
    char issuer[512];           ///< issuer of the signer certificate, as in caasa_cert_info
    char serial[128];           ///< serial of the signer certificate, upper-case hex
} caasa_signer_summary;

caasa_status caasa_pkcs7_signer(const caasa_pkcs7 *message, size_t index, caasa_signer_summary *out);

/// A new list holding the certificates carried in the message (possibly empty).
caasa_status caasa_pkcs7_certificates(const caasa_pkcs7 *message, caasa_certs *_Nullable *_Nonnull out);

/// The embedded content bytes exactly as stored, without any verification.
caasa_status caasa_pkcs7_content(const caasa_pkcs7 *message, caasa_buffer *out);

/// Checks every SignerInfo's signature over the embedded content (no chain checks). The
/// signer certificates are looked up by issuer and serial among the message's certificates
/// and `extra`. On success, `content_out` receives the content bytes exactly as embedded and
/// `signers_out` the signer certificates in SignerInfo order.
///
/// Before any signature is checked, each SignerInfo must pass, in this order (the first
/// failure is returned, with its explanation on the error queue):
/// 1. `CAASA_ERR_UNSUPPORTED_ALGORITHM`: its digest algorithm is one OpenSSL's providers can
///    compute; its signature algorithm is RSA, DSA or ECDSA (alone or with a digest); an
///    Ed25519/Ed448 signature (which the PKCS#7 API cannot check) is refused here.
/// 2. `CAASA_ERR_SIGNED_ATTRIBUTES`: RFC 5652 §5.3/§11 (and RFC 2634/5035 for the ESS
///    attributes), as `openssl cms -verify` applies them: contentType, messageDigest,
///    signingTime, signingCertificate(V2) and receiptRequest only among the signed attributes,
///    countersignature only among the unsigned ones; each of the first six at most once in its
///    set and with exactly one value; with signed attributes, exactly one contentType (equal to
///    the eContentType) and one messageDigest (an OCTET STRING); a signingTime a well-formed
///    UTCTime or GeneralizedTime, UTCTime for the years 1950 to 2049.
/// 3. `CAASA_ERR_WEAK_ALGORITHM`: the verification policy on its algorithms
///    (`caasa_policy_check_signer_info`), reported in `report` (which also gets warnings).
/// After the signatures verify, a signer whose key OpenSSL cannot use (DSA without
/// parameters) is `CAASA_ERR_UNSUPPORTED_ALGORITHM` rather than a bad signature.
caasa_status caasa_pkcs7_verify_signature(const caasa_pkcs7 *message, const caasa_certs *_Nullable extra,
                                          int allow_weak, caasa_policy_report *report,
                                          caasa_buffer *content_out,
                                          caasa_certs *_Nullable *_Nonnull signers_out);

/// For tests: turns the quick signature check (quickverify.c) off or on for the calling thread,
/// so that a test can compare its verdicts with PKCS7_verify's alone. On by default.
void caasa_quick_verify_set_enabled(int enabled);

/// For tests: how many signatures the quick check has verified on the calling thread.
unsigned long caasa_quick_verify_count(void);

// MARK: - Version

/// Frees the calling thread's OpenSSL state (error queue, per-thread DRBGs) now, as
/// OPENSSL_thread_stop(3) does. OpenSSL also does this when the thread exits; a worker calls
/// it before telling its owner it is done, so the state is gone before the process can end.
void caasa_thread_stop(void);

/// SHA-256 of `length` bytes at `data` into `out` (EVP_Digest). Returns 1, or 0 if OpenSSL
/// failed (its error queue is cleared).
int caasa_sha256(const uint8_t *_Nullable data, size_t length, uint8_t out[_Nonnull 32]);

/// The version of the OpenSSL library loaded at run time, e.g. "OpenSSL 3.0.17 1 Jul 2025".
const char *caasa_openssl_version_runtime(void);

/// The version of the OpenSSL headers this module was compiled against.
const char *caasa_openssl_version_built(void);

#ifdef __cplusplus
}
#endif

#if defined(__clang__)
#pragma clang assume_nonnull end
#endif

// MARK: - Trust and certificate chains

#include "caasa_trust.h"

// MARK: - The historical root store

#include "caasa_history.h"

#endif // CAASA_CRYPTO_H
