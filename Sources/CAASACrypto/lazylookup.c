// One X509_LOOKUP method for certificates decoded when a chain asks for their subject, over
// any caasa_lazy_source (internal.h): the system bundle (systemroots.c) and the roots of a
// historical store (lazyanchors.c). The source adds what the name matches to the store; the
// answer is then the store's own object, so that a certificate added by another thread
// meanwhile is found the same way.
//
// OpenSSL has no such lookup (its file lookup decodes a whole bundle at once, its hash
// directory lookup reads only `HASH.N` names), hence this one, on its public
// X509_LOOKUP_METHOD API.
#include "internal.h"

/// The store's object for `name`, as OpenSSL's own lookups hand one back. 0 when there is none.
static int caasa_store_answer_by_subject(X509_STORE *store, X509_LOOKUP_TYPE type, const X509_NAME *name,
                                         X509_OBJECT *ret) {
    // Another thread may have added the certificate: this caller missed the cache before.
    if (!X509_STORE_lock(store)) return 0;
    X509_OBJECT *found = X509_OBJECT_retrieve_by_subject(X509_STORE_get0_objects(store), type, name);
    X509 *certificate = found != NULL ? X509_OBJECT_get0_X509(found) : NULL;
    X509_STORE_unlock(store);
    if (certificate == NULL) return 0;
    // OpenSSL's own lookups hand back a borrowed reference (X509_STORE_CTX_get_by_subject takes
    // its own); X509_OBJECT_set1_X509 takes one, so give it back. The store keeps the
    // certificate alive: nothing is ever removed from it.
    if (!X509_OBJECT_set1_X509(ret, certificate)) return 0;
    X509_free(certificate);
    return 1;
}

/// Has the source add the certificates named `name` to the store (once each), then answers
/// from the store.
static int caasa_lazy_lookup_by_subject(X509_LOOKUP *lookup, X509_LOOKUP_TYPE type, const X509_NAME *name,
                                        X509_OBJECT *ret) {
    caasa_lazy_source *source = X509_LOOKUP_get_method_data(lookup);
    X509_STORE *store = X509_LOOKUP_get_store(lookup);
    if (source == NULL || store == NULL || type != X509_LU_X509) return 0;
    const unsigned char *der = NULL;
    size_t length = 0;
    uint64_t signature = 0;
    int signature_known = X509_NAME_get0_der(name, &der, &length) && caasa_name_signature(der, (long)length, &signature);
    pthread_mutex_lock(&source->mutex);
    int added = source->add_named(source, store, name, signature_known, signature);
    pthread_mutex_unlock(&source->mutex);
    ERR_clear_error();
    return added ? caasa_store_answer_by_subject(store, type, name, ret) : 0;
}

static void caasa_lazy_source_free(caasa_lazy_source *source) {
    if (source == NULL) return;
    pthread_mutex_destroy(&source->mutex);
    source->free_source(source);
}

static void caasa_lazy_lookup_free(X509_LOOKUP *lookup) {
    caasa_lazy_source_free(X509_LOOKUP_get_method_data(lookup));
    X509_LOOKUP_set_method_data(lookup, NULL);
}

static pthread_once_t caasa_lazy_lookup_method_once = PTHREAD_ONCE_INIT;
static X509_LOOKUP_METHOD *caasa_lazy_lookup_method_value;

static void caasa_lazy_lookup_method_make(void) {
    X509_LOOKUP_METHOD *method = X509_LOOKUP_meth_new("aasa certificates decoded by subject");
    if (method == NULL) return;
    if (!X509_LOOKUP_meth_set_free(method, caasa_lazy_lookup_free)
        || !X509_LOOKUP_meth_set_get_by_subject(method, caasa_lazy_lookup_by_subject)) {
        X509_LOOKUP_meth_free(method);
        return;
    }
    caasa_lazy_lookup_method_value = method;  // for the life of the process
}

caasa_status caasa_store_add_lazy_source(X509_STORE *store, caasa_lazy_source *source) {
    if (pthread_mutex_init(&source->mutex, NULL) != 0) {
        source->free_source(source);
        return CAASA_ERR_MEMORY;
    }
    pthread_once(&caasa_lazy_lookup_method_once, caasa_lazy_lookup_method_make);
    if (caasa_lazy_lookup_method_value == NULL) {
        caasa_lazy_source_free(source);
        return CAASA_ERR_MEMORY;
    }
    X509_LOOKUP *lookup = X509_STORE_add_lookup(store, caasa_lazy_lookup_method_value);
    if (lookup == NULL || !X509_LOOKUP_set_method_data(lookup, source)) {
        caasa_lazy_source_free(source);
        return CAASA_ERR_TRUST_LOAD;
    }
    return CAASA_OK;
}
