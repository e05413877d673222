// Describing and signature-checking parsed PKCS#7 messages (pkcs7_parse.c reads them).
#include "internal.h"

const char *caasa_describe_object(const ASN1_OBJECT *object, char *buffer, size_t size) {
    char oid[80];
    OBJ_obj2txt(oid, sizeof oid, object, 1);
    int nid = OBJ_obj2nid(object);
    if (nid == NID_undef)
        snprintf(buffer, size, "%s", oid);
    else
        snprintf(buffer, size, "%s (%s)", OBJ_nid2ln(nid), oid);
    return buffer;
}


static const char *caasa_object_name(const ASN1_OBJECT *object, char *buffer, size_t size) {
    int nid = OBJ_obj2nid(object);
    if (nid != NID_undef) return OBJ_nid2sn(nid);
    OBJ_obj2txt(buffer, (int)size, object, 1);
    return buffer;
}

ASN1_OCTET_STRING *caasa_embedded_content(PKCS7 *p7) {
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

    // Before any signature: algorithms OpenSSL can check, RFC 5652 §11 attributes, policy.
    for (int i = 0; i < signer_count; i++) {
        caasa_status status = caasa_check_algorithms(sk_PKCS7_SIGNER_INFO_value(infos, i), i);
        if (status != CAASA_OK) return status;
    }
    for (int i = 0; i < signer_count; i++) {
        caasa_status status =
            caasa_check_signer_attributes(sk_PKCS7_SIGNER_INFO_value(infos, i), p7->d.sign->contents->type, i);
        if (status != CAASA_OK) return status;
    }
    int refused = 0;
    for (int i = 0; i < signer_count; i++) refused |= caasa_policy_check_signer_info(message, (size_t)i, allow_weak, report);
    if (refused) return CAASA_ERR_WEAK_ALGORITHM;

    // Signer lookup order: the message's own certificates first, then `extra`. OpenSSL searches
    // its `certs` argument before the message, so a caller's extra certificate with the same
    // issuer and serial would otherwise displace the signer the file actually carries.
    STACK_OF(X509) *candidates = sk_X509_new_null();
    BIO *content = NULL;
    STACK_OF(X509) *owned = sk_X509_new_null();
    STACK_OF(X509) *signers = NULL;
    caasa_status status = CAASA_OK;
    if (candidates == NULL || owned == NULL
        || (p7->d.sign->cert != NULL && !X509_add_certs(candidates, p7->d.sign->cert, X509_ADD_FLAG_UP_REF))
        || (extra != NULL && !X509_add_certs(candidates, caasa_stack(extra), X509_ADD_FLAG_UP_REF))) {
        status = CAASA_ERR_MEMORY;
        goto done;
    }
    // The shape of nearly every file, verified without PKCS7_verify's per-call fetches and
    // locks (quickverify.c); anything else, and any failure, is PKCS7_verify's to judge.
    X509 *quick_signer = NULL;
    ASN1_OCTET_STRING *quick_content = NULL;
    if (caasa_quick_signature_check(p7, candidates, &quick_signer, &quick_content)) {
        if (!X509_add_cert(owned, quick_signer, X509_ADD_FLAG_UP_REF)) {
            status = CAASA_ERR_MEMORY;
            goto done;
        }
        status = caasa_buffer_from_bytes(ASN1_STRING_get0_data(quick_content),
                                         (size_t)ASN1_STRING_length(quick_content), content_out);
        if (status == CAASA_OK) {
            *signers_out = (caasa_certs *)owned;
            owned = NULL;
        }
        goto done;
    }
    if ((content = BIO_new(BIO_s_mem())) == NULL) {
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
