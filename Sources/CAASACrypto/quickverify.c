// A PKCS#7 signature checked with objects each thread prepares once, for the shape a batch meets
// in every file: one SignerInfo, no signed attributes, embedded content, an RSA or EC signer key
// and a SHA-1 or SHA-2 digest (what `openssl smime -sign -noattr` writes).
//
// Why this is written here rather than left to PKCS7_verify: OpenSSL 3.0's PKCS7_verify fetches
// every algorithm again on every call (the digest twice, the signature, the key manager, the
// name map) and creates four BIOs and an X509_STORE_CTX whose ex_data take the library's one
// global write lock. Counted with uprobes on CRYPTO_THREAD_read_lock and _write_lock, that is
// 49 read and 9 write acquisitions of OpenSSL's shared state per verified file
// (docs/performance.md, "Many cores"): on many cores, cache lines that every worker writes for
// every file. OpenSSL has no call that takes algorithms fetched in advance, so this file does
// what PKCS7_signatureVerify and EVP_VerifyFinal_ex do for that shape (the content's digest,
// then EVP_PKEY_verify with the signer's key and that digest) with a digest fetched once per
// thread and a verification context made once per thread and key, on the thread's own copy of
// the key (RSA keeps a lock in each key object, which every thread would otherwise share).
//
// It only ever says "verified". Every other outcome, and every message of another shape, goes
// to PKCS7_verify, which gives the verdict and its errors exactly as before. EVP_PKEY_verify
// returning 1 here is the same call OpenSSL would make (the same digest algorithm fetched by the
// same name, the same digest, the same key, the same signature bytes); QuickSignatureCheckTests
// compares the two paths on every fixture and on corrupted copies.
#include "internal.h"

enum { CAASA_QUICK_KEYS = 8, CAASA_QUICK_DIGESTS = 5 };

/// One key this thread has verified with: a reference to the certificate's key (so that its
/// address cannot be reused while it is remembered), and a context on the thread's own copy.
typedef struct caasa_quick_key {
    EVP_PKEY *key;
    int digest_nid;
    EVP_PKEY_CTX *context;
} caasa_quick_key;

typedef struct caasa_quick_state {
    caasa_quick_key keys[CAASA_QUICK_KEYS];
    int next_key;  // the slot a new key takes (round robin)
    EVP_MD *digests[CAASA_QUICK_DIGESTS];
    EVP_MD_CTX *digest_context;
} caasa_quick_state;

static _Thread_local caasa_quick_state *caasa_quick;
static _Thread_local int caasa_quick_disabled;
static _Thread_local unsigned long caasa_quick_verified;

/// The digests this path handles, by NID, in the order of `digests`; -1 for any other.
static int caasa_quick_digest_index(int nid) {
    switch (nid) {
        case NID_sha1: return 0;
        case NID_sha224: return 1;
        case NID_sha256: return 2;
        case NID_sha384: return 3;
        case NID_sha512: return 4;
        default: return -1;
    }
}

static caasa_quick_state *caasa_quick_state_get(void) {
    if (caasa_quick == NULL) {
        caasa_quick = OPENSSL_zalloc(sizeof *caasa_quick);
        caasa_thread_state_made();
    }
    return caasa_quick;
}

/// The digest, fetched by its short name as PKCS7_dataInit fetches it, once per thread.
static const EVP_MD *caasa_quick_digest(caasa_quick_state *state, int nid) {
    int index = caasa_quick_digest_index(nid);
    if (index < 0) return NULL;
    if (state->digests[index] == NULL) state->digests[index] = EVP_MD_fetch(NULL, OBJ_nid2sn(nid), NULL);
    return state->digests[index];
}

/// A context ready for EVP_PKEY_verify with `key` and `digest`, as EVP_VerifyFinal_ex makes it
/// (verify_init, then the signature's digest); made once per thread, key and digest.
static EVP_PKEY_CTX *caasa_quick_context(caasa_quick_state *state, EVP_PKEY *key, int digest_nid, const EVP_MD *digest) {
    for (int i = 0; i < CAASA_QUICK_KEYS; i++)
        if (state->keys[i].key == key && state->keys[i].digest_nid == digest_nid) return state->keys[i].context;
    EVP_PKEY *copy = EVP_PKEY_dup(key);
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_pkey(NULL, copy != NULL ? copy : key, NULL);
    EVP_PKEY_free(copy);  // the context holds its own reference
    if (context == NULL || EVP_PKEY_verify_init(context) <= 0 || EVP_PKEY_CTX_set_signature_md(context, digest) <= 0
        || !EVP_PKEY_up_ref(key)) {
        EVP_PKEY_CTX_free(context);
        return NULL;
    }
    caasa_quick_key *slot = &state->keys[state->next_key];
    state->next_key = (state->next_key + 1) % CAASA_QUICK_KEYS;
    EVP_PKEY_CTX_free(slot->context);
    EVP_PKEY_free(slot->key);
    slot->key = key;
    slot->digest_nid = digest_nid;
    slot->context = context;
    return context;
}

