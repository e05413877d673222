// Parsing PKCS#7 messages: DER or BER, PEM and S/MIME (multipart/signed included), with
// trailing data refused and CMS that PKCS#7 cannot represent named as such.
#include "internal.h"

/// True when everything after a DER structure is ASCII white space or NUL padding.
static int caasa_only_padding(const unsigned char *cursor, const unsigned char *end) {
    for (; cursor < end; cursor++)
        if (*cursor != '\n' && *cursor != '\r' && *cursor != ' ' && *cursor != '\t' && *cursor != 0) return 0;
    return 1;
}

/// After d2i_PKCS7 refused the bytes: CAASA_ERR_UNSUPPORTED_CMS, explained, when they are CMS
/// that PKCS#7 v1.5 cannot represent (OpenSSL's CMS parser reads them); otherwise
/// CAASA_ERR_PKCS7_DECODE with PKCS#7's own errors left on the queue.
static caasa_status caasa_undecodable(const unsigned char *data, size_t length) {
    ERR_set_mark();
    const unsigned char *cursor = data;
    CMS_ContentInfo *cms = d2i_CMS_ContentInfo(NULL, &cursor, (long)length);
    if (cms == NULL) {
        ERR_pop_to_mark();
        return CAASA_ERR_PKCS7_DECODE;
    }
    ERR_clear_last_mark();
    ERR_clear_error();  // PKCS#7's complaints are beside the point now
    const char *why = "a CMS structure that PKCS#7 v1.5 cannot represent";
    if (OBJ_obj2nid(CMS_get0_type(cms)) == NID_pkcs7_signed) {
        STACK_OF(CMS_SignerInfo) *infos = CMS_get0_SignerInfos(cms);
        for (int i = 0; i < sk_CMS_SignerInfo_num(infos); i++) {
            ASN1_OCTET_STRING *keyid = NULL;
            X509_NAME *issuer = NULL;
            ASN1_INTEGER *serial = NULL;
            if (CMS_SignerInfo_get0_signer_id(sk_CMS_SignerInfo_value(infos, i), &keyid, &issuer, &serial)
                && keyid != NULL) {
                why = "a CMS signer identified by subjectKeyIdentifier (SignerInfo version 3); only signers "
                      "identified by issuer and serial number (PKCS#7 v1.5) are supported";
                break;
            }
        }
    }
    CMS_ContentInfo_free(cms);
    caasa_explain("valid CMS that aasa does not support: %s", why);
    return CAASA_ERR_UNSUPPORTED_CMS;
}

/// CAASA_ERR_TOO_MANY_CERTIFICATES, explained, when the BER message at `der` carries more
/// certificates or CRLs than `limit` (counted without decoding them); CAASA_OK otherwise.
static caasa_status caasa_check_certificate_count(const unsigned char *der, size_t length, size_t limit) {
    long certificates = 0, crls = 0;
    if (!caasa_pkcs7_count_certificates(der, length, &certificates, &crls)) return CAASA_OK;
    if ((size_t)certificates > limit) {
        caasa_explain("the message carries %ld certificates, more than the limit of %zu", certificates, limit);
        return CAASA_ERR_TOO_MANY_CERTIFICATES;
    }
    if ((size_t)crls > limit) {
        caasa_explain("the message carries %ld CRLs, more than the limit of %zu", crls, limit);
        return CAASA_ERR_TOO_MANY_CERTIFICATES;
    }
    return CAASA_OK;
}

static caasa_status caasa_parse_der(const void *data, size_t length, caasa_cert_cache *cache, size_t limit,
                                    PKCS7 **out) {
    if (length > LONG_MAX) return CAASA_ERR_INVALID_ARGUMENT;
    caasa_status counted = caasa_check_certificate_count(data, length, limit);
    if (counted != CAASA_OK) return counted;
    const unsigned char *cursor = data;
    const unsigned char *end = cursor + length;
    PKCS7 *p7 = NULL;
    if (cache != NULL) {
        const unsigned char *message_end = NULL;
        p7 = caasa_d2i_pkcs7_cached(cache, cursor, length, &message_end);
        if (p7 != NULL) cursor = message_end;
    }
    if (p7 == NULL) p7 = d2i_PKCS7(NULL, &cursor, (long)length);
    if (p7 == NULL) return caasa_undecodable(data, length);
    if (!caasa_only_padding(cursor, end)) {
        PKCS7_free(p7);
        ERR_raise_data(ERR_LIB_USER, ERR_R_PASSED_INVALID_ARGUMENT, "%zu bytes after the PKCS#7 structure",
                       (size_t)(end - cursor));
        return CAASA_ERR_TRAILING_DATA;
    }
    *out = p7;
    return CAASA_OK;
}

