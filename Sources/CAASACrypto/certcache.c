// Parsed certificates kept between messages, keyed by their DER bytes.
//
// Why this exists: OpenSSL 3.0 decodes a certificate's public key through its provider decoder
// framework whenever it parses the certificate (x509_pubkey_ex_d2i_ex ->
// OSSL_DECODER_CTX_new_for_pkey). Setting up that decoder costs about 100 µs and takes dozens
// of shared locks, which makes two threads slower than one. A batch of signed files carries
// the same two or three certificates in every file, so parsing each of them once is most of
// the work of verifying a batch (docs/performance.md).
//
// How: caasa_split_certificates() takes the certificates field out of a DER SignedData (it
// re-encodes only the three enclosing headers), the rest is parsed by d2i_PKCS7 as usual, and
// the certificates are added back in their order from the cache, parsed on a miss. Any layout
// it does not expect (BER indefinite lengths, other content types, no certificates) is left to
// the plain parse, and so is any failure, so that errors are exactly those of d2i_PKCS7.
#include "internal.h"

#include <stdatomic.h>

// Each thread keeps its own parsed certificates (issue #29). A cache shared by all workers took
// a mutex twice per file, and every file then raised and dropped the reference counts of the
// same X509 objects: cache lines that every worker wrote for every file. Per thread, a
// certificate is parsed once per worker (about 100 µs each), and nothing of a file's
// certificates is shared between threads.

/// The most certificates a thread keeps, over all caches.
enum { CAASA_THREAD_CERT_SLOTS = 256 };

typedef struct caasa_cert_slot {
    uint64_t cache_id;
    uint64_t hash;
    size_t length;
    unsigned char *der;
    X509 *cert;
} caasa_cert_slot;

struct caasa_cert_cache {
    /// Unique in the process and never reused, so a thread's entries of a freed cache are never
    /// found again.
    uint64_t id;
    size_t capacity;
};

static atomic_uint_fast64_t caasa_next_cache_id = 1;

/// The calling thread's certificates, direct-mapped by hash: a new certificate replaces the one
/// in its slot.
static _Thread_local caasa_cert_slot *caasa_thread_certs;

caasa_cert_cache *caasa_cert_cache_new(size_t capacity) {
    caasa_cert_cache *cache = OPENSSL_zalloc(sizeof *cache);
    if (cache == NULL) return NULL;
    cache->id = atomic_fetch_add(&caasa_next_cache_id, 1);
    cache->capacity = capacity == 0 ? 1 : capacity;
    return cache;
}

static void caasa_cert_slot_clear(caasa_cert_slot *slot) {
    X509_free(slot->cert);
    OPENSSL_free(slot->der);
    memset(slot, 0, sizeof *slot);
}

void caasa_cert_cache_free(caasa_cert_cache *cache) {
    if (cache == NULL) return;
    // The calling thread's entries go now; another thread's go with its next use of the slot or
    // when it stops (caasa_thread_certs_release).
    for (size_t i = 0; caasa_thread_certs != NULL && i < CAASA_THREAD_CERT_SLOTS; i++)
        if (caasa_thread_certs[i].cache_id == cache->id) caasa_cert_slot_clear(&caasa_thread_certs[i]);
    OPENSSL_free(cache);
}

void caasa_thread_certs_release(void) {
    caasa_cert_slot *slots = caasa_thread_certs;
    if (slots == NULL) return;
    caasa_thread_certs = NULL;
    for (size_t i = 0; i < CAASA_THREAD_CERT_SLOTS; i++) caasa_cert_slot_clear(&slots[i]);
    OPENSSL_free(slots);
}

/// FNV-1a, 64 bits, over the length and the last 64 bytes (the signature's, which differ
/// between any two certificates): the hash only picks the slot, and memcmp of the whole DER
/// decides a hit. Hashing every byte cost 4 % of verifying a file (two certificates, a byte at
/// a time).
static uint64_t caasa_hash(const unsigned char *bytes, size_t length) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (size_t shift = 0; shift < 64; shift += 8) hash = (hash ^ ((length >> shift) & 0xFF)) * 0x100000001b3ULL;
    size_t start = length > 64 ? length - 64 : 0;
    for (size_t i = start; i < length; i++) hash = (hash ^ bytes[i]) * 0x100000001b3ULL;
    return hash;
}

