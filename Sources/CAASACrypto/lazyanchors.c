// Trust anchors given as DER bytes and decoded only when a chain asks for their subject: the
// roots of a historical store (HistoricalTrustStore), hundreds of certificates of which a
// chain reaches one. Decoding all of them (d2i_X509, each public key through OpenSSL 3's
// decoders) cost `aasa verify --historical` about 70 ms before the first chain was built.
//
// A source of lazylookup.c's lookup, as the system bundle is (systemroots.c), with the same
// matching: the subject's span read from the DER (caasa_certificate_subject_span), its
// fingerprint (caasa_name_signature), X509_NAME_cmp for the candidates.
#include "internal.h"
#include <limits.h>
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

/// The certificates of one caasa_trust_add_lazy_anchors call: a source of lazylookup.c's
/// lookup, which guards `added` and the additions with `source.mutex`.
typedef struct caasa_lazy_anchors {
    caasa_lazy_source source;  // first: the lookup's view of it
    unsigned char *bytes;
    caasa_lazy_anchor *anchors;
    size_t count;
} caasa_lazy_anchors;

static void caasa_lazy_anchors_free(caasa_lazy_source *source) {
    caasa_lazy_anchors *set = (caasa_lazy_anchors *)source;
    OPENSSL_free(set->anchors);
    OPENSSL_free(set->bytes);
    OPENSSL_free(set);
}

/// Adds the set's certificates named `name` to the store, each once.
static int caasa_lazy_anchors_add_named(caasa_lazy_source *source, X509_STORE *store, const X509_NAME *name,
                                        int signature_known, uint64_t signature) {
    caasa_lazy_anchors *set = (caasa_lazy_anchors *)source;
    int added = 0;
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
    return added;
}

caasa_status caasa_trust_add_lazy_anchors(caasa_trust *trust, const void *der, size_t length) {
    ERR_clear_error();
    if (length > LONG_MAX) return CAASA_ERR_TRUST_LOAD;
    caasa_lazy_anchors *set = OPENSSL_zalloc(sizeof *set);
    if (set == NULL) return CAASA_ERR_MEMORY;
    set->source.add_named = caasa_lazy_anchors_add_named;
    set->source.free_source = caasa_lazy_anchors_free;
    set->bytes = length > 0 ? OPENSSL_memdup(der, length) : NULL;
    if (length > 0 && set->bytes == NULL) {
        caasa_lazy_anchors_free(&set->source);
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
                caasa_lazy_anchors_free(&set->source);
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
    return caasa_store_add_lazy_source(caasa_store(trust), &set->source);
unreadable:
    caasa_explain("anchor %zu (at byte %zu) is not a readable DER certificate", set->count + 1, offset);
    caasa_lazy_anchors_free(&set->source);
    return CAASA_ERR_CERT_DECODE;
}