/// The one SignerInfo's certificate and the embedded content when `p7` has the shape this path
/// handles and its signature verifies; 0 otherwise (the caller then uses PKCS7_verify).
/// `candidates` are the certificates PKCS7_verify would look the signer up in.
static int caasa_quick_check(PKCS7 *p7, STACK_OF(X509) *candidates, X509 **signer, ASN1_OCTET_STRING **content) {
    // The content PKCS7_dataInit would digest (NULL also when p7 is not SignedData).
    ASN1_OCTET_STRING *bytes = caasa_embedded_content(p7);
    if (bytes == NULL) return 0;
    STACK_OF(PKCS7_SIGNER_INFO) *infos = p7->d.sign->signer_info;
    if (sk_PKCS7_SIGNER_INFO_num(infos) != 1) return 0;
    PKCS7_SIGNER_INFO *info = sk_PKCS7_SIGNER_INFO_value(infos, 0);
    if (sk_X509_ATTRIBUTE_num(info->auth_attr) > 0 || info->issuer_and_serial == NULL || info->enc_digest == NULL)
        return 0;

    // PKCS7_dataInit computes every digest the SignedData lists (and fails on one it cannot);
    // PKCS7_signatureVerify uses the one whose NID is the SignerInfo's.
    int digest_nid = OBJ_obj2nid(info->digest_alg->algorithm);
    if (caasa_quick_digest_index(digest_nid) < 0) return 0;
    int listed = 0;
    for (int i = 0; i < sk_X509_ALGOR_num(p7->d.sign->md_algs); i++) {
        int nid = OBJ_obj2nid(sk_X509_ALGOR_value(p7->d.sign->md_algs, i)->algorithm);
        if (caasa_quick_digest_index(nid) < 0) return 0;
        listed |= nid == digest_nid;
    }
    if (!listed) return 0;

    X509 *cert = X509_find_by_issuer_and_serial(candidates, info->issuer_and_serial->issuer,
                                                info->issuer_and_serial->serial);
    if (cert == NULL) return 0;
    EVP_PKEY *key = X509_get0_pubkey(cert);
    if (key == NULL || (EVP_PKEY_get_base_id(key) != EVP_PKEY_RSA && EVP_PKEY_get_base_id(key) != EVP_PKEY_EC))
        return 0;

    caasa_quick_state *state = caasa_quick_state_get();
    if (state == NULL) return 0;
    const EVP_MD *digest = caasa_quick_digest(state, digest_nid);
    if (digest == NULL) return 0;
    EVP_PKEY_CTX *context = caasa_quick_context(state, key, digest_nid, digest);
    if (context == NULL) return 0;
    if (state->digest_context == NULL && (state->digest_context = EVP_MD_CTX_new()) == NULL) return 0;
    unsigned char value[EVP_MAX_MD_SIZE];
    unsigned int value_length = 0;
    if (!EVP_DigestInit_ex2(state->digest_context, digest, NULL)
        || !EVP_DigestUpdate(state->digest_context, ASN1_STRING_get0_data(bytes), (size_t)ASN1_STRING_length(bytes))
        || !EVP_DigestFinal_ex(state->digest_context, value, &value_length))
        return 0;
    if (EVP_PKEY_verify(context, info->enc_digest->data, (size_t)info->enc_digest->length, value, value_length) != 1)
        return 0;
    *signer = cert;
    *content = bytes;
    return 1;
}

int caasa_quick_signature_check(PKCS7 *p7, STACK_OF(X509) *candidates, X509 **signer, ASN1_OCTET_STRING **content) {
    if (caasa_quick_disabled) return 0;
    ERR_set_mark();
    int verified = caasa_quick_check(p7, candidates, signer, content);
    ERR_pop_to_mark();  // what this path met is not the caller's error: PKCS7_verify says it again
    if (verified) caasa_quick_verified++;
    return verified;
}

void caasa_quick_verify_release(void) {
    caasa_quick_state *state = caasa_quick;
    if (state == NULL) return;
    caasa_quick = NULL;
    for (int i = 0; i < CAASA_QUICK_KEYS; i++) {
        EVP_PKEY_CTX_free(state->keys[i].context);
        EVP_PKEY_free(state->keys[i].key);
    }
    for (int i = 0; i < CAASA_QUICK_DIGESTS; i++) EVP_MD_free(state->digests[i]);
    EVP_MD_CTX_free(state->digest_context);
    OPENSSL_free(state);
}

void caasa_quick_verify_set_enabled(int enabled) { caasa_quick_disabled = !enabled; }

unsigned long caasa_quick_verify_count(void) { return caasa_quick_verified; }
