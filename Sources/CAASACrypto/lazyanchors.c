// Trust anchors given as DER bytes and decoded only when a chain asks for their subject: the
// roots of a historical store (HistoricalTrustStore), hundreds of certificates of which a
// chain reaches one. Decoding all of them (d2i_X509, each public key through OpenSSL 3's
// decoders) cost `aasa verify --historical` some 60 ms before the first chain was built.
//
// Written here for the reason systemroots.c gives (OpenSSL has no lookup that decodes a
// certificate only when its subject is asked for); it shares that file's matching: the
// subject's span read from the DER (caasa_certificate_subject_span), its fingerprint
// (caasa_name_signature), X509_NAME_cmp for the candidates, and the store's own answer.
#include "internal.h"
#include <limits.h>
#include <pthread.h>
#include <string.h>

/// One certificate: its bytes in the set's copy, its subject, and whether it is in the store.
typedef struct caasa_lazy_anchor {
    size_t offset;
    long length;
    const unsigned char *subject;  // within the set's bytes
    long subject_length;
    uint64_t signature;
    int signature_known;
    int added;
} caasa_lazy_anchor;

/// The certificates of one caasa_trust_add_lazy_anchors call. Lookups from several threads
/// share a store, so `added` and the additions are guarded by `mutex`.
typedef struct caasa_lazy_anchors {
    pthread_mutex_t mutex;
    unsigned char *bytes;
    caasa_lazy_anchor *anchors;
    size_t count;
} caasa_lazy_anchors;

static void caasa_lazy_anchors_release(caasa_lazy_anchors *set) {
    if (set == NULL) return;
    pthread_mutex_destroy(&set->mutex);
    OPENSSL_free(set->anchors);
    OPENSSL_free(set->bytes);
    OPENSSL_free(set);
}

static void caasa_lazy_anchors_free(X509_LOOKUP *lookup) {
    caasa_lazy_anchors_release(X509_LOOKUP_get_method_data(lookup));
    X509_LOOKUP_set_method_data(lookup, NULL);
}

/// Adds the set's certificates named `name` to the store (once each), then answers from it.
static int caasa_lazy_anchors_by_subject(X509_LOOKUP *lookup, X509_LOOKUP_TYPE type, const X509_NAME *name,
                                         X509_OBJECT *ret) {
    caasa_lazy_anchors *set = X509_LOOKUP_get_method_data(lookup);
    X509_STORE *store = X509_LOOKUP_get_store(lookup);
    if (set == NULL || store == NULL || type != X509_LU_X509) return 0;
    uint64_t signature = 0;
    int signature_known = caasa_lookup_name_signature(name, &signature);
    int added = 0;
    pthread_mutex_lock(&set->mutex);
    for (size_t i = 0; i < set->count; i++) {
        caasa_lazy_anchor *anchor = &set->anchors[i];
        if (!caasa_subject_matches(anchor->subject, anchor->subject_length, anchor->signature_known,
                                   anchor->signature, name, signature_known, signature))
            continue;
        if (!anchor->added) {
            anchor->added = 1;
            const unsigned char *cursor = set->bytes + anchor->offset;
            X509 *certificate = d2i_X509(NULL, &cursor, anchor->length);
            if (certificate != NULL) X509_STORE_add_cert(store, certificate);  // takes its own reference
            X509_free(certificate);
        }
        added = 1;
    }
    pthread_mutex_unlock(&set->mutex);
    ERR_clear_error();
    if (!added) return 0;
    return caasa_store_answer_by_subject(store, type, name, ret);
}

static pthread_once_t caasa_lazy_anchors_method_once = PTHREAD_ONCE_INIT;
static X509_LOOKUP_METHOD *caasa_lazy_anchors_method_value;

static void caasa_lazy_anchors_method_make(void) {
    X509_LOOKUP_METHOD *method = X509_LOOKUP_meth_new("aasa anchors decoded when asked for");
    if (method == NULL) return;
    if (!X509_LOOKUP_meth_set_free(method, caasa_lazy_anchors_free)
        || !X509_LOOKUP_meth_set_get_by_subject(method, caasa_lazy_anchors_by_subject)) {
        X509_LOOKUP_meth_free(method);
        return;
    }
    caasa_lazy_anchors_method_value = method;  // for the life of the process
}

caasa_status caasa_trust_add_lazy_anchors(caasa_trust *trust, const void *der, size_t length) {
    ERR_clear_error();
    if (length > LONG_MAX) return CAASA_ERR_TRUST_LOAD;
    pthread_once(&caasa_lazy_anchors_method_once, caasa_lazy_anchors_method_make);
    if (caasa_lazy_anchors_method_value == NULL) return CAASA_ERR_MEMORY;
    caasa_lazy_anchors *set = OPENSSL_zalloc(sizeof *set);
    if (set == NULL) return CAASA_ERR_MEMORY;
    if (pthread_mutex_init(&set->mutex, NULL) != 0) {
        OPENSSL_free(set);
        return CAASA_ERR_MEMORY;
    }
    set->bytes = length > 0 ? OPENSSL_memdup(der, length) : NULL;
    if (length > 0 && set->bytes == NULL) {
        caasa_lazy_anchors_release(set);
        return CAASA_ERR_MEMORY;
    }
    // Each certificate is one DER SEQUENCE; its header says where the next one starts.
    size_t capacity = 0, offset = 0;
    while (offset < length) {
        const unsigned char *start = set->bytes + offset, *cursor = start;
        long content = 0;
        int tag = 0, class = 0;
        int info = ASN1_get_object(&cursor, &content, &tag, &class, (long)(length - offset));
        const unsigned char *subject = NULL;
        long subject_length = 0;
        if ((info & 0x80) || cursor == start || tag != V_ASN1_SEQUENCE) goto unreadable;
        long whole = (long)(cursor - start) + content;
        if (!caasa_certificate_subject_span(start, whole, 0, &subject, &subject_length)) goto unreadable;
        if (set->count == capacity) {
            size_t grown = capacity == 0 ? 256 : capacity * 2;
            caasa_lazy_anchor *anchors = OPENSSL_realloc(set->anchors, grown * sizeof *anchors);
            if (anchors == NULL) {
                caasa_lazy_anchors_release(set);
                return CAASA_ERR_MEMORY;
            }
            set->anchors = anchors;
            capacity = grown;
        }
        caasa_lazy_anchor *anchor = &set->anchors[set->count++];
        memset(anchor, 0, sizeof *anchor);
        anchor->offset = offset;
        anchor->length = whole;
        anchor->subject = subject;
        anchor->subject_length = subject_length;
        anchor->signature_known = caasa_name_signature(subject, subject_length, &anchor->signature);
        offset += (size_t)whole;
    }
    X509_LOOKUP *lookup = X509_STORE_add_lookup(caasa_store(trust), caasa_lazy_anchors_method_value);
    if (lookup == NULL || !X509_LOOKUP_set_method_data(lookup, set)) {
        caasa_lazy_anchors_release(set);
        return CAASA_ERR_TRUST_LOAD;
    }
    return CAASA_OK;
unreadable:
    caasa_explain("anchor %zu (at byte %zu) is not a readable DER certificate", set->count + 1, offset);
    caasa_lazy_anchors_release(set);
    return CAASA_ERR_CERT_DECODE;
}
