// CAASACrypto: trust stores and certificate chains, the part of the C API that
// ../Verification uses. Included at the end of CAASACrypto.h, whose types it uses.

#ifndef CAASA_TRUST_H
#define CAASA_TRUST_H

#include "CAASACrypto.h"

#if defined(__clang__)
#pragma clang assume_nonnull begin
#endif

#ifdef __cplusplus
extern "C" {
#endif


/// A set of trust anchors (X509_STORE). Safe to share between threads once filled.
typedef struct caasa_trust caasa_trust;

/// A new, empty trust store (NULL when out of memory).
caasa_trust *_Nullable caasa_trust_new(void);

/// Adds the system trust anchors (OpenSSL's default directory and bundle; honours SSL_CERT_DIR and
/// SSL_CERT_FILE), read when a chain needs them: the directory by subject hash, the bundle on the
/// first issuer the directory does not have (systemroots.c).
caasa_status caasa_trust_add_system_roots(caasa_trust *trust);

/// Reads now what the store's lookups would read on their first issuer (the system bundle's
/// index), so that later verifications open fewer files. Nothing is found or added.
void caasa_trust_preload(caasa_trust *trust);

/// Adds every certificate of `certs` as a trust anchor.
caasa_status caasa_trust_add_certs(caasa_trust *trust, const caasa_certs *certs);

/// Adds the concatenated DER certificates `der` as trust anchors that are decoded only when a
/// chain asks for their subject (lazyanchors.c): for hundreds of anchors of which a chain needs
/// one. The bytes are copied. CAASA_ERR_CERT_DECODE (nothing added) when one cannot be read.
caasa_status caasa_trust_add_lazy_anchors(caasa_trust *trust, const void *_Nullable der, size_t length);

/// Adds a directory of hashed certificate names (`openssl rehash`), looked up lazily.
caasa_status caasa_trust_add_directory(caasa_trust *trust, const char *path);

/// Frees the store. NULL is ignored.
void caasa_trust_free(caasa_trust *_Nullable trust);

/// Which X.509 purpose the signer certificate must fit.
typedef enum CAASA_CLOSED_ENUM caasa_purpose {
    CAASA_PURPOSE_ANY = 0,      ///< no extendedKeyUsage requirement
    CAASA_PURPOSE_SSL_SERVER,   ///< a TLS server certificate (what AASA signers are)
    CAASA_PURPOSE_SMIME_SIGN,   ///< an S/MIME signing certificate (OpenSSL smime's default)
} caasa_purpose;

/// How to check a chain.
typedef struct caasa_chain_params {
    caasa_purpose purpose;
    int use_time;                 ///< 1: check validity at `time` instead of now
    int64_t time;                 ///< Unix seconds
    const char *_Nullable host;   ///< require the leaf to be valid for this host name
    int partial_chain;            ///< 1: a trusted intermediate is enough as an anchor
    int allow_weak;               ///< 1: the policy's refusals become warnings (--allow-weak-crypto)
    int require_digital_signature; ///< 1: the leaf's keyUsage, when present, must allow digitalSignature
} caasa_chain_params;

/// Why a chain did not verify, in the terms a user needs.
typedef enum CAASA_CLOSED_ENUM caasa_chain_failure {
    CAASA_CHAIN_OK = 0,
    CAASA_CHAIN_UNTRUSTED,        ///< no path to a trust anchor, or a self-signed certificate
    CAASA_CHAIN_EXPIRED,
    CAASA_CHAIN_NOT_YET_VALID,
    CAASA_CHAIN_WRONG_PURPOSE,
    CAASA_CHAIN_HOST_MISMATCH,
    CAASA_CHAIN_BAD_CERT_SIGNATURE,
    CAASA_CHAIN_OTHER,
    CAASA_CHAIN_WEAK_ALGORITHM,   ///< the verification policy refuses a key or a signature: see `policy`
    CAASA_CHAIN_KEY_USAGE,        ///< the leaf's keyUsage does not allow digitalSignature
} caasa_chain_failure;

/// One problem of a chain that failed (see `caasa_chain_result.problems`).
typedef struct caasa_chain_problem {
    caasa_chain_failure failure;
    int error;                      ///< OpenSSL's X509_V_ERR_* code
    int depth;                      ///< in `problem_chain`, 0 = the leaf
} caasa_chain_problem;

/// The most problems of one chain recorded.
#define CAASA_CHAIN_PROBLEMS_MAX 8

/// The outcome of a chain check. Free with `caasa_chain_result_clear`.
typedef struct caasa_chain_result {
    caasa_chain_failure failure;
    int error;                      ///< OpenSSL's X509_V_ERR_* code (0 when verified)
    int error_depth;                ///< 0 = the leaf
    char error_string[256];         ///< X509_verify_cert_error_string(error)
    caasa_certs *_Nullable chain;   ///< the chain as built, leaf first (also on failure)
    caasa_certs *_Nullable error_certificate; ///< the certificate at error_depth (one element)
    unsigned int key_usage;         ///< CAASA_CHAIN_KEY_USAGE: the leaf's keyUsage bits (X509v3_KU_*)
    caasa_policy_report policy;     ///< the policy's findings on the chain (when X509_verify_cert passed)
    /// When OpenSSL refused the chain: every problem it has, not only the first (untrusted
    /// *and* expired *and* for another host), found by a second pass that goes on past each.
    /// Informational only: `failure` is the verdict.
    int problem_count;
    caasa_chain_problem problems[CAASA_CHAIN_PROBLEMS_MAX];
    caasa_certs *_Nullable problem_chain; ///< the chain that pass built, leaf first
} caasa_chain_result;

/// Builds and checks the chain of `leaf[index]` to the anchors in `trust`, using the
/// certificates in `untrusted` as possible intermediates. Returns CAASA_OK whenever the check
/// ran, whatever its verdict: read `out->failure`. When OpenSSL accepts the chain, the
/// verification policy is applied to it (`caasa_policy_check_chain`: CAASA_CHAIN_WEAK_ALGORITHM,
/// findings in `out->policy`, warnings included), then the leaf's keyUsage when
/// `params->require_digital_signature` (CAASA_CHAIN_KEY_USAGE).
caasa_status caasa_verify_chain(const caasa_trust *trust, const caasa_certs *leaf, size_t index,
                                const caasa_certs *_Nullable untrusted,
                                const caasa_chain_params *params, caasa_chain_result *out);

/// OpenSSL's words for an X509_V_ERR_* code (X509_verify_cert_error_string); never NULL.
const char *caasa_chain_error_string(int error);

/// Frees what a `caasa_chain_result` holds and zeroes it.
void caasa_chain_result_clear(caasa_chain_result *result);

#ifdef __cplusplus
}
#endif

#if defined(__clang__)
#pragma clang assume_nonnull end
#endif

#endif // CAASA_TRUST_H
