// Lists of X.509 certificates: loading, describing, matching.
#include "internal.h"

static caasa_status caasa_load_pem_certs(const void *data, size_t length, STACK_OF(X509) *stack) {
    BIO *bio = caasa_bio_from(data, length);
    if (bio == NULL) return CAASA_ERR_MEMORY;
    caasa_status status = CAASA_OK;
    for (;;) {
        X509 *cert = PEM_read_bio_X509(bio, NULL, NULL, NULL);
        if (cert == NULL) {
            unsigned long err = ERR_peek_last_error();
            if (ERR_GET_LIB(err) == ERR_LIB_PEM && ERR_GET_REASON(err) == PEM_R_NO_START_LINE) {
                ERR_clear_error();  // the normal end of the text
            } else {
                status = CAASA_ERR_CERT_DECODE;
            }
            break;
        }
        if (!sk_X509_push(stack, cert)) {
            X509_free(cert);
            status = CAASA_ERR_MEMORY;
            break;
        }
    }
    BIO_free(bio);
    if (status == CAASA_OK && sk_X509_num(stack) == 0) status = CAASA_ERR_NO_CERTIFICATES;
    return status;
}

static caasa_status caasa_load_der_certs(const void *data, size_t length, STACK_OF(X509) *stack) {
    const unsigned char *cursor = data;
    const unsigned char *end = cursor + length;
    while (cursor < end) {
        X509 *cert = d2i_X509(NULL, &cursor, (long)(end - cursor));
        if (cert == NULL) return CAASA_ERR_CERT_DECODE;
        if (!sk_X509_push(stack, cert)) {
            X509_free(cert);
            return CAASA_ERR_MEMORY;
        }
    }
    return sk_X509_num(stack) > 0 ? CAASA_OK : CAASA_ERR_NO_CERTIFICATES;
}

caasa_status caasa_certs_load(const void *data, size_t length, caasa_certs **out) {
    ERR_clear_error();
    if (data == NULL || length == 0) return CAASA_ERR_NO_CERTIFICATES;
    if (length > LONG_MAX) return CAASA_ERR_INVALID_ARGUMENT;
    STACK_OF(X509) *stack = sk_X509_new_null();
    if (stack == NULL) return CAASA_ERR_MEMORY;
    caasa_status status = caasa_looks_like_pem(data, length) ? caasa_load_pem_certs(data, length, stack)
                                                             : caasa_load_der_certs(data, length, stack);
    if (status != CAASA_OK) {
        caasa_stack_free(stack);
        return status;
    }
    *out = (caasa_certs *)stack;
    return CAASA_OK;
}

caasa_certs *caasa_certs_new(void) { return (caasa_certs *)sk_X509_new_null(); }

caasa_status caasa_certs_append(caasa_certs *list, const caasa_certs *source, size_t index) {
    ERR_clear_error();
    STACK_OF(X509) *src = caasa_stack(source);
    if (index >= (size_t)sk_X509_num(src)) return CAASA_ERR_INVALID_ARGUMENT;
    X509 *cert = sk_X509_value(src, (int)index);
    if (!X509_add_cert(caasa_stack(list), cert, X509_ADD_FLAG_UP_REF)) return CAASA_ERR_MEMORY;
    return CAASA_OK;
}

size_t caasa_certs_count(const caasa_certs *list) {
    int n = sk_X509_num(caasa_stack(list));
    return n > 0 ? (size_t)n : 0;
}

void caasa_certs_free(caasa_certs *list) {
    if (list != NULL) caasa_stack_free(caasa_stack(list));
}

const void *caasa_certs_identity(const caasa_certs *list, size_t index) {
    STACK_OF(X509) *stack = caasa_stack(list);
    if (index >= (size_t)sk_X509_num(stack)) return NULL;
    return sk_X509_value(stack, (int)index);
}

static X509 *caasa_cert_at(const caasa_certs *list, size_t index) {
    STACK_OF(X509) *stack = caasa_stack(list);
    if (index >= (size_t)sk_X509_num(stack)) return NULL;
    return sk_X509_value(stack, (int)index);
}

caasa_status caasa_certs_der(const caasa_certs *list, size_t index, caasa_buffer *out) {
    ERR_clear_error();
    X509 *cert = caasa_cert_at(list, index);
    if (cert == NULL) return CAASA_ERR_INVALID_ARGUMENT;
    unsigned char *der = NULL;
    int length = i2d_X509(cert, &der);
    if (length < 0) return CAASA_ERR_ENCODE;
    caasa_status status = caasa_buffer_from_bytes(der, (size_t)length, out);
    OPENSSL_free(der);
    return status;
}