/// The first PEM block labelled PKCS7, "PKCS #7 SIGNED DATA" or CMS, decoded.
static caasa_status caasa_parse_pem(const void *data, size_t length, caasa_cert_cache *cache, size_t limit,
                                    PKCS7 **out) {
    BIO *bio = caasa_bio_from(data, length);
    if (bio == NULL) return CAASA_ERR_MEMORY;
    caasa_status status = CAASA_ERR_PKCS7_DECODE;
    for (;;) {
        char *name = NULL, *header = NULL;
        unsigned char *der = NULL;
        long der_length = 0;
        if (!PEM_read_bio(bio, &name, &header, &der, &der_length)) break;
        int wanted = strcmp(name, PEM_STRING_PKCS7) == 0 || strcmp(name, PEM_STRING_PKCS7_SIGNED) == 0
                     || strcmp(name, PEM_STRING_CMS) == 0;
        if (wanted) status = caasa_parse_der(der, (size_t)der_length, cache, limit, out);
        OPENSSL_free(name);
        OPENSSL_free(header);
        OPENSSL_free(der);
        if (wanted) break;
    }
    if (status == CAASA_OK) {
        // As after DER: only white space and NUL padding may follow the block.
        char *rest = NULL;
        long rest_length = BIO_get_mem_data(bio, &rest);
        if (rest_length > 0 && !caasa_only_padding((const unsigned char *)rest, (const unsigned char *)rest + rest_length)) {
            PKCS7_free(*out);
            *out = NULL;
            caasa_explain("%ld bytes after the PEM block (a second message or other text); only white space may follow",
                          rest_length);
            status = CAASA_ERR_TRAILING_DATA;
        }
    }
    BIO_free(bio);
    return status;
}

/// 1 when every byte of the line is in the base64 alphabet (or '='), ignoring a trailing CR,
/// spaces and tabs; 0 for an empty line.
static int caasa_is_base64_line(const unsigned char *line, const unsigned char *end) {
    while (end > line && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t')) end--;
    if (end == line) return 0;
    for (; line < end; line++) {
        unsigned char c = *line;
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/'
              || c == '='))
            return 0;
    }
    return 1;
}

