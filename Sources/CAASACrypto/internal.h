// Helpers shared by the CAASACrypto implementation files. Not part of the public API.
#ifndef CAASA_INTERNAL_H
#define CAASA_INTERNAL_H

#define _GNU_SOURCE 1  // memmem

#include "CAASACrypto.h"

#include <string.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>

#include <pthread.h>
#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// The opaque public handles are the OpenSSL objects themselves.
static inline EVP_PKEY *caasa_pkey(const caasa_key *key) { return (EVP_PKEY *)key; }
static inline STACK_OF(X509) *caasa_stack(const caasa_certs *certs) { return (STACK_OF(X509) *)certs; }
static inline PKCS7 *caasa_p7(const caasa_pkcs7 *message) { return (PKCS7 *)message; }
static inline X509_STORE *caasa_store(const caasa_trust *trust) { return (X509_STORE *)trust; }

/// Frees a certificate stack and releases its certificates (OSSL_STACK_OF_X509_free is 3.2+).
static inline void caasa_stack_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }

/// A read-only memory BIO over (data, length); (NULL, 0) gives an empty BIO.
BIO *caasa_bio_from(const void *data, size_t length) __attribute__((visibility("hidden")));

/// Moves a memory BIO's bytes into a caller-owned buffer.
caasa_status caasa_buffer_from_bio(BIO *bio, caasa_buffer *out) __attribute__((visibility("hidden")));

/// Copies an OpenSSL-owned byte string into a caller-owned buffer.
caasa_status caasa_buffer_from_bytes(const unsigned char *bytes, size_t length, caasa_buffer *out)
    __attribute__((visibility("hidden")));

/// The embedded content of a SignedData as an OCTET STRING (id-data, or another content type
/// holding one, as PKCS7_dataInit reads it), or NULL (not SignedData, detached, or not octets).
ASN1_OCTET_STRING *caasa_embedded_content(PKCS7 *p7) __attribute__((visibility("hidden")));

/// 1 when `p7` has the shape quickverify.c handles and its signature verifies, with the
/// signer (from `candidates`) and the embedded content; 0 otherwise, the error queue as it was:
/// the caller then asks PKCS7_verify, which gives every other verdict.
int caasa_quick_signature_check(PKCS7 *p7, STACK_OF(X509) *candidates, X509 **signer, ASN1_OCTET_STRING **content)
    __attribute__((visibility("hidden")));

/// Says that the calling thread now holds state of this module (quickverify.c, caasa_name_string,
/// certcache.c), so that it is freed when the thread exits (thread.c).
void caasa_thread_state_made(void) __attribute__((visibility("hidden")));

/// Frees the certificates certcache.c keeps for the calling thread (caasa_thread_stop calls it).
void caasa_thread_certs_release(void) __attribute__((visibility("hidden")));

/// Frees what quickverify.c keeps for the calling thread (caasa_thread_stop calls it).
void caasa_quick_verify_release(void) __attribute__((visibility("hidden")));

/// "C=US, O=Example, CN=example.com" (UTF-8, RFC 2253 escaping, forward order), malloc'd.
char *caasa_name_string(const X509_NAME *name) __attribute__((visibility("hidden")));

/// Frees what caasa_name_string keeps for the calling thread (caasa_thread_stop calls it).
void caasa_name_string_release(void) __attribute__((visibility("hidden")));

/// Upper-case hex of an ASN1_INTEGER, malloc'd.
char *caasa_serial_string(const ASN1_INTEGER *serial) __attribute__((visibility("hidden")));

/// True when the data holds a PEM "-----BEGIN " line anywhere (PEM may follow other text).
int caasa_looks_like_pem(const void *data, size_t length) __attribute__((visibility("hidden")));

/// "MD4 (1.2.840.113549.2.4)", or the dotted OID alone when OpenSSL has no name for it.
const char *caasa_describe_object(const ASN1_OBJECT *object, char *buffer, size_t size)
    __attribute__((visibility("hidden")));

/// RFC 5652 §5.3 and §11 (with the ESS attributes of RFC 2634 and RFC 5035) on SignerInfo
/// `index`'s signed and unsigned attributes (attributes.c): where each known attribute may
/// stand, how often, with how many values, and the values this module reads. CAASA_OK, or
/// CAASA_ERR_SIGNED_ATTRIBUTES with the rule named on the error queue.
caasa_status caasa_check_signer_attributes(PKCS7_SIGNER_INFO *info, const ASN1_OBJECT *content_type, int index)
    __attribute__((visibility("hidden")));

/// Counts the elements of the certificates and crls fields of a BER SignedData (or
/// SignedAndEnvelopedData) without decoding them (certcount.c). Returns 1 with the counts set
/// (0 for an absent field), or 0 when the bytes are not laid out as such a message (then
/// nothing is known: d2i decides).
int caasa_pkcs7_count_certificates(const unsigned char *der, size_t length, long *certificates, long *crls)
    __attribute__((visibility("hidden")));

