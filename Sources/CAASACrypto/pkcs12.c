// PKCS#12 bundles: a key, its certificate and a chain in one file.
#include "internal.h"

caasa_status caasa_pkcs12_load(const void *data, size_t length, const void *passphrase, size_t passphrase_length,
                               caasa_key **key_out, caasa_certs **certificate_out, caasa_certs **chain_out) {
    ERR_clear_error();
    if (data == NULL || length == 0 || length > LONG_MAX) return CAASA_ERR_PKCS12_DECODE;
    const unsigned char *cursor = data;
    PKCS12 *p12 = d2i_PKCS12(NULL, &cursor, (long)length);
    if (p12 == NULL) return CAASA_ERR_PKCS12_DECODE;

    // PKCS12_parse wants a NUL-terminated string; keep our copy out of the heap's way.
    char *pass = NULL;
    if (passphrase != NULL) {
        pass = OPENSSL_malloc(passphrase_length + 1);
        if (pass == NULL) {
            PKCS12_free(p12);
            return CAASA_ERR_MEMORY;
        }
        memcpy(pass, passphrase, passphrase_length);
        pass[passphrase_length] = '\0';
    }

    caasa_status status = CAASA_OK;
    EVP_PKEY *pkey = NULL;
    X509 *cert = NULL;
    STACK_OF(X509) *chain = NULL;
    if (PKCS12_mac_present(p12)) {
        int mac_ok = pass != NULL ? PKCS12_verify_mac(p12, pass, -1)
                                  : (PKCS12_verify_mac(p12, NULL, 0) || PKCS12_verify_mac(p12, "", 0));
        if (!mac_ok) status = pass != NULL ? CAASA_ERR_PKCS12_BAD_PASSPHRASE : CAASA_ERR_KEY_NEEDS_PASSPHRASE;
    }
    if (status == CAASA_OK && !PKCS12_parse(p12, pass != NULL ? pass : "", &pkey, &cert, &chain))
        status = CAASA_ERR_PKCS12_DECODE;
    if (status == CAASA_OK && (pkey == NULL || cert == NULL)) status = CAASA_ERR_PKCS12_INCOMPLETE;
    if (status == CAASA_OK) {
        STACK_OF(X509) *certificate = sk_X509_new_null();
        if (chain == NULL) chain = sk_X509_new_null();
        if (certificate == NULL || chain == NULL || !sk_X509_push(certificate, cert)) {
            sk_X509_free(certificate);
            status = CAASA_ERR_MEMORY;
        } else {
            cert = NULL;  // now owned by `certificate`
            *key_out = (caasa_key *)pkey;
            *certificate_out = (caasa_certs *)certificate;
            *chain_out = (caasa_certs *)chain;
            pkey = NULL;
            chain = NULL;
        }
    }
    EVP_PKEY_free(pkey);
    X509_free(cert);
    caasa_stack_free(chain);
    if (pass != NULL) OPENSSL_clear_free(pass, passphrase_length + 1);
    PKCS12_free(p12);
    return status;
}
