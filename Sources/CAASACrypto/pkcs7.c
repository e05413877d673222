// Parsing, describing and signature-checking PKCS#7 messages.
#include "internal.h"

/// True when everything after a DER structure is ASCII white space or NUL padding.
static int caasa_only_padding(const unsigned char *cursor, const unsigned char *end) {
    for (; cursor < end; cursor++)
        if (*cursor != '\n' && *cursor != '\r' && *cursor != ' ' && *cursor != '\t' && *cursor != 0) return 0;
    return 1;
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
    if (p7 == NULL) return CAASA_ERR_PKCS7_DECODE;
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
    BIO_free(bio);
    return status;
}

static caasa_status caasa_parse_smime(const void *data, size_t length, PKCS7 **out) {
    BIO *bio = caasa_bio_from(data, length);
    if (bio == NULL) return CAASA_ERR_MEMORY;
    BIO *detached_content = NULL;
    PKCS7 *p7 = SMIME_read_PKCS7(bio, &detached_content);
    BIO_free(detached_content);  // multipart/signed: the message itself reports no content
    BIO_free(bio);
    if (p7 == NULL) return CAASA_ERR_PKCS7_DECODE;
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

caasa_status caasa_pkcs7_summarize(const caasa_pkcs7 *message, caasa_pkcs7_summary *out) {
    ERR_clear_error();
    PKCS7 *p7 = caasa_p7(message);
    memset(out, 0, sizeof *out);
    char scratch[64];
    caasa_copy_string(out->type, sizeof out->type, caasa_object_name(p7->type, scratch, sizeof scratch));
    if (!PKCS7_type_is_signed(p7) || p7->d.sign == NULL) return CAASA_OK;
    out->is_signed_data = 1;
    PKCS7_SIGNED *signed_data = p7->d.sign;
    if (signed_data->contents != NULL && signed_data->contents->type != NULL)
        caasa_copy_string(out->content_type, sizeof out->content_type,
                          caasa_object_name(signed_data->contents->type, scratch, sizeof scratch));
    out->has_content = caasa_embedded_content(p7) != NULL;
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

caasa_status caasa_pkcs7_verify_signature(const caasa_pkcs7 *message, const caasa_certs *extra,
                                          caasa_buffer *content_out, caasa_certs **signers_out) {
    ERR_clear_error();
    PKCS7 *p7 = caasa_p7(message);
    if (!PKCS7_type_is_signed(p7) || p7->d.sign == NULL) return CAASA_ERR_NOT_SIGNED_DATA;
    if (sk_PKCS7_SIGNER_INFO_num(PKCS7_get_signer_info(p7)) <= 0) return CAASA_ERR_NO_SIGNERS;
    if (caasa_embedded_content(p7) == NULL) return CAASA_ERR_NO_CONTENT;

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
    if (PKCS7_verify(p7, candidates, NULL, NULL, content, flags) != 1) {
        status = caasa_verify_failure();
        goto done;
    }
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
