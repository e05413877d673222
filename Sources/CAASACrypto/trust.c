// Trust anchors and certificate chain verification.
#include "internal.h"

caasa_trust *caasa_trust_new(void) { return (caasa_trust *)X509_STORE_new(); }

void caasa_trust_free(caasa_trust *trust) { X509_STORE_free(caasa_store(trust)); }

caasa_status caasa_trust_add_certs(caasa_trust *trust, const caasa_certs *certs) {
    ERR_clear_error();
    STACK_OF(X509) *stack = caasa_stack(certs);
    for (int i = 0; i < sk_X509_num(stack); i++) {
        // X509_STORE_add_cert takes its own reference and ignores exact duplicates.
        if (!X509_STORE_add_cert(caasa_store(trust), sk_X509_value(stack, i))) return CAASA_ERR_TRUST_LOAD;
    }
    return CAASA_OK;
}

caasa_status caasa_trust_add_directory(caasa_trust *trust, const char *path) {
    ERR_clear_error();
    return X509_STORE_load_path(caasa_store(trust), path) ? CAASA_OK : CAASA_ERR_TRUST_LOAD;
}

static caasa_chain_failure caasa_classify(int error) {
    switch (error) {
        case X509_V_OK: return CAASA_CHAIN_OK;
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
        case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
        case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
        case X509_V_ERR_CERT_UNTRUSTED:
        case X509_V_ERR_CERT_REJECTED:
        case X509_V_ERR_CERT_CHAIN_TOO_LONG:
        case X509_V_ERR_PATH_LENGTH_EXCEEDED:
        case X509_V_ERR_INVALID_CA:
        case X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY:
            return CAASA_CHAIN_UNTRUSTED;
        case X509_V_ERR_CERT_HAS_EXPIRED: return CAASA_CHAIN_EXPIRED;
        case X509_V_ERR_CERT_NOT_YET_VALID: return CAASA_CHAIN_NOT_YET_VALID;
        case X509_V_ERR_INVALID_PURPOSE: return CAASA_CHAIN_WRONG_PURPOSE;
        case X509_V_ERR_HOSTNAME_MISMATCH: return CAASA_CHAIN_HOST_MISMATCH;
        case X509_V_ERR_CERT_SIGNATURE_FAILURE:
        case X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE:
            return CAASA_CHAIN_BAD_CERT_SIGNATURE;
        default: return CAASA_CHAIN_OTHER;
    }
}

static int caasa_purpose_id(caasa_purpose purpose) {
    switch (purpose) {
        case CAASA_PURPOSE_SSL_SERVER: return X509_PURPOSE_SSL_SERVER;
        case CAASA_PURPOSE_SMIME_SIGN: return X509_PURPOSE_SMIME_SIGN;
        case CAASA_PURPOSE_ANY: break;
    }
    return X509_PURPOSE_ANY;
}

/// Records each problem OpenSSL reports and goes on (the second pass of caasa_verify_chain).
static int caasa_collect_problem(int ok, X509_STORE_CTX *ctx) {
    if (ok) return 1;
    caasa_chain_result *out = X509_STORE_CTX_get_app_data(ctx);
    int error = X509_STORE_CTX_get_error(ctx), depth = X509_STORE_CTX_get_error_depth(ctx);
    if (out == NULL || out->problem_count >= CAASA_CHAIN_PROBLEMS_MAX) return 1;
    for (int i = 0; i < out->problem_count; i++)
        if (out->problems[i].error == error && out->problems[i].depth == depth) return 1;
    out->problems[out->problem_count++] = (caasa_chain_problem){caasa_classify(error), error, depth};
    return 1;
}

/// Sets up `ctx` for `cert` with `params`: purpose, time, partial chains, host.
static caasa_status caasa_chain_context(X509_STORE_CTX *ctx, const caasa_trust *trust, X509 *cert,
                                        const caasa_certs *untrusted, const caasa_chain_params *params) {
    if (!X509_STORE_CTX_init(ctx, caasa_store(trust), cert, untrusted != NULL ? caasa_stack(untrusted) : NULL))
        return CAASA_ERR_MEMORY;
    X509_VERIFY_PARAM *param = X509_STORE_CTX_get0_param(ctx);
    if (!X509_STORE_CTX_set_purpose(ctx, caasa_purpose_id(params->purpose))) return CAASA_ERR_INVALID_ARGUMENT;
    if (params->use_time) X509_VERIFY_PARAM_set_time(param, (time_t)params->time);
    if (params->partial_chain) X509_VERIFY_PARAM_set_flags(param, X509_V_FLAG_PARTIAL_CHAIN);
    if (params->host != NULL) {
        if (!X509_VERIFY_PARAM_set1_host(param, params->host, 0)) return CAASA_ERR_INVALID_ARGUMENT;
        X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS
                                                   | X509_CHECK_FLAG_NEVER_CHECK_SUBJECT);
    }
    return CAASA_OK;
}