/// The certificate whose DER is exactly (der, length), with a reference for the caller: from
/// this thread's entries of `cache`, or parsed and remembered. NULL when the bytes are not
/// exactly one certificate.
static X509 *caasa_cert_cache_get(caasa_cert_cache *cache, const unsigned char *der, size_t length) {
    if (caasa_thread_certs == NULL) {
        caasa_thread_certs = OPENSSL_zalloc(CAASA_THREAD_CERT_SLOTS * sizeof *caasa_thread_certs);
        caasa_thread_state_made();
    }
    uint64_t hash = caasa_hash(der, length);
    size_t slots = cache->capacity < CAASA_THREAD_CERT_SLOTS ? cache->capacity : CAASA_THREAD_CERT_SLOTS;
    caasa_cert_slot *slot = caasa_thread_certs == NULL ? NULL : &caasa_thread_certs[(hash ^ cache->id) % slots];
    if (slot != NULL && slot->cert != NULL && slot->cache_id == cache->id && slot->hash == hash
        && slot->length == length && memcmp(slot->der, der, length) == 0 && X509_up_ref(slot->cert))
        return slot->cert;

    const unsigned char *cursor = der;
    X509 *cert = d2i_X509(NULL, &cursor, (long)length);
    if (cert == NULL || cursor != der + length) {
        X509_free(cert);
        return NULL;
    }
    if (slot == NULL) return cert;  // not remembered, still usable
    unsigned char *copy = OPENSSL_memdup(der, length);
    if (copy == NULL || !X509_up_ref(cert)) {
        OPENSSL_free(copy);
        return cert;
    }
    caasa_cert_slot_clear(slot);
    slot->cache_id = cache->id;
    slot->hash = hash;
    slot->length = length;
    slot->der = copy;
    slot->cert = cert;  // the thread's reference
    return cert;
}

// MARK: - Taking the certificates out of a DER SignedData

/// One DER element: a single-byte tag and a definite length that fits in `end`.
typedef struct caasa_tlv {
    unsigned char tag;
    const unsigned char *start;    // the tag byte
    const unsigned char *content;  // after the length
    const unsigned char *end;      // after the content
} caasa_tlv;

static int caasa_read_tlv(const unsigned char *p, const unsigned char *end, caasa_tlv *out) {
    if (end - p < 2 || (p[0] & 0x1F) == 0x1F) return 0;
    size_t header = 2, length = p[1];
    if (length == 0x80) return 0;  // indefinite (BER)
    if (length > 0x80) {
        size_t count = length & 0x7F;
        if (count > 4 || (size_t)(end - p) < 2 + count) return 0;
        length = 0;
        for (size_t i = 0; i < count; i++) length = (length << 8) | p[2 + i];
        header += count;
    }
    if ((size_t)(end - p) - header < length) return 0;
    out->tag = p[0];
    out->start = p;
    out->content = p + header;
    out->end = p + header + length;
    return 1;
}

/// Writes a DER header (tag, minimal length) and returns its size (at most 6 bytes).
static size_t caasa_write_header(unsigned char *out, unsigned char tag, size_t length) {
    out[0] = tag;
    if (length < 0x80) {
        out[1] = (unsigned char)length;
        return 2;
    }
    size_t count = 0;
    for (size_t rest = length; rest > 0; rest >>= 8) count++;
    out[1] = (unsigned char)(0x80 | count);
    for (size_t i = 0; i < count; i++) out[2 + i] = (unsigned char)(length >> (8 * (count - 1 - i)));
    return 2 + count;
}

static size_t caasa_header_size(size_t length) {
    unsigned char scratch[8];
    return caasa_write_header(scratch, 0, length);
}

