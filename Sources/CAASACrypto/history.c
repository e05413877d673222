// What `--historical` verification needs beyond trust.c: a chain built without validity dates
// (which root does it reach, whenever that was) and a SignerInfo's signingTime. Kept apart from
// trust.c and pkcs7.c: nothing here changes how an ordinary verification runs.
#include "internal.h"

#include <time.h>

caasa_status caasa_build_chain_untimed(const caasa_trust *trust, const caasa_certs *leaf, size_t index,
                                       const caasa_certs *untrusted, caasa_chain_result *out) {
    ERR_clear_error();
    memset(out, 0, sizeof *out);
    STACK_OF(X509) *leaf_stack = caasa_stack(leaf);
    if (index >= (size_t)sk_X509_num(leaf_stack)) return CAASA_ERR_INVALID_ARGUMENT;
    X509 *cert = sk_X509_value(leaf_stack, (int)index);
    X509_STORE_CTX *ctx = X509_STORE_CTX_new();
    if (ctx == NULL) return CAASA_ERR_MEMORY;
    caasa_status status = CAASA_OK;
    if (!X509_STORE_CTX_init(ctx, caasa_store(trust), cert, untrusted != NULL ? caasa_stack(untrusted) : NULL)) {
        status = CAASA_ERR_MEMORY;
        goto done;
    }
    // Only the path: no dates (the caller picks the time), any purpose (checked at that time).
    X509_VERIFY_PARAM *param = X509_STORE_CTX_get0_param(ctx);
    X509_VERIFY_PARAM_set_flags(param, X509_V_FLAG_NO_CHECK_TIME);
    if (!X509_STORE_CTX_set_purpose(ctx, X509_PURPOSE_ANY)) {
        status = CAASA_ERR_INVALID_ARGUMENT;
        goto done;
    }
    int verified = X509_verify_cert(ctx);
    out->error = verified == 1 ? X509_V_OK : X509_STORE_CTX_get_error(ctx);
    if (verified != 1 && out->error == X509_V_OK) out->error = X509_V_ERR_UNSPECIFIED;
    switch (out->error) {
        case X509_V_OK: out->failure = CAASA_CHAIN_OK; break;
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
        case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            out->failure = CAASA_CHAIN_UNTRUSTED;  // an issuer is missing: the caller names it
            break;
        case X509_V_ERR_CERT_SIGNATURE_FAILURE:
        case X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE:
            out->failure = CAASA_CHAIN_BAD_CERT_SIGNATURE;
            break;
        default: out->failure = CAASA_CHAIN_OTHER; break;
    }
    out->error_depth = verified == 1 ? 0 : X509_STORE_CTX_get_error_depth(ctx);
    caasa_copy_string(out->error_string, sizeof out->error_string, X509_verify_cert_error_string(out->error));
    STACK_OF(X509) *chain = X509_STORE_CTX_get1_chain(ctx);
    if (chain != NULL) out->chain = (caasa_certs *)chain;
    X509 *failing = verified == 1 ? NULL : X509_STORE_CTX_get_current_cert(ctx);
    if (failing != NULL) {
        STACK_OF(X509) *one = sk_X509_new_null();
        if (one != NULL && X509_add_cert(one, failing, X509_ADD_FLAG_UP_REF)) {
            out->error_certificate = (caasa_certs *)one;
        } else {
            sk_X509_free(one);
        }
    }
done:
    X509_STORE_CTX_free(ctx);
    ERR_clear_error();
    return status;
}

int caasa_pkcs7_signing_time(const caasa_pkcs7 *message, size_t index, int64_t *time) {
    PKCS7 *p7 = caasa_p7(message);
    if (p7 == NULL || !PKCS7_type_is_signed(p7)) return 0;
    STACK_OF(PKCS7_SIGNER_INFO) *infos = PKCS7_get_signer_info(p7);
    if (infos == NULL || index >= (size_t)sk_PKCS7_SIGNER_INFO_num(infos)) return 0;
    ASN1_TYPE *value = PKCS7_get_signed_attribute(sk_PKCS7_SIGNER_INFO_value(infos, (int)index),
                                                  NID_pkcs9_signingTime);
    if (value == NULL) return 0;
    const ASN1_TIME *when = NULL;
    if (value->type == V_ASN1_UTCTIME) when = value->value.utctime;
    if (value->type == V_ASN1_GENERALIZEDTIME) when = value->value.generalizedtime;
    struct tm tm;
    if (when == NULL || !ASN1_TIME_to_tm(when, &tm)) {
        ERR_clear_error();
        return 0;
    }
    *time = (int64_t)timegm(&tm);
    return 1;
}
