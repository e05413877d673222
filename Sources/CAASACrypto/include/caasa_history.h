// CAASACrypto: the historical root store and what `--historical` verification needs beyond
// caasa_trust.h (HistoricalTrustStore.swift, Verifier+Historical.swift). Included at the end of
// CAASACrypto.h, whose types it uses.

#ifndef CAASA_HISTORY_H
#define CAASA_HISTORY_H

#include "CAASACrypto.h"
#include "caasa_trust.h"

#if defined(__clang__)
#pragma clang assume_nonnull begin
#endif

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Mozilla's root store, 2014 to today (mozilla_roots.c, generated)

/// One range of snapshots of a root store that held a root: trusted from `from` (inclusive)
/// until `removed_by` (exclusive; 0 when still in the last snapshot). `last_seen` is the last
/// snapshot that held it. Unix seconds, UTC midnight of the snapshot dates.
typedef struct caasa_trust_period {
    int64_t from;
    int64_t last_seen;
    int64_t removed_by;
} caasa_trust_period;

/// How many roots the compiled-in Mozilla store holds.
size_t caasa_mozilla_root_count(void);

/// The DER of root `index` (static storage, never freed), its length in `*length`; NULL and 0
/// past the end.
const unsigned char *_Nullable caasa_mozilla_root_der(size_t index, size_t *length);

/// The trust ranges of root `index` (static storage): sets `*first` and returns their count.
size_t caasa_mozilla_root_periods(size_t index, const caasa_trust_period *_Nullable *_Nonnull first);

/// The dates of the snapshots the store was built from, oldest first (static storage).
size_t caasa_mozilla_snapshots(const int64_t *_Nullable *_Nonnull dates);

// MARK: - Chains without a time (history.c)

/// Builds the chain of `leaf[index]` to an anchor of `trust` through `untrusted`, checking
/// signatures but no validity dates (X509_V_FLAG_NO_CHECK_TIME), no purpose and no host: which
/// root the chain reaches, whenever that was. The result is never a verdict; the caller
/// verifies the chain again at a time (caasa_verify_chain). `out->chain` holds the chain as
/// built (leaf first), also when it failed; `out->error`, `error_depth`, `error_string` and
/// `error_certificate` say why it failed, and `out->failure` is CAASA_CHAIN_UNTRUSTED exactly
/// when an issuer is missing (the top of `out->chain` names it), CAASA_CHAIN_BAD_CERT_SIGNATURE
/// for a certificate signature that does not verify, CAASA_CHAIN_OTHER otherwise. Free with caasa_chain_result_clear.
caasa_status caasa_build_chain_untimed(const caasa_trust *trust, const caasa_certs *leaf, size_t index,
                                       const caasa_certs *_Nullable untrusted, caasa_chain_result *out);

/// The signingTime signed attribute of SignerInfo `index`, in Unix seconds: 1 when present and
/// readable (`*time` set), 0 when absent or unreadable.
int caasa_pkcs7_signing_time(const caasa_pkcs7 *message, size_t index, int64_t *time);

#ifdef __cplusplus
}
#endif

#if defined(__clang__)
#pragma clang assume_nonnull end
#endif

#endif // CAASA_HISTORY_H
