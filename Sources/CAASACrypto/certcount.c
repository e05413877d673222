// Counting the certificates (and CRLs) of a PKCS#7 message before OpenSSL decodes them.
//
// Why: d2i_PKCS7 decodes every certificate it carries, public key included (about 0.5 ms each
// in OpenSSL 3.0), so a 16 MiB message of tiny certificates took 32 s and 260 MB before a
// count taken after parsing could refuse it. Here the BER is walked with OpenSSL's own TLV
// reader (ASN1_get_object, the one d2i uses), skipping every element without decoding it, and
// the elements of the certificates and crls fields are counted: linear in the bytes, no
// allocation. A layout this does not follow is left to d2i_PKCS7, which then refuses it or
// parses it (and the count after parsing still applies).
#include "internal.h"

/// OpenSSL's own limit on nested constructed BER (ASN1_MAX_CONSTRUCTED_NEST is 30).
enum { CAASA_MAX_NESTING = 32 };

/// One element: its tag and class, whether it is constructed, and where its content ends
/// (`end` is NULL for an indefinite length: the content ends at its end-of-contents octets).
typedef struct caasa_ber_element {
    int tag, xclass, constructed;
    const unsigned char *content, *end;
} caasa_ber_element;

static int caasa_ber_at_end_of_contents(const unsigned char *p, const unsigned char *limit) {
    return limit - p >= 2 && p[0] == 0 && p[1] == 0;
}

/// Reads the header at `*p` (bounded by `limit`) into `out` and leaves `*p` at its content.
static int caasa_ber_header(const unsigned char **p, const unsigned char *limit, caasa_ber_element *out) {
    if (*p >= limit) return 0;
    const unsigned char *cursor = *p;
    long length = 0;
    int flags = ASN1_get_object(&cursor, &length, &out->tag, &out->xclass, (long)(limit - *p));
    if (flags & 0x80) return 0;
    out->constructed = (flags & V_ASN1_CONSTRUCTED) != 0;
    out->content = cursor;
    out->end = (flags & 1) ? NULL : cursor + length;
    *p = cursor;
    return 1;
}

/// Skips the element at `*p`: past its content, or past its end-of-contents octets.
static int caasa_ber_skip(const unsigned char **p, const unsigned char *limit, int depth) {
    caasa_ber_element element;
    if (depth > CAASA_MAX_NESTING || !caasa_ber_header(p, limit, &element)) return 0;
    if (element.end != NULL) {
        *p = element.end;
        return 1;
    }
    if (!element.constructed) return 0;
    while (!caasa_ber_at_end_of_contents(*p, limit))
        if (!caasa_ber_skip(p, limit, depth + 1)) return 0;
    *p += 2;
    return 1;
}

/// Enters a constructed element with the given class and tag: `*p` at its content, `*inner`
/// the bound of its content (its end, or `limit` for an indefinite length).
static int caasa_ber_enter(const unsigned char **p, const unsigned char *limit, int xclass, int tag,
                           const unsigned char **inner) {
    caasa_ber_element element;
    if (!caasa_ber_header(p, limit, &element) || !element.constructed || element.xclass != xclass
        || element.tag != tag)
        return 0;
    *inner = element.end != NULL ? element.end : limit;
    return 1;
}

/// The number of elements in the constructed field at `*p`, which it leaves after the field.
static long caasa_ber_count_children(const unsigned char **p, const unsigned char *limit) {
    caasa_ber_element field;
    if (!caasa_ber_header(p, limit, &field) || !field.constructed) return -1;
    const unsigned char *bound = field.end != NULL ? field.end : limit;
    long count = 0;
    for (;;) {
        if (field.end != NULL && *p == field.end) break;
        if (field.end == NULL && caasa_ber_at_end_of_contents(*p, limit)) {
            *p += 2;
            break;
        }
        if (!caasa_ber_skip(p, bound, 1)) return -1;
        count++;
    }
    return count;
}

int caasa_pkcs7_count_certificates(const unsigned char *der, size_t length, long *certificates, long *crls) {
    static const unsigned char signed_oid[] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02};
    static const unsigned char signed_enveloped_oid[] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x04};
    if (length > LONG_MAX) return 0;
    *certificates = *crls = 0;
    ERR_set_mark();  // ASN1_get_object raises errors on what it cannot read; d2i reports those
    const unsigned char *p = der, *limit = der + length, *info = NULL, *explicit0 = NULL, *body = NULL;
    caasa_ber_element type;
    int ok = caasa_ber_enter(&p, limit, V_ASN1_UNIVERSAL, V_ASN1_SEQUENCE, &info)
             && caasa_ber_header(&p, info, &type) && type.tag == V_ASN1_OBJECT && type.end != NULL;
    int enveloped = 0;
    if (ok) {
        size_t oid_length = (size_t)(type.end - type.content);
        enveloped = oid_length == sizeof signed_enveloped_oid
                    && memcmp(type.content, signed_enveloped_oid, oid_length) == 0;
        ok = enveloped || (oid_length == sizeof signed_oid && memcmp(type.content, signed_oid, oid_length) == 0);
        p = type.end;
    }
    // SignedData: version, digestAlgorithms, contentInfo, [0] certificates, [1] crls, signerInfos.
    // SignedAndEnvelopedData: version, recipientInfos, digestAlgorithms, encryptedContentInfo, then the same.
    ok = ok && caasa_ber_enter(&p, info, V_ASN1_CONTEXT_SPECIFIC, 0, &explicit0)
         && caasa_ber_enter(&p, explicit0, V_ASN1_UNIVERSAL, V_ASN1_SEQUENCE, &body);
    for (int field = 0; ok && field < (enveloped ? 4 : 3); field++) ok = caasa_ber_skip(&p, body, 1);
    for (int tag = 0; ok && tag <= 1; tag++) {
        caasa_ber_element next;
        const unsigned char *peek = p;
        if (!caasa_ber_header(&peek, body, &next) || next.xclass != V_ASN1_CONTEXT_SPECIFIC || next.tag != tag)
            continue;
        long count = caasa_ber_count_children(&p, body);
        ok = count >= 0;
        *(tag == 0 ? certificates : crls) = count;
    }
    ERR_pop_to_mark();
    return ok;
}