/// application/pkcs7-mime: the base64 body must be one DER message, and only white space and
/// NUL padding may follow it (a second message, or text, is trailing data).
static caasa_status caasa_check_smime_body(const unsigned char *data, size_t length) {
    const unsigned char *end = data + length, *cursor = data;
    // The body starts after the first empty line (the end of the headers).
    for (;;) {
        const unsigned char *newline = memchr(cursor, '\n', (size_t)(end - cursor));
        if (newline == NULL) return CAASA_OK;  // no body: SMIME_read_PKCS7 would have failed
        int empty = newline == cursor || (newline == cursor + 1 && cursor[0] == '\r');
        cursor = newline + 1;
        if (empty) break;
    }
    EVP_ENCODE_CTX *decoder = EVP_ENCODE_CTX_new();
    BIO *decoded = BIO_new(BIO_s_mem());
    caasa_status status = CAASA_OK;
    if (decoder == NULL || decoded == NULL) {
        status = CAASA_ERR_MEMORY;
        goto done;
    }
    EVP_DecodeInit(decoder);
    const unsigned char *body_end = cursor;
    while (body_end < end) {
        const unsigned char *newline = memchr(body_end, '\n', (size_t)(end - body_end));
        const unsigned char *line_end = newline != NULL ? newline : end;
        if (!caasa_is_base64_line(body_end, line_end)) {
            // An empty line ends nothing by itself; anything else ends the base64.
            const unsigned char *p = body_end;
            while (p < line_end && (*p == '\r' || *p == ' ' || *p == '\t')) p++;
            if (p != line_end) break;
        } else {
            unsigned char out[1024];
            int out_length = 0;
            for (const unsigned char *chunk = body_end; chunk < line_end; chunk += 512) {
                int n = (int)(line_end - chunk < 512 ? line_end - chunk : 512);
                if (EVP_DecodeUpdate(decoder, out, &out_length, chunk, n) < 0) {
                    status = CAASA_ERR_PKCS7_DECODE;
                    goto done;
                }
                BIO_write(decoded, out, out_length);
            }
        }
        body_end = newline != NULL ? newline + 1 : end;
    }
    if (!caasa_only_padding(body_end, end)) {
        caasa_explain("%zu bytes after the S/MIME message's base64 body (a second message or other text); only "
                      "white space may follow",
                      (size_t)(end - body_end));
        status = CAASA_ERR_TRAILING_DATA;
        goto done;
    }
    unsigned char tail[64];
    int tail_length = 0;
    EVP_DecodeFinal(decoder, tail, &tail_length);
    BIO_write(decoded, tail, tail_length);
    char *bytes = NULL;
    long byte_count = BIO_get_mem_data(decoded, &bytes);
    const unsigned char *p = (const unsigned char *)bytes;
    long object_length = 0;
    int tag = 0, xclass = 0;
    int flags = ASN1_get_object(&p, &object_length, &tag, &xclass, byte_count);
    if ((flags & 0x80) == 0 && (flags & 0x01) == 0) {  // a definite length: the message ends there
        const unsigned char *message_end = p + object_length;
        const unsigned char *all_end = (const unsigned char *)bytes + byte_count;
        if (message_end < all_end && !caasa_only_padding(message_end, all_end)) {
            caasa_explain("%ld bytes after the PKCS#7 structure in the S/MIME body", (long)(all_end - message_end));
            status = CAASA_ERR_TRAILING_DATA;
        }
    }
    ERR_clear_error();

done:
    EVP_ENCODE_CTX_free(decoder);
    BIO_free(decoded);
    return status;
}

/// multipart/signed: makes the first MIME part (as SMIME_read_PKCS7 canonicalised it, the
/// bytes `openssl smime -verify` checks and writes) the SignedData's embedded content.
static caasa_status caasa_embed_detached(PKCS7 *p7, BIO *content) {
    if (!PKCS7_type_is_signed(p7) || p7->d.sign == NULL || p7->d.sign->contents == NULL) return CAASA_OK;
    PKCS7 *inner = p7->d.sign->contents;
    if (!PKCS7_type_is_data(inner)) return CAASA_OK;  // refused later, naming the type
    if (inner->d.data != NULL) {
        caasa_explain("a multipart/signed message whose signature also embeds content");
        return CAASA_ERR_PKCS7_DECODE;
    }
    char *bytes = NULL;
    long length = BIO_get_mem_data(content, &bytes);
    ASN1_OCTET_STRING *octets = ASN1_OCTET_STRING_new();
    if (octets == NULL || length < 0 || length > INT_MAX
        || !ASN1_OCTET_STRING_set(octets, (const unsigned char *)bytes, (int)length)) {
        ASN1_OCTET_STRING_free(octets);
        return CAASA_ERR_MEMORY;
    }
    inner->d.data = octets;
    return CAASA_OK;
}

/// The certificate count of an S/MIME message's PKCS#7 part. OpenSSL's MIME reader takes the
/// part out and decodes it as ASN1_ANY, which keeps the BER as bytes without decoding a
/// certificate, so that the count comes before SMIME_read_PKCS7 decodes them.
static caasa_status caasa_check_smime_certificate_count(const void *data, size_t length, size_t limit) {
    BIO *bio = caasa_bio_from(data, length);
    if (bio == NULL) return CAASA_ERR_MEMORY;
    BIO *detached_content = NULL;
    ERR_set_mark();
    ASN1_TYPE *any = (ASN1_TYPE *)SMIME_read_ASN1(bio, &detached_content, ASN1_ITEM_rptr(ASN1_ANY));
    ERR_pop_to_mark();  // SMIME_read_PKCS7 reports what cannot be read
    caasa_status status = CAASA_OK;
    if (any != NULL && any->type == V_ASN1_SEQUENCE && any->value.sequence != NULL)
        status = caasa_check_certificate_count(ASN1_STRING_get0_data(any->value.sequence),
                                               (size_t)ASN1_STRING_length(any->value.sequence), limit);
    ASN1_TYPE_free(any);
    BIO_free(detached_content);
    BIO_free(bio);
    return status;
}