/// When `data` starts with a DER ContentInfo holding SignedData with a non-empty certificates
/// field, writes the message without that field to `*stripped` (OPENSSL_malloc'd), the
/// certificates' elements to `*certs` (pointers into `data`, OPENSSL_malloc'd) and the end of
/// the message in `data` to `*message_end`, and returns 1. Otherwise returns 0.
static int caasa_split_certificates(const unsigned char *data, size_t length, unsigned char **stripped,
                                    size_t *stripped_length, caasa_tlv **certs, int *cert_count,
                                    const unsigned char **message_end) {
    static const unsigned char signed_data_oid[] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02};
    const unsigned char *end = data + length;
    caasa_tlv outer, oid, explicit0, signed_data, version, digests, content, field;
    if (!caasa_read_tlv(data, end, &outer) || outer.tag != 0x30) return 0;
    if (!caasa_read_tlv(outer.content, outer.end, &oid) || oid.tag != 0x06
        || (size_t)(oid.end - oid.content) != sizeof signed_data_oid
        || memcmp(oid.content, signed_data_oid, sizeof signed_data_oid) != 0)
        return 0;
    if (!caasa_read_tlv(oid.end, outer.end, &explicit0) || explicit0.tag != 0xA0 || explicit0.end != outer.end) return 0;
    if (!caasa_read_tlv(explicit0.content, explicit0.end, &signed_data) || signed_data.tag != 0x30
        || signed_data.end != explicit0.end)
        return 0;
    if (!caasa_read_tlv(signed_data.content, signed_data.end, &version) || version.tag != 0x02) return 0;
    if (!caasa_read_tlv(version.end, signed_data.end, &digests) || digests.tag != 0x31) return 0;
    if (!caasa_read_tlv(digests.end, signed_data.end, &content) || content.tag != 0x30) return 0;
    if (!caasa_read_tlv(content.end, signed_data.end, &field) || field.tag != 0xA0) return 0;

    // The certificates: SEQUENCEs that exactly fill the field.
    int count = 0;
    for (const unsigned char *p = field.content; p < field.end; count++) {
        caasa_tlv cert;
        if (count >= 4096 || !caasa_read_tlv(p, field.end, &cert) || cert.tag != 0x30) return 0;
        p = cert.end;
    }
    if (count == 0) return 0;
    caasa_tlv *list = OPENSSL_malloc((size_t)count * sizeof *list);
    if (list == NULL) return 0;
    int index = 0;
    for (const unsigned char *p = field.content; p < field.end; index++) {
        caasa_read_tlv(p, field.end, &list[index]);
        p = list[index].end;
    }

    // The same message without the field: three headers re-encoded, every other byte copied.
    size_t removed = (size_t)(field.end - field.start);
    size_t signed_data_length = (size_t)(signed_data.end - signed_data.content) - removed;
    size_t explicit_length = caasa_header_size(signed_data_length) + signed_data_length;
    size_t outer_length = (size_t)(oid.end - oid.start) + caasa_header_size(explicit_length) + explicit_length;
    size_t total = caasa_header_size(outer_length) + outer_length;
    unsigned char *out = OPENSSL_malloc(total);
    if (out == NULL) {
        OPENSSL_free(list);
        return 0;
    }
    unsigned char *w = out;
    w += caasa_write_header(w, 0x30, outer_length);
    memcpy(w, oid.start, (size_t)(oid.end - oid.start));
    w += oid.end - oid.start;
    w += caasa_write_header(w, 0xA0, explicit_length);
    w += caasa_write_header(w, 0x30, signed_data_length);
    memcpy(w, signed_data.content, (size_t)(field.start - signed_data.content));
    w += field.start - signed_data.content;
    memcpy(w, field.end, (size_t)(signed_data.end - field.end));
    w += signed_data.end - field.end;

    *stripped = out;
    *stripped_length = (size_t)(w - out);
    *certs = list;
    *cert_count = count;
    *message_end = outer.end;
    return 1;
}

PKCS7 *caasa_d2i_pkcs7_cached(caasa_cert_cache *cache, const unsigned char *data, size_t length,
                              const unsigned char **message_end) {
    unsigned char *stripped = NULL;
    size_t stripped_length = 0;
    caasa_tlv *certs = NULL;
    int count = 0;
    if (!caasa_split_certificates(data, length, &stripped, &stripped_length, &certs, &count, message_end)) return NULL;
    const unsigned char *cursor = stripped;
    PKCS7 *p7 = d2i_PKCS7(NULL, &cursor, (long)stripped_length);
    int ok = p7 != NULL && cursor == stripped + stripped_length && PKCS7_type_is_signed(p7) && p7->d.sign != NULL
             && p7->d.sign->cert == NULL;
    for (int i = 0; ok && i < count; i++) {
        X509 *cert = caasa_cert_cache_get(cache, certs[i].start, (size_t)(certs[i].end - certs[i].start));
        ok = cert != NULL && PKCS7_add_certificate(p7, cert);  // takes its own reference
        X509_free(cert);
    }
    OPENSSL_free(stripped);
    OPENSSL_free(certs);
    if (!ok) {
        PKCS7_free(p7);
        ERR_clear_error();  // the caller parses the bytes as they are, and reports that
        return NULL;
    }
    return p7;
}