/// d2i_PKCS7 of a DER SignedData whose certificates come from `cache` (certcache.c); NULL when
/// the layout is not the expected one or anything fails (then parse the bytes as they are).
/// `*message_end` is set to the end of the message in `data`.
PKCS7 *caasa_d2i_pkcs7_cached(caasa_cert_cache *cache, const unsigned char *data, size_t length,
                              const unsigned char **message_end) __attribute__((visibility("hidden")));

/// Copies a C string into a fixed buffer, always NUL-terminating.
static inline void caasa_copy_string(char *dst, size_t size, const char *src) {
    if (size == 0) return;
    if (src == NULL) src = "";
    size_t n = strlen(src);
    if (n >= size) n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

// MARK: - A bundle indexed by subject (bundleindex.c)

/// One certificate of a PEM bundle: where its block is, and its subject, read from as few
/// base64 lines as hold it.
typedef struct caasa_bundle_entry {
    unsigned char *subject;         // the subject's DER
    long subject_length;
    uint64_t signature;             // caasa_name_signature of the subject, when signature_known
    int signature_known;
    size_t block_start, block_end;  // the PEM block, BEGIN to END line, in the bundle's text
    int trusted_form;               // "TRUSTED CERTIFICATE": DER followed by OpenSSL's trust settings
    int added;                      // already added to the store
} caasa_bundle_entry;

/// A bundle file's text and its certificates.
typedef struct caasa_bundle_index {
    char *text;
    size_t length;
    caasa_bundle_entry *entries;
    size_t count;
} caasa_bundle_index;

/// Reads and indexes `path`. A missing or unreadable file indexes nothing (OpenSSL's default
/// file lookup ignores a missing file); a block that does not read as a certificate is skipped.
/// Returns 0 when the file could not be opened for want of a file descriptor (EMFILE, ENFILE):
/// nothing is indexed, and a later call may succeed; 1 otherwise.
int caasa_bundle_index_read(caasa_bundle_index *index, const char *path) __attribute__((visibility("hidden")));
void caasa_bundle_index_free(caasa_bundle_index *index) __attribute__((visibility("hidden")));

/// The entry's certificate, decoded whole by OpenSSL (PEM_read_bio and d2i_X509 over its block).
X509 *caasa_bundle_certificate(const caasa_bundle_index *index, const caasa_bundle_entry *entry)
    __attribute__((visibility("hidden")));

/// Whether the entry's subject is `name` by X509_NAME_cmp; entries whose fingerprint differs
/// from `signature` (when both are known) are not decoded.
int caasa_bundle_entry_matches(const caasa_bundle_entry *entry, const X509_NAME *name, int signature_known,
                               uint64_t signature) __attribute__((visibility("hidden")));

/// Whether the DER name `subject` is `name` by X509_NAME_cmp; a subject whose fingerprint
/// differs from `signature` (when both are known) is not decoded.
int caasa_subject_matches(const unsigned char *subject, long subject_length, int subject_signature_known,
                          uint64_t subject_signature, const X509_NAME *name, int signature_known, uint64_t signature)
    __attribute__((visibility("hidden")));

/// Certificates that a store's lookup decodes when a chain asks for their subject (lazylookup.c):
/// the first member of each source's own struct (systemroots.c: the system bundle;
/// lazyanchors.c: the roots of a historical store).
typedef struct caasa_lazy_source caasa_lazy_source;
struct caasa_lazy_source {
    /// Lookups from several threads share a store: `add_named` runs with it held.
    pthread_mutex_t mutex;
    /// Adds the source's certificates whose subject is `name` to `store`, each once; 1 when
    /// any is so named. `signature` is caasa_name_signature of `name`, when `signature_known`.
    int (*add_named)(caasa_lazy_source *source, X509_STORE *store, const X509_NAME *name, int signature_known,
                     uint64_t signature);
    /// Frees the source's own struct and what it holds (not the mutex).
    void (*free_source)(caasa_lazy_source *source);
};

/// Adds a lookup over `source` to `store`, which owns the source from then on (its mutex is
/// initialised here; `add_named` and `free_source` must be set). On failure the source is freed.
caasa_status caasa_store_add_lazy_source(X509_STORE *store, caasa_lazy_source *source)
    __attribute__((visibility("hidden")));

/// A fingerprint of a DER name that names equal under X509_NAME_cmp share; 0 when the name is
/// not one this reads (then it must be compared).
int caasa_name_signature(const unsigned char *der, long length, uint64_t *signature)
    __attribute__((visibility("hidden")));

/// Where the subject lies in a DER certificate, or in a `prefix` of one; 0 when it cannot be read.
int caasa_certificate_subject_span(const unsigned char *der, long length, int prefix, const unsigned char **subject,
                                   long *subject_length) __attribute__((visibility("hidden")));

/// Puts this module's explanation of a refusal on the error queue (read as `detail` by
/// caasa_error_pop): one sentence for the user.
#define caasa_explain(...) ERR_raise_data(ERR_LIB_USER, ERR_R_PASSED_INVALID_ARGUMENT, __VA_ARGS__)

#endif
