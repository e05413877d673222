// The system trust anchors, found when a chain needs them rather than all parsed at start-up.
//
// `X509_STORE_set_default_paths` parses the whole bundle file at once (about 140 certificates:
// three quarters of a single `aasa verify`) and, in OpenSSL 3, adds a `file:` store lookup that
// lists the certificate directory on every issuer lookup. Instead:
//   1. the certificate directory (`SSL_CERT_DIR`, or OpenSSL's default: on Debian
//      /usr/lib/ssl/certs -> /etc/ssl/certs) is searched by subject hash (`HASH.N`, as
//      `openssl rehash` and update-ca-certificates name them) when an issuer is needed;
//   2. the bundle file (`SSL_CERT_FILE`, or OpenSSL's default file) is indexed by subject the
//      first time an issuer is not found in the directory (bundleindex.c: only the base64
//      lines that hold each subject are decoded), and only the certificates of the subjects
//      asked for are decoded whole.
// Anything found stays in the store for the rest of a batch or an audit. The anchors are the
// union of both, as with OpenSSL's default paths; only the time they are read changes. What is
// not the same: a certificate in the directory under a name that is not its subject hash is not
// found (OpenSSL's `file:` store lookup would list it), as with `openssl verify -CApath`.
//
// No library offers a lazily read bundle (OpenSSL's file lookup decodes every certificate at
// once; its hash directory lookup reads only `HASH.N` names), so the lookup is ours
// (lazylookup.c, on OpenSSL's public X509_LOOKUP_METHOD API), over the bundle index of
// bundleindex.c: X509_NAME_cmp for each subject that could match, d2i_X509(_AUX) and
// X509_STORE_add_cert for the certificates a chain asks for.
#include "internal.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// MARK: - A bundle file read by subject

/// A bundle file, indexed by subject on the first lookup (bundleindex.c); a source of
/// lazylookup.c's lookup, which guards the index and the additions with `source.mutex`.
typedef struct caasa_lazy_bundle {
    caasa_lazy_source source;  // first: the lookup's view of it
    int indexed;
    char *path;
    caasa_bundle_index index;
} caasa_lazy_bundle;

static void caasa_lazy_bundle_free(caasa_lazy_source *source) {
    caasa_lazy_bundle *bundle = (caasa_lazy_bundle *)source;
    caasa_bundle_index_free(&bundle->index);
    OPENSSL_free(bundle->path);
    OPENSSL_free(bundle);
}

/// Adds the bundle's certificates named `name` to the store, each once.
static int caasa_lazy_bundle_add_named(caasa_lazy_source *source, X509_STORE *store, const X509_NAME *name,
                                       int signature_known, uint64_t signature) {
    caasa_lazy_bundle *bundle = (caasa_lazy_bundle *)source;
    // A bundle that could not be opened for want of a file descriptor (an audit with every
    // descriptor in use) is read again on the next lookup, not taken as empty for good.
    if (!bundle->indexed) bundle->indexed = caasa_bundle_index_read(&bundle->index, bundle->path);
    int added = 0;
    for (size_t i = 0; i < bundle->index.count; i++) {
        caasa_bundle_entry *entry = &bundle->index.entries[i];
        if (!caasa_bundle_entry_matches(entry, name, signature_known, signature)) continue;
        if (!entry->added) {
            entry->added = 1;
            X509 *certificate = caasa_bundle_certificate(&bundle->index, entry);
            if (certificate != NULL) X509_STORE_add_cert(store, certificate);  // takes its own reference
            X509_free(certificate);
        }
        added = 1;
    }
    return added;
}

/// Adds a lookup that loads `path` on the first issuer it is asked for.
static caasa_status caasa_add_lazy_bundle(X509_STORE *store, const char *path) {
    caasa_lazy_bundle *bundle = OPENSSL_zalloc(sizeof *bundle);
    if (bundle == NULL) return CAASA_ERR_MEMORY;
    bundle->source.add_named = caasa_lazy_bundle_add_named;
    bundle->source.free_source = caasa_lazy_bundle_free;
    bundle->path = OPENSSL_strdup(path);
    if (bundle->path == NULL) {
        OPENSSL_free(bundle);
        return CAASA_ERR_MEMORY;
    }
    return caasa_store_add_lazy_source(store, &bundle->source);
}

// MARK: - The system store

caasa_status caasa_trust_add_system_roots(caasa_trust *trust) {
    ERR_clear_error();
    X509_STORE *store = caasa_store(trust);
    const char *file = getenv(X509_get_default_cert_file_env());
    if (file == NULL) file = X509_get_default_cert_file();
    const char *directory = getenv(X509_get_default_cert_dir_env());
    if (directory == NULL) directory = X509_get_default_cert_dir();
    // Lookups are asked in the order they were added: the directory first. It is not listed:
    // a lookup only tries HASH.N names, so a directory without them (or a missing one) simply
    // misses, and a list (SSL_CERT_DIR=a:b) is searched in order.
    if (*directory != '\0') {
        X509_LOOKUP *lookup = X509_STORE_add_lookup(store, X509_LOOKUP_hash_dir());
        if (lookup == NULL || !X509_LOOKUP_add_dir(lookup, directory, X509_FILETYPE_PEM)) return CAASA_ERR_TRUST_LOAD;
    }
    caasa_status status = caasa_add_lazy_bundle(store, file);
    ERR_clear_error();  // a missing default file or directory is not an error
    return status;
}

void caasa_trust_preload(caasa_trust *trust) {
    // One lookup of a name no certificate has: each lookup method is asked in turn (the
    // directory by hash, which misses, then the bundle, which reads its index), and none finds it.
    X509_STORE *store = caasa_store(trust);
    X509_STORE_CTX *context = X509_STORE_CTX_new();
    X509_NAME *name = X509_NAME_new();
    if (context != NULL && name != NULL
        && X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"aasa preload", -1, -1, 0)
        && X509_STORE_CTX_init(context, store, NULL, NULL)) {
        X509_OBJECT *found = X509_STORE_CTX_get_obj_by_subject(context, X509_LU_X509, name);
        X509_OBJECT_free(found);
    }
    X509_NAME_free(name);
    X509_STORE_CTX_free(context);
    ERR_clear_error();
}