/// Every problem of a chain OpenSSL refused: X509_verify_cert again, with a callback that
/// records each error and goes on, so that an untrusted chain also says it has expired. Its
/// result is never a verdict.
static void caasa_collect_problems(const caasa_trust *trust, X509 *cert, const caasa_certs *untrusted,
                                   const caasa_chain_params *params, caasa_chain_result *out) {
    X509_STORE_CTX *ctx = X509_STORE_CTX_new();
    if (ctx == NULL) return;
    if (caasa_chain_context(ctx, trust, cert, untrusted, params) == CAASA_OK) {
        X509_STORE_CTX_set_app_data(ctx, out);
        X509_STORE_CTX_set_verify_cb(ctx, caasa_collect_problem);
        (void)X509_verify_cert(ctx);
        STACK_OF(X509) *chain = X509_STORE_CTX_get1_chain(ctx);
        if (chain != NULL) out->problem_chain = (caasa_certs *)chain;
    }
    X509_STORE_CTX_free(ctx);
    ERR_clear_error();
}

caasa_status caasa_verify_chain(const caasa_trust *trust, const caasa_certs *leaf, size_t index,
                                const caasa_certs *untrusted, const caasa_chain_params *params,
                                caasa_chain_result *out) {
    ERR_clear_error();
    memset(out, 0, sizeof *out);
    STACK_OF(X509) *leaf_stack = caasa_stack(leaf);
    if (index >= (size_t)sk_X509_num(leaf_stack) || params == NULL) return CAASA_ERR_INVALID_ARGUMENT;
    X509 *cert = sk_X509_value(leaf_stack, (int)index);

    X509_STORE_CTX *ctx = X509_STORE_CTX_new();
    if (ctx == NULL) return CAASA_ERR_MEMORY;
    caasa_status status = caasa_chain_context(ctx, trust, cert, untrusted, params);
    if (status != CAASA_OK) goto done;

    int verified = X509_verify_cert(ctx);
    out->error = verified == 1 ? X509_V_OK : X509_STORE_CTX_get_error(ctx);
    if (verified != 1 && out->error == X509_V_OK) out->error = X509_V_ERR_UNSPECIFIED;
    out->failure = caasa_classify(out->error);
    out->error_depth = verified == 1 ? 0 : X509_STORE_CTX_get_error_depth(ctx);
    caasa_copy_string(out->error_string, sizeof out->error_string, X509_verify_cert_error_string(out->error));

    STACK_OF(X509) *chain = X509_STORE_CTX_get1_chain(ctx);
    if (chain != NULL) out->chain = (caasa_certs *)chain;
    X509 *failing = verified == 1 ? NULL : X509_STORE_CTX_get_current_cert(ctx);
    if (verified == 1 && chain != NULL) {
        // The verification policy on the chain as built, then the signer's keyUsage.
        if (caasa_policy_check_chain(out->chain, params->allow_weak, &out->policy)) {
            out->failure = CAASA_CHAIN_WEAK_ALGORITHM;
            for (int i = 0; i < out->policy.count; i++) {
                if (!out->policy.findings[i].refused) continue;
                out->error_depth = out->policy.findings[i].depth;
                break;
            }
            failing = sk_X509_value(chain, out->error_depth);
            caasa_copy_string(out->error_string, sizeof out->error_string, "refused by the verification policy");
        } else if (params->require_digital_signature && (X509_get_extension_flags(cert) & EXFLAG_KUSAGE) != 0
                   && (X509_get_key_usage(cert) & KU_DIGITAL_SIGNATURE) == 0) {
            out->failure = CAASA_CHAIN_KEY_USAGE;
            out->key_usage = (unsigned int)X509_get_key_usage(cert);
            out->error_depth = 0;
            failing = cert;
            caasa_copy_string(out->error_string, sizeof out->error_string, "keyUsage does not allow digitalSignature");
        }
    }
    if (failing != NULL) {
        STACK_OF(X509) *one = sk_X509_new_null();
        if (one != NULL && X509_add_cert(one, failing, X509_ADD_FLAG_UP_REF)) {
            out->error_certificate = (caasa_certs *)one;
        } else {
            sk_X509_free(one);
        }
    }
    ERR_clear_error();  // the verdict is in `out`; the queue holds nothing more useful
    if (verified != 1) caasa_collect_problems(trust, cert, untrusted, params, out);

done:
    X509_STORE_CTX_free(ctx);
    return status;
}

const char *caasa_chain_error_string(int error) {
    const char *text = X509_verify_cert_error_string(error);
    return text != NULL ? text : "unknown error";
}

void caasa_chain_result_clear(caasa_chain_result *result) {
    caasa_certs_free(result->chain);
    caasa_certs_free(result->error_certificate);
    caasa_certs_free(result->problem_chain);
    memset(result, 0, sizeof *result);
}