static caasa_status caasa_parse_smime(const void *data, size_t length, size_t limit, PKCS7 **out) {
    caasa_status counted = caasa_check_smime_certificate_count(data, length, limit);
    if (counted != CAASA_OK) return counted;
    BIO *bio = caasa_bio_from(data, length);
    if (bio == NULL) return CAASA_ERR_MEMORY;
    BIO *detached_content = NULL;
    PKCS7 *p7 = SMIME_read_PKCS7(bio, &detached_content);
    caasa_status status = p7 == NULL ? CAASA_ERR_PKCS7_DECODE : CAASA_OK;
    if (p7 != NULL && detached_content != NULL) {
        // multipart/signed: SMIME_read_PKCS7 stops at the closing boundary.
        char *rest = NULL;
        long rest_length = BIO_get_mem_data(bio, &rest);
        if (rest_length > 0
            && !caasa_only_padding((const unsigned char *)rest, (const unsigned char *)rest + rest_length)) {
            caasa_explain("%ld bytes after the closing boundary of the multipart/signed message (a second message "
                          "or other text); only white space may follow",
                          rest_length);
            status = CAASA_ERR_TRAILING_DATA;
        } else {
            status = caasa_embed_detached(p7, detached_content);
        }
    } else {
        // application/pkcs7-mime. When OpenSSL's base64 reader choked, trailing data is the
        // likely cause: say so rather than "corrupt".
        caasa_status body = caasa_check_smime_body(data, length);
        if (p7 == NULL && body == CAASA_ERR_TRAILING_DATA) {
            ERR_clear_error();  // the base64 reader's complaints: the explanation alone says it
            body = caasa_check_smime_body(data, length);
        }
        if (p7 != NULL || body == CAASA_ERR_TRAILING_DATA) status = body;
    }
    BIO_free(detached_content);
    BIO_free(bio);
    if (status != CAASA_OK) {
        PKCS7_free(p7);
        return status;
    }
    *out = p7;
    return CAASA_OK;
}

caasa_status caasa_pkcs7_parse(const void *data, size_t length, caasa_encoding encoding, caasa_pkcs7 **out) {
    return caasa_pkcs7_parse_cached(data, length, encoding, NULL, SIZE_MAX, out);
}

caasa_status caasa_pkcs7_parse_cached(const void *data, size_t length, caasa_encoding encoding,
                                      caasa_cert_cache *cache, size_t max_certificates, caasa_pkcs7 **out) {
    ERR_clear_error();
    if (data == NULL || length == 0) return CAASA_ERR_PKCS7_DECODE;
    PKCS7 *p7 = NULL;
    caasa_status status = CAASA_ERR_INVALID_ARGUMENT;
    switch (encoding) {
        case CAASA_ENCODING_DER: status = caasa_parse_der(data, length, cache, max_certificates, &p7); break;
        case CAASA_ENCODING_PEM: status = caasa_parse_pem(data, length, cache, max_certificates, &p7); break;
        case CAASA_ENCODING_SMIME: status = caasa_parse_smime(data, length, max_certificates, &p7); break;
    }
    if (status == CAASA_OK && PKCS7_type_is_signed(p7) && p7->d.sign == NULL) {
        PKCS7_free(p7);
        caasa_explain("a SignedData ContentInfo without its content: the [0] field is missing");
        return CAASA_ERR_MISSING_CONTENT_FIELD;
    }
    if (status == CAASA_OK) *out = (caasa_pkcs7 *)p7;
    return status;
}

void caasa_pkcs7_free(caasa_pkcs7 *message) { PKCS7_free(caasa_p7(message)); }