caasa_status caasa_certs_ca_issuer(const caasa_certs *list, size_t index, size_t position,
                                   size_t *count_out, caasa_buffer *out) {
    ERR_clear_error();
    *count_out = 0;
    X509 *cert = caasa_cert_at(list, index);
    if (cert == NULL) return CAASA_ERR_INVALID_ARGUMENT;
    AUTHORITY_INFO_ACCESS *access = X509_get_ext_d2i(cert, NID_info_access, NULL, NULL);
    if (access == NULL) {
        ERR_clear_error();  // absent, or unreadable: no URI either way
        return CAASA_ERR_INVALID_ARGUMENT;
    }
    caasa_status status = CAASA_ERR_INVALID_ARGUMENT;
    size_t count = 0;
    for (int i = 0; i < sk_ACCESS_DESCRIPTION_num(access); i++) {
        ACCESS_DESCRIPTION *description = sk_ACCESS_DESCRIPTION_value(access, i);
        if (OBJ_obj2nid(description->method) != NID_ad_ca_issuers) continue;
        if (description->location == NULL || description->location->type != GEN_URI) continue;
        ASN1_IA5STRING *uri = description->location->d.uniformResourceIdentifier;
        if (count == position) {
            status = caasa_buffer_from_bytes(ASN1_STRING_get0_data(uri), (size_t)ASN1_STRING_length(uri), out);
        }
        count++;
    }
    AUTHORITY_INFO_ACCESS_free(access);
    *count_out = count;
    return status;
}

int caasa_certs_check_host(const caasa_certs *list, size_t index, const char *host) {
    ERR_clear_error();
    X509 *cert = caasa_cert_at(list, index);
    if (cert == NULL) return -1;
    int result = X509_check_host(cert, host, 0,
                                 X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS | X509_CHECK_FLAG_NEVER_CHECK_SUBJECT,
                                 NULL);
    return result < 0 ? -1 : result;
}

int caasa_certs_match_key(const caasa_certs *list, size_t index, const caasa_key *key) {
    ERR_clear_error();
    X509 *cert = caasa_cert_at(list, index);
    if (cert == NULL) return 0;
    EVP_PKEY *public_key = X509_get0_pubkey(cert);
    int result = public_key != NULL && EVP_PKEY_eq(public_key, caasa_pkey(key)) == 1;
    ERR_clear_error();
    return result;
}

static int64_t caasa_unix_time(const ASN1_TIME *time) {
    int days = 0, seconds = 0;
    ASN1_TIME *epoch = ASN1_TIME_set(NULL, 0);
    if (epoch == NULL) return 0;
    int ok = ASN1_TIME_diff(&days, &seconds, epoch, time);
    ASN1_TIME_free(epoch);
    return ok ? (int64_t)days * 86400 + seconds : 0;
}

static char *caasa_strdup(const char *s) { return s != NULL ? OPENSSL_strdup(s) : NULL; }

/// Appends `text` plus a '\n' separator to a BIO.
static void caasa_append_line(BIO *bio, const char *prefix, const char *text, int length) {
    if (BIO_pending(bio) > 0) BIO_write(bio, "\n", 1);
    BIO_puts(bio, prefix);
    BIO_write(bio, text, length);
}

/// The BIO's text as a malloc'd string, or NULL when it is empty.
static char *caasa_bio_string(BIO *bio) {
    char *bytes = NULL;
    long length = BIO_get_mem_data(bio, &bytes);
    if (length <= 0) return NULL;
    char *result = OPENSSL_malloc((size_t)length + 1);
    if (result == NULL) return NULL;
    memcpy(result, bytes, (size_t)length);
    result[length] = '\0';
    return result;
}

static char *caasa_subject_alt_names(X509 *cert) {
    GENERAL_NAMES *names = X509_get_ext_d2i(cert, NID_subject_alt_name, NULL, NULL);
    if (names == NULL) return NULL;
    BIO *bio = BIO_new(BIO_s_mem());
    char *result = NULL;
    if (bio != NULL) {
        for (int i = 0; i < sk_GENERAL_NAME_num(names); i++) {
            const GENERAL_NAME *name = sk_GENERAL_NAME_value(names, i);
            const ASN1_STRING *value = NULL;
            const char *prefix = NULL;
            switch (name->type) {
                case GEN_DNS: prefix = "DNS:"; value = name->d.dNSName; break;
                case GEN_EMAIL: prefix = "email:"; value = name->d.rfc822Name; break;
                case GEN_URI: prefix = "URI:"; value = name->d.uniformResourceIdentifier; break;
                case GEN_IPADD: {
                    char *ip = OPENSSL_buf2hexstr(name->d.iPAddress->data, name->d.iPAddress->length);
                    const unsigned char *b = name->d.iPAddress->data;
                    char text[64];
                    if (name->d.iPAddress->length == 4) {
                        snprintf(text, sizeof text, "%d.%d.%d.%d", b[0], b[1], b[2], b[3]);
                        caasa_append_line(bio, "IP:", text, (int)strlen(text));
                    } else if (ip != NULL) {
                        caasa_append_line(bio, "IP:", ip, (int)strlen(ip));
                    }
                    OPENSSL_free(ip);
                    continue;
                }
                default: continue;
            }
            caasa_append_line(bio, prefix, (const char *)ASN1_STRING_get0_data(value), ASN1_STRING_length(value));
        }
        result = caasa_bio_string(bio);
        BIO_free(bio);
    }
    GENERAL_NAMES_free(names);
    return result;
}

