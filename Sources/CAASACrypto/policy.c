// The verification policy: which digests and key sizes verification refuses or warns about
// (CAASACrypto.h, "Verification policy"; docs/security.md#verification-policy).
#include "internal.h"

/// Refused: RSA, RSA-PSS and DSA below this many bits, EC below CAASA_MIN_EC_BITS.
enum { CAASA_MIN_RSA_DSA_BITS = 1024, CAASA_WARN_RSA_DSA_BITS = 2048, CAASA_MIN_EC_BITS = 160 };

/// 2: refused (MD2, MD4, MD5, MD5-SHA1), 1: warning (SHA-1), 0: acceptable.
static int caasa_digest_weakness(int digest_nid) {
    switch (digest_nid) {
        case NID_md2:
        case NID_md4:
        case NID_md5:
        case NID_md5_sha1: return 2;
        case NID_sha1: return 1;
        default: return 0;
    }
}

static void caasa_policy_add(caasa_policy_report *report, caasa_policy_subject subject, int weak, int allow_weak,
                             int depth, int bits, const char *algorithm) {
    if (report->count >= CAASA_POLICY_MAX_FINDINGS) return;
    caasa_policy_finding *finding = &report->findings[report->count++];
    memset(finding, 0, sizeof *finding);
    finding->subject = subject;
    finding->weak = weak;
    finding->refused = weak && !allow_weak;
    finding->depth = depth;
    finding->bits = bits;
    caasa_copy_string(finding->algorithm, sizeof finding->algorithm, algorithm);
}

/// Adds a finding for a digest, if it has one; returns 1 when it is refused.
static int caasa_policy_digest(caasa_policy_report *report, caasa_policy_subject subject, int digest_nid,
                               int allow_weak, int depth) {
    int weakness = caasa_digest_weakness(digest_nid);
    if (weakness == 0) return 0;
    caasa_policy_add(report, subject, weakness == 2, allow_weak, depth, 0, OBJ_nid2sn(digest_nid));
    return weakness == 2 && !allow_weak;
}

int caasa_policy_check_signer_info(const caasa_pkcs7 *message, size_t index, int allow_weak,
                                   caasa_policy_report *report) {
    STACK_OF(PKCS7_SIGNER_INFO) *infos = PKCS7_get_signer_info(caasa_p7(message));
    if (infos == NULL || index >= (size_t)sk_PKCS7_SIGNER_INFO_num(infos)) return 0;
    PKCS7_SIGNER_INFO *info = sk_PKCS7_SIGNER_INFO_value(infos, (int)index);
    X509_ALGOR *digest = NULL, *signature = NULL;
    PKCS7_SIGNER_INFO_get0_algs(info, NULL, &digest, &signature);
    const ASN1_OBJECT *object = NULL;
    int refused = 0;
    if (digest != NULL) {
        X509_ALGOR_get0(&object, NULL, NULL, digest);
        refused |= caasa_policy_digest(report, CAASA_POLICY_DIGEST, OBJ_obj2nid(object), allow_weak, (int)index);
    }
    if (signature != NULL) {
        X509_ALGOR_get0(&object, NULL, NULL, signature);
        int digest_nid = NID_undef;
        // A bare key algorithm (rsaEncryption) names no digest; md5WithRSAEncryption does.
        if (OBJ_find_sigid_algs(OBJ_obj2nid(object), &digest_nid, NULL) && digest_nid != NID_undef)
            refused |= caasa_policy_digest(report, CAASA_POLICY_SIGNATURE_DIGEST, digest_nid, allow_weak, (int)index);
    }
    return refused;
}

/// Adds a finding for a certificate's key, if it has one; returns 1 when it is refused.
static int caasa_policy_key(caasa_policy_report *report, X509 *cert, int allow_weak, int depth) {
    EVP_PKEY *key = X509_get0_pubkey(cert);
    if (key == NULL) return 0;  // undecodable keys fail elsewhere (signature or chain)
    int bits = EVP_PKEY_get_bits(key);
    const char *name = NULL;
    int weak = 0, warn = 0;
    switch (EVP_PKEY_get_base_id(key)) {
        case EVP_PKEY_RSA:
        case EVP_PKEY_RSA_PSS: name = "RSA"; break;
        case EVP_PKEY_DSA: name = "DSA"; break;
        case EVP_PKEY_EC:
            if (bits > 0 && bits < CAASA_MIN_EC_BITS) {
                caasa_policy_add(report, CAASA_POLICY_KEY_SIZE, 1, allow_weak, depth, bits, "EC");
                return !allow_weak;
            }
            return 0;
        default: return 0;
    }
    if (bits <= 0) return 0;  // DSA without parameters: no size (and not verifiable: unsupported)
    weak = bits < CAASA_MIN_RSA_DSA_BITS;
    warn = bits < CAASA_WARN_RSA_DSA_BITS;
    if (!weak && !warn) return 0;
    caasa_policy_add(report, CAASA_POLICY_KEY_SIZE, weak, allow_weak, depth, bits, name);
    return weak && !allow_weak;
}

/// The key-size and certificate-signature rules on one certificate; the signature is skipped when
/// `relied_on_signature` is 0. Returns 1 when a finding is refused.
static int caasa_policy_certificate(caasa_policy_report *report, X509 *cert, int allow_weak, int depth,
                                    int relied_on_signature) {
    int refused = caasa_policy_key(report, cert, allow_weak, depth);
    if (!relied_on_signature) return refused;
    int digest_nid = NID_undef;
    if (X509_get_signature_info(cert, &digest_nid, NULL, NULL, NULL) && digest_nid != NID_undef)
        refused |= caasa_policy_digest(report, CAASA_POLICY_CERT_SIGNATURE, digest_nid, allow_weak, depth);
    return refused;
}

int caasa_policy_check_chain(const caasa_certs *chain, int allow_weak, caasa_policy_report *report) {
    STACK_OF(X509) *stack = caasa_stack(chain);
    int count = sk_X509_num(stack);
    int refused = 0;
    for (int depth = 0; depth < count; depth++) {
        X509 *cert = sk_X509_value(stack, depth);
        // The self-signature of a self-signed anchor at the top is never relied on (as in
        // OpenSSL's own security-level check).
        int top_self_signed = depth == count - 1 && X509_self_signed(cert, 0) == 1;
        refused |= caasa_policy_certificate(report, cert, allow_weak, depth, !top_self_signed);
    }
    return refused;
}

int caasa_policy_check_certificate(const caasa_certs *certs, size_t index, int allow_weak,
                                   caasa_policy_report *report) {
    STACK_OF(X509) *stack = caasa_stack(certs);
    if (index >= (size_t)sk_X509_num(stack)) return 0;
    X509 *cert = sk_X509_value(stack, (int)index);
    // Read alone, a self-signed certificate can only be an anchor: its self-signature is skipped.
    return caasa_policy_certificate(report, cert, allow_weak, (int)index, X509_self_signed(cert, 0) != 1);
}
