// Parsing, describing and signature-checking PKCS#7 messages.
#include "internal.h"

/// True when everything after a DER structure is ASCII white space or NUL padding.
static int caasa_only_padding(const unsigned char *cursor, const unsigned char *end) {
    for (; cursor < end; cursor++)
        if (*cursor != '\n' && *cursor != '\r' && *cursor != ' ' && *cursor != '\t' && *cursor != 0) return 0;
    return 1;
}

/// Puts this module's explanation of a refusal on the error queue (read as `detail` by
/// caasa_error_pop): one sentence for the user.
#define caasa_explain(...) ERR_raise_data(ERR_LIB_USER, ERR_R_PASSED_INVALID_ARGUMENT, __VA_ARGS__)

/// "MD4 (1.2.840.113549.2.4)" or the dotted OID alone when OpenSSL has no name for it.
static const char *caasa_describe_object(const ASN1_OBJECT *object, char *buffer, size_t size) {
    char oid[80];
    OBJ_obj2txt(oid, sizeof oid, object, 1);
    int nid = OBJ_obj2nid(object);
    if (nid == NID_undef)
        snprintf(buffer, size, "%s", oid);
    else
        snprintf(buffer, size, "%s (%s)", OBJ_nid2ln(nid), oid);
    return buffer;
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

static caasa_status caasa_parse_der(const void *data, size_t length, caasa_cert_cache *cache, PKCS7 **out) {
    if (length > LONG_MAX) return CAASA_ERR_INVALID_ARGUMENT;
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
static caasa_status caasa_parse_pem(const void *data, size_t length, caasa_cert_cache *cache, PKCS7 **out) {
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
        if (wanted) status = caasa_parse_der(der, (size_t)der_length, cache, out);
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

static caasa_status caasa_parse_smime(const void *data, size_t length, PKCS7 **out) {
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
    return caasa_pkcs7_parse_cached(data, length, encoding, NULL, out);
}

caasa_status caasa_pkcs7_parse_cached(const void *data, size_t length, caasa_encoding encoding,
                                      caasa_cert_cache *cache, caasa_pkcs7 **out) {
    ERR_clear_error();
    if (data == NULL || length == 0) return CAASA_ERR_PKCS7_DECODE;
    PKCS7 *p7 = NULL;
    caasa_status status = CAASA_ERR_INVALID_ARGUMENT;
    switch (encoding) {
        case CAASA_ENCODING_DER: status = caasa_parse_der(data, length, cache, &p7); break;
        case CAASA_ENCODING_PEM: status = caasa_parse_pem(data, length, cache, &p7); break;
        case CAASA_ENCODING_SMIME: status = caasa_parse_smime(data, length, &p7); break;
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

static const char *caasa_object_name(const ASN1_OBJECT *object, char *buffer, size_t size) {
    int nid = OBJ_obj2nid(object);
    if (nid != NID_undef) return OBJ_nid2sn(nid);
    OBJ_obj2txt(buffer, (int)size, object, 1);
    return buffer;
}

/// The embedded content as an OCTET STRING, or NULL (detached, or not an octet string).
static ASN1_OCTET_STRING *caasa_embedded_content(PKCS7 *p7) {
    if (!PKCS7_type_is_signed(p7) || p7->d.sign == NULL || p7->d.sign->contents == NULL) return NULL;
    PKCS7 *inner = p7->d.sign->contents;
    if (PKCS7_type_is_data(inner)) return inner->d.data;
    if (PKCS7_type_is_other(inner) && inner->d.other != NULL && inner->d.other->type == V_ASN1_OCTET_STRING)
        return inner->d.other->value.octet_string;
    return NULL;
}

/// 1 when the SignedData carries its encapsulated content, of whatever type.
static int caasa_content_present(PKCS7 *p7) {
    if (!PKCS7_type_is_signed(p7) || p7->d.sign == NULL || p7->d.sign->contents == NULL) return 0;
    return p7->d.sign->contents->d.ptr != NULL;
}

caasa_status caasa_pkcs7_summarize(const caasa_pkcs7 *message, caasa_pkcs7_summary *out) {
    ERR_clear_error();
    PKCS7 *p7 = caasa_p7(message);
    memset(out, 0, sizeof *out);
    char scratch[64];
    caasa_copy_string(out->type, sizeof out->type, caasa_object_name(p7->type, scratch, sizeof scratch));
    if (!PKCS7_type_is_signed(p7) || p7->d.sign == NULL) return CAASA_OK;
    out->is_signed_data = 1;
    PKCS7_SIGNED *signed_data = p7->d.sign;
    if (signed_data->contents != NULL && signed_data->contents->type != NULL) {
        caasa_copy_string(out->content_type, sizeof out->content_type,
                          caasa_object_name(signed_data->contents->type, scratch, sizeof scratch));
        OBJ_obj2txt(out->content_type_oid, sizeof out->content_type_oid, signed_data->contents->type, 1);
    }
    out->has_content = caasa_content_present(p7);
    out->content_is_octets = caasa_embedded_content(p7) != NULL;
    out->signer_count = sk_PKCS7_SIGNER_INFO_num(signed_data->signer_info);
    out->certificate_count = sk_X509_num(signed_data->cert);
    if (out->signer_count < 0) out->signer_count = 0;
    if (out->certificate_count < 0) out->certificate_count = 0;
    return CAASA_OK;
}

caasa_status caasa_pkcs7_signer(const caasa_pkcs7 *message, size_t index, caasa_signer_summary *out) {
    ERR_clear_error();
    PKCS7 *p7 = caasa_p7(message);
    STACK_OF(PKCS7_SIGNER_INFO) *infos = PKCS7_get_signer_info(p7);
    if (infos == NULL || index >= (size_t)sk_PKCS7_SIGNER_INFO_num(infos)) return CAASA_ERR_INVALID_ARGUMENT;
    PKCS7_SIGNER_INFO *info = sk_PKCS7_SIGNER_INFO_value(infos, (int)index);
    memset(out, 0, sizeof *out);
    X509_ALGOR *digest = NULL, *signature = NULL;
    PKCS7_SIGNER_INFO_get0_algs(info, NULL, &digest, &signature);
    const ASN1_OBJECT *object = NULL;
    char scratch[64];
    if (digest != NULL) {
        X509_ALGOR_get0(&object, NULL, NULL, digest);
        caasa_copy_string(out->digest, sizeof out->digest, caasa_object_name(object, scratch, sizeof scratch));
    }
    if (signature != NULL) {
        X509_ALGOR_get0(&object, NULL, NULL, signature);
        caasa_copy_string(out->signature, sizeof out->signature, caasa_object_name(object, scratch, sizeof scratch));
    }
    out->has_signed_attributes = sk_X509_ATTRIBUTE_num(PKCS7_get_signed_attributes(info)) > 0;
    if (info->issuer_and_serial != NULL) {
        char *issuer = caasa_name_string(info->issuer_and_serial->issuer);
        char *serial = caasa_serial_string(info->issuer_and_serial->serial);
        caasa_copy_string(out->issuer, sizeof out->issuer, issuer);
        caasa_copy_string(out->serial, sizeof out->serial, serial);
        OPENSSL_free(issuer);
        OPENSSL_free(serial);
    }
    return CAASA_OK;
}

caasa_status caasa_pkcs7_certificates(const caasa_pkcs7 *message, caasa_certs **out) {
    ERR_clear_error();
    PKCS7 *p7 = caasa_p7(message);
    STACK_OF(X509) *copy = sk_X509_new_null();
    if (copy == NULL) return CAASA_ERR_MEMORY;
    if (PKCS7_type_is_signed(p7) && p7->d.sign != NULL && p7->d.sign->cert != NULL
        && !X509_add_certs(copy, p7->d.sign->cert, X509_ADD_FLAG_UP_REF)) {
        caasa_stack_free(copy);
        return CAASA_ERR_MEMORY;
    }
    *out = (caasa_certs *)copy;
    return CAASA_OK;
}

caasa_status caasa_pkcs7_content(const caasa_pkcs7 *message, caasa_buffer *out) {
    ERR_clear_error();
    PKCS7 *p7 = caasa_p7(message);
    if (!PKCS7_type_is_signed(p7)) return CAASA_ERR_NOT_SIGNED_DATA;
    ASN1_OCTET_STRING *content = caasa_embedded_content(p7);
    if (content == NULL) return CAASA_ERR_NO_CONTENT;
    return caasa_buffer_from_bytes(ASN1_STRING_get0_data(content), (size_t)ASN1_STRING_length(content), out);
}

/// Maps the PKCS7 library's reason codes to a status. PKCS7_verify raises a generic
/// SIGNATURE_FAILURE last, after the more precise DIGEST_FAILURE (signed attributes whose
/// messageDigest does not match the content), so DIGEST_FAILURE anywhere on the queue wins.
/// `codes` holds the queue, oldest first.
static caasa_status caasa_verify_failure_from(const unsigned long *codes, int count) {
    caasa_status status = CAASA_ERR_VERIFY;
    for (int i = 0; i < count; i++) {
        unsigned long err = codes[i];
        int lib = ERR_GET_LIB(err), reason = ERR_GET_REASON(err);
        if (lib == ERR_LIB_PKCS7 && reason == PKCS7_R_DIGEST_FAILURE) return CAASA_ERR_CONTENT_DIGEST_MISMATCH;
        if (lib == ERR_LIB_PKCS7) {
            switch (reason) {
                case PKCS7_R_SIGNER_CERTIFICATE_NOT_FOUND: status = CAASA_ERR_SIGNER_NOT_FOUND; break;
                case PKCS7_R_SIGNATURE_FAILURE: status = CAASA_ERR_BAD_SIGNATURE; break;
                case PKCS7_R_NO_CONTENT: status = CAASA_ERR_NO_CONTENT; break;
                case PKCS7_R_NO_SIGNATURES_ON_DATA: status = CAASA_ERR_NO_SIGNERS; break;
                case PKCS7_R_WRONG_CONTENT_TYPE: status = CAASA_ERR_NOT_SIGNED_DATA; break;
                case PKCS7_R_UNKNOWN_DIGEST_TYPE:
                case PKCS7_R_UNSUPPORTED_CIPHER_TYPE: return CAASA_ERR_UNSUPPORTED_ALGORITHM;
                default: break;
            }
        } else if (status == CAASA_ERR_VERIFY && (lib == ERR_LIB_RSA || lib == ERR_LIB_EC || lib == ERR_LIB_EVP)) {
            // A signature that is not even well-formed (wrong length, bad padding) is still a bad signature.
            status = CAASA_ERR_BAD_SIGNATURE;
        }
    }
    return status;
}

/// Classifies the failure on this thread's error queue and leaves the queue as it was (the
/// entries are popped, classified, and raised again). Every string of an entry is copied first:
/// OpenSSL 3 owns heap copies of the text, file and function names in each queue slot and
/// frees or reuses them when an entry is raised again.
static caasa_status caasa_verify_failure(void) {
    enum { MAX_ENTRIES = 16 };
    struct {
        unsigned long code;
        int line;
        char file[192];
        char func[96];
        char text[256];
    } entries[MAX_ENTRIES];
    unsigned long codes[MAX_ENTRIES];
    int count = 0;
    const char *file = NULL, *func = NULL, *data = NULL;
    int line = 0, flags = 0;
    unsigned long err;
    while (count < MAX_ENTRIES && (err = ERR_get_error_all(&file, &line, &func, &data, &flags)) != 0) {
        entries[count].code = err;
        entries[count].line = line;
        caasa_copy_string(entries[count].file, sizeof entries[count].file, file);
        caasa_copy_string(entries[count].func, sizeof entries[count].func, func);
        caasa_copy_string(entries[count].text, sizeof entries[count].text, (flags & ERR_TXT_STRING) ? data : "");
        codes[count++] = err;
    }
    ERR_clear_error();
    caasa_status status = caasa_verify_failure_from(codes, count);
    for (int i = 0; i < count; i++) {
        ERR_new();
        ERR_set_debug(entries[i].file, entries[i].line, entries[i].func);
        if (entries[i].text[0] != '\0')
            ERR_set_error(ERR_GET_LIB(entries[i].code), ERR_GET_REASON(entries[i].code), "%s", entries[i].text);
        else
            ERR_set_error(ERR_GET_LIB(entries[i].code), ERR_GET_REASON(entries[i].code), NULL);
    }
    return status;
}

/// CAASA_OK when OpenSSL can check SignerInfo `index`'s algorithms with the PKCS#7 API;
/// otherwise CAASA_ERR_UNSUPPORTED_ALGORITHM, explained.
static caasa_status caasa_check_algorithms(PKCS7_SIGNER_INFO *info, int index) {
    X509_ALGOR *digest = NULL, *signature = NULL;
    PKCS7_SIGNER_INFO_get0_algs(info, NULL, &digest, &signature);
    const ASN1_OBJECT *object = NULL;
    char name[160];
    X509_ALGOR_get0(&object, NULL, NULL, digest);
    int digest_nid = OBJ_obj2nid(object);
    // EVP_MD_fetch takes a lock and a property query: remember the last digest that worked on
    // this thread (a batch uses one digest throughout).
    static _Thread_local int fetched_nid = NID_undef;
    EVP_MD *md = NULL;
    if (digest_nid != NID_undef && digest_nid != fetched_nid) {
        ERR_set_mark();
        md = EVP_MD_fetch(NULL, OBJ_nid2sn(digest_nid), NULL);
        ERR_pop_to_mark();
        if (md != NULL) fetched_nid = digest_nid;
        EVP_MD_free(md);
    }
    if (digest_nid == NID_undef || digest_nid != fetched_nid) {
        caasa_explain("SignerInfo %d uses the digest algorithm %s, which OpenSSL cannot compute", index + 1,
                      caasa_describe_object(object, name, sizeof name));
        return CAASA_ERR_UNSUPPORTED_ALGORITHM;
    }
    X509_ALGOR_get0(&object, NULL, NULL, signature);
    int key_nid = OBJ_obj2nid(object), signature_digest = NID_undef;
    if (key_nid != NID_undef) OBJ_find_sigid_algs(key_nid, &signature_digest, &key_nid);
    switch (key_nid) {
        case NID_rsaEncryption:
        case NID_rsa:
        case NID_dsa:
        case NID_dsa_2:
        case NID_X9_62_id_ecPublicKey: return CAASA_OK;
        default:
            caasa_explain("SignerInfo %d uses the signature algorithm %s, which the PKCS#7 verifier cannot check "
                          "(it checks RSA, DSA and ECDSA)",
                          index + 1, caasa_describe_object(object, name, sizeof name));
            return CAASA_ERR_UNSUPPORTED_ALGORITHM;
    }
}

/// A time as RFC 5652 §11.3 wants a signingTime: well-formed, in UTC with seconds and no
/// fraction (YYMMDDHHMMSSZ or YYYYMMDDHHMMSSZ), UTCTime for the years 1950 to 2049.
static const char *caasa_signing_time_problem(const ASN1_TYPE *value) {
    if (value->type != V_ASN1_UTCTIME && value->type != V_ASN1_GENERALIZEDTIME)
        return "the signingTime attribute is neither UTCTime nor GeneralizedTime";
    const ASN1_TIME *time = value->type == V_ASN1_UTCTIME ? value->value.utctime : value->value.generalizedtime;
    const unsigned char *text = ASN1_STRING_get0_data(time);
    int length = ASN1_STRING_length(time);
    int expected = value->type == V_ASN1_UTCTIME ? 13 : 15;
    if (length != expected || text[length - 1] != 'Z' || !ASN1_TIME_check(time))
        return value->type == V_ASN1_UTCTIME ? "the signingTime attribute is not a valid UTCTime (YYMMDDHHMMSSZ)"
                                             : "the signingTime attribute is not a valid GeneralizedTime (YYYYMMDDHHMMSSZ)";
    if (value->type == V_ASN1_GENERALIZEDTIME) {
        int year = (text[0] - '0') * 1000 + (text[1] - '0') * 100 + (text[2] - '0') * 10 + (text[3] - '0');
        if (year >= 1950 && year <= 2049)
            return "the signingTime attribute is a GeneralizedTime for a year from 1950 to 2049, which must be a UTCTime";
    }
    return NULL;
}

/// RFC 5652 §5.3 and §11 on SignerInfo `index`'s signed attributes, when it has any:
/// CAASA_ERR_SIGNED_ATTRIBUTES naming the rule, or CAASA_OK.
static caasa_status caasa_check_signed_attributes(PKCS7_SIGNER_INFO *info, const ASN1_OBJECT *content_type,
                                                  int index) {
    STACK_OF(X509_ATTRIBUTE) *attributes = PKCS7_get_signed_attributes(info);
    int count = sk_X509_ATTRIBUTE_num(attributes);
    if (count <= 0) return CAASA_OK;
    int content_types = 0, digests = 0, times = 0;
    char want[160], got[160];
    for (int i = 0; i < count; i++) {
        int nid = OBJ_obj2nid(X509_ATTRIBUTE_get0_object(sk_X509_ATTRIBUTE_value(attributes, i)));
        content_types += nid == NID_pkcs9_contentType;
        digests += nid == NID_pkcs9_messageDigest;
        times += nid == NID_pkcs9_signingTime;
    }
    if (content_types != 1 || digests != 1 || times > 1) {
        const char *name = content_types != 1 ? "contentType" : digests != 1 ? "messageDigest" : "signingTime";
        int found = content_types != 1 ? content_types : digests != 1 ? digests : times;
        if (found == 0)
            caasa_explain("SignerInfo %d has signed attributes but no %s attribute; RFC 5652 §5.3 requires one", index + 1,
                          name);
        else
            caasa_explain("SignerInfo %d has %d %s attributes; RFC 5652 §11 allows only one", index + 1, found, name);
        return CAASA_ERR_SIGNED_ATTRIBUTES;
    }
    for (int i = 0; i < count; i++) {
        X509_ATTRIBUTE *attribute = sk_X509_ATTRIBUTE_value(attributes, i);
        int nid = OBJ_obj2nid(X509_ATTRIBUTE_get0_object(attribute));
        int values = X509_ATTRIBUTE_count(attribute);
        ASN1_TYPE *value = values > 0 ? X509_ATTRIBUTE_get0_type(attribute, 0) : NULL;
        const char *name = nid == NID_pkcs9_contentType ? "contentType"
                           : nid == NID_pkcs9_messageDigest ? "messageDigest"
                           : nid == NID_pkcs9_signingTime ? "signingTime" : NULL;
        const char *section = nid == NID_pkcs9_contentType ? "11.1" : nid == NID_pkcs9_messageDigest ? "11.2" : "11.3";
        if (name == NULL) continue;
        if (values != 1) {
            caasa_explain("SignerInfo %d's %s attribute has %d values; RFC 5652 §%s allows exactly one", index + 1, name,
                          values, section);
            return CAASA_ERR_SIGNED_ATTRIBUTES;
        }
        if (nid == NID_pkcs9_contentType) {
            if (value->type != V_ASN1_OBJECT) {
                caasa_explain("SignerInfo %d's contentType attribute is not an object identifier (RFC 5652 §11.1)",
                              index + 1);
                return CAASA_ERR_SIGNED_ATTRIBUTES;
            }
            if (OBJ_cmp(value->value.object, content_type) != 0) {
                caasa_explain("SignerInfo %d's contentType attribute says %s, but the signed content is %s; RFC 5652 "
                              "§5.3 requires them to be the same",
                              index + 1, caasa_describe_object(value->value.object, got, sizeof got),
                              caasa_describe_object(content_type, want, sizeof want));
                return CAASA_ERR_SIGNED_ATTRIBUTES;
            }
        } else if (nid == NID_pkcs9_messageDigest) {
            if (value->type != V_ASN1_OCTET_STRING) {
                caasa_explain("SignerInfo %d's messageDigest attribute is not an OCTET STRING (RFC 5652 §11.2)", index + 1);
                return CAASA_ERR_SIGNED_ATTRIBUTES;
            }
        } else {
            const char *problem = caasa_signing_time_problem(value);
            if (problem != NULL) {
                caasa_explain("SignerInfo %d: %s (RFC 5652 §11.3)", index + 1, problem);
                return CAASA_ERR_SIGNED_ATTRIBUTES;
            }
        }
    }
    return CAASA_OK;
}

caasa_status caasa_pkcs7_verify_signature(const caasa_pkcs7 *message, const caasa_certs *extra, int allow_weak,
                                          caasa_policy_report *report, caasa_buffer *content_out,
                                          caasa_certs **signers_out) {
    ERR_clear_error();
    memset(report, 0, sizeof *report);
    PKCS7 *p7 = caasa_p7(message);
    if (!PKCS7_type_is_signed(p7) || p7->d.sign == NULL) return CAASA_ERR_NOT_SIGNED_DATA;
    STACK_OF(PKCS7_SIGNER_INFO) *infos = PKCS7_get_signer_info(p7);
    int signer_count = sk_PKCS7_SIGNER_INFO_num(infos);
    if (signer_count <= 0) return CAASA_ERR_NO_SIGNERS;
    if (caasa_embedded_content(p7) == NULL) return CAASA_ERR_NO_CONTENT;

    // Before any signature: algorithms OpenSSL can check, RFC 5652 signed attributes, policy.
    for (int i = 0; i < signer_count; i++) {
        caasa_status status = caasa_check_algorithms(sk_PKCS7_SIGNER_INFO_value(infos, i), i);
        if (status != CAASA_OK) return status;
    }
    for (int i = 0; i < signer_count; i++) {
        caasa_status status =
            caasa_check_signed_attributes(sk_PKCS7_SIGNER_INFO_value(infos, i), p7->d.sign->contents->type, i);
        if (status != CAASA_OK) return status;
    }
    int refused = 0;
    for (int i = 0; i < signer_count; i++) refused |= caasa_policy_check_signer_info(message, (size_t)i, allow_weak, report);
    if (refused) return CAASA_ERR_WEAK_ALGORITHM;

    // Signer lookup order: the message's own certificates first, then `extra`. OpenSSL searches
    // its `certs` argument before the message, so a caller's extra certificate with the same
    // issuer and serial would otherwise displace the signer the file actually carries.
    STACK_OF(X509) *candidates = sk_X509_new_null();
    BIO *content = BIO_new(BIO_s_mem());
    STACK_OF(X509) *owned = sk_X509_new_null();
    STACK_OF(X509) *signers = NULL;
    caasa_status status = CAASA_OK;
    if (candidates == NULL || content == NULL || owned == NULL
        || (p7->d.sign->cert != NULL && !X509_add_certs(candidates, p7->d.sign->cert, X509_ADD_FLAG_UP_REF))
        || (extra != NULL && !X509_add_certs(candidates, caasa_stack(extra), X509_ADD_FLAG_UP_REF))) {
        status = CAASA_ERR_MEMORY;
        goto done;
    }
    // NOVERIFY: the signatures only; the chain is checked separately (caasa_verify_chain) so
    // that a bad signature and an untrusted signer get different verdicts. BINARY: return the
    // content bytes exactly as embedded. NOINTERN: look signers up in `candidates` only.
    const int flags = PKCS7_NOVERIFY | PKCS7_BINARY | PKCS7_NOINTERN;
    if (PKCS7_verify(p7, candidates, NULL, NULL, content, flags) == 1) goto verified;
    // Failed. A signer key OpenSSL cannot use is not a bad signature: DSA whose parameters are
    // inherited from the issuer (RFC 3279) cannot be checked on its own.
    ERR_set_mark();
    signers = PKCS7_get0_signers(p7, candidates, PKCS7_NOINTERN);
    ERR_pop_to_mark();  // a signer not found is reported from PKCS7_verify's errors below
    for (int i = 0; signers != NULL && i < sk_X509_num(signers); i++) {
        X509 *signer = sk_X509_value(signers, i);
        ERR_set_mark();
        EVP_PKEY *key = X509_get0_pubkey(signer);
        ERR_pop_to_mark();
        if (key != NULL && !EVP_PKEY_missing_parameters(key)) continue;
        // Which algorithm, and are its parameters absent (inherited, RFC 3279 §2.3.2)?
        ASN1_OBJECT *algorithm = NULL;
        X509_ALGOR *parameters = NULL;
        int parameter_type = V_ASN1_UNDEF;
        X509_PUBKEY_get0_param(&algorithm, NULL, NULL, &parameters, X509_get_X509_PUBKEY(signer));
        if (parameters != NULL) X509_ALGOR_get0(NULL, &parameter_type, NULL, parameters);
        char name[160];
        caasa_describe_object(algorithm, name, sizeof name);
        if (parameter_type == V_ASN1_UNDEF || parameter_type == V_ASN1_NULL || (key != NULL && EVP_PKEY_missing_parameters(key)))
            caasa_explain("SignerInfo %d's certificate has a %s key without parameters (inherited from its issuer), "
                          "which OpenSSL cannot verify with",
                          i + 1, name);
        else
            caasa_explain("SignerInfo %d's certificate has a %s key that OpenSSL cannot decode", i + 1, name);
        status = CAASA_ERR_UNSUPPORTED_ALGORITHM;
        goto done;
    }
    sk_X509_free(signers);
    signers = NULL;
    status = caasa_verify_failure();
    goto done;

verified:
    signers = PKCS7_get0_signers(p7, candidates, PKCS7_NOINTERN);
    if (signers == NULL) {
        status = caasa_verify_failure();
        goto done;
    }
    if (!X509_add_certs(owned, signers, X509_ADD_FLAG_UP_REF)) {
        status = CAASA_ERR_MEMORY;
        goto done;
    }
    status = caasa_buffer_from_bio(content, content_out);
    if (status == CAASA_OK) {
        *signers_out = (caasa_certs *)owned;
        owned = NULL;
    }

done:
    sk_X509_free(signers);  // get0: the certificates belong to `candidates`
    caasa_stack_free(owned);
    caasa_stack_free(candidates);
    BIO_free(content);
    return status;
}