static char *caasa_extended_key_usage(X509 *cert) {
    EXTENDED_KEY_USAGE *usage = X509_get_ext_d2i(cert, NID_ext_key_usage, NULL, NULL);
    if (usage == NULL) return NULL;
    BIO *bio = BIO_new(BIO_s_mem());
    char *result = NULL;
    if (bio != NULL) {
        for (int i = 0; i < sk_ASN1_OBJECT_num(usage); i++) {
            char text[128];
            const ASN1_OBJECT *object = sk_ASN1_OBJECT_value(usage, i);
            int nid = OBJ_obj2nid(object);
            if (nid != NID_undef) caasa_copy_string(text, sizeof text, OBJ_nid2sn(nid));
            else OBJ_obj2txt(text, sizeof text, object, 1);
            caasa_append_line(bio, "", text, (int)strlen(text));
        }
        result = caasa_bio_string(bio);
        if (result == NULL) result = OPENSSL_strdup("");  // present but empty
        BIO_free(bio);
    }
    EXTENDED_KEY_USAGE_free(usage);
    return result;
}

caasa_status caasa_certs_info(const caasa_certs *list, size_t index, caasa_cert_info **out) {
    ERR_clear_error();
    X509 *cert = caasa_cert_at(list, index);
    if (cert == NULL) return CAASA_ERR_INVALID_ARGUMENT;
    caasa_cert_info *info = OPENSSL_zalloc(sizeof *info);
    if (info == NULL) return CAASA_ERR_MEMORY;

    info->subject = caasa_name_string(X509_get_subject_name(cert));
    info->issuer = caasa_name_string(X509_get_issuer_name(cert));
    info->serial = caasa_serial_string(X509_get0_serialNumber(cert));
    info->not_before = caasa_unix_time(X509_get0_notBefore(cert));
    info->not_after = caasa_unix_time(X509_get0_notAfter(cert));
    info->dns_names = caasa_subject_alt_names(cert);
    info->key_usage_ext = caasa_extended_key_usage(cert);

    EVP_PKEY *pkey = X509_get0_pubkey(cert);
    info->key_type = caasa_strdup(pkey != NULL ? EVP_PKEY_get0_type_name(pkey) : "unknown");
    info->key_bits = pkey != NULL ? EVP_PKEY_get_bits(pkey) : 0;
    if (pkey != NULL && EVP_PKEY_is_a(pkey, "EC")) {
        char curve[80];
        size_t curve_length = 0;
        if (EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_GROUP_NAME, curve, sizeof curve, &curve_length))
            info->curve = caasa_strdup(curve);
    }
    int signature_nid = X509_get_signature_nid(cert);
    info->signature_algorithm = caasa_strdup(signature_nid != NID_undef ? OBJ_nid2ln(signature_nid) : "unknown");
    info->is_ca = X509_check_ca(cert) > 0;
    info->self_signed = X509_self_signed(cert, 1) == 1;

    unsigned int digest_length = 0;
    X509_digest(cert, EVP_sha256(), info->sha256, &digest_length);
    X509_digest(cert, EVP_sha1(), info->sha1, &digest_length);
    ERR_clear_error();  // X509_self_signed may leave entries for a bad self-signature

    if (info->subject == NULL || info->issuer == NULL || info->serial == NULL || info->key_type == NULL
        || info->signature_algorithm == NULL) {
        caasa_cert_info_free(info);
        return CAASA_ERR_MEMORY;
    }
    *out = info;
    return CAASA_OK;
}

void caasa_cert_info_free(caasa_cert_info *info) {
    if (info == NULL) return;
    OPENSSL_free(info->subject);
    OPENSSL_free(info->issuer);
    OPENSSL_free(info->serial);
    OPENSSL_free(info->dns_names);
    OPENSSL_free(info->key_usage_ext);
    OPENSSL_free(info->key_type);
    OPENSSL_free(info->curve);
    OPENSSL_free(info->signature_algorithm);
    OPENSSL_free(info);
}
