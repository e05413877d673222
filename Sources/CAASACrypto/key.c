// Private keys: PEM or DER, plain or encrypted.
#include "internal.h"

/// What the passphrase callbacks see: the caller's passphrase, and whether OpenSSL asked.
struct caasa_passphrase {
    const void *bytes;
    size_t length;
    int asked;
};

static int caasa_pem_passphrase_cb(char *buf, int size, int rwflag, void *u) {
    (void)rwflag;
    struct caasa_passphrase *p = u;
    p->asked = 1;
    if (p->bytes == NULL || size < 0 || p->length > (size_t)size) return -1;
    memcpy(buf, p->bytes, p->length);
    return (int)p->length;
}

static int caasa_decoder_passphrase_cb(char *buf, size_t size, size_t *length, const OSSL_PARAM params[],
                                       void *arg) {
    (void)params;
    struct caasa_passphrase *p = arg;
    p->asked = 1;
    if (p->bytes == NULL || p->length > size) return 0;
    memcpy(buf, p->bytes, p->length);
    *length = p->length;
    return 1;
}

static EVP_PKEY *caasa_decode_der_key(const void *data, size_t length, struct caasa_passphrase *pass) {
    EVP_PKEY *pkey = NULL;
    OSSL_DECODER_CTX *ctx =
        OSSL_DECODER_CTX_new_for_pkey(&pkey, "DER", NULL, NULL, EVP_PKEY_KEYPAIR, NULL, NULL);
    if (ctx == NULL) return NULL;
    OSSL_DECODER_CTX_set_passphrase_cb(ctx, caasa_decoder_passphrase_cb, pass);
    const unsigned char *cursor = data;
    size_t remaining = length;
    if (!OSSL_DECODER_from_data(ctx, &cursor, &remaining)) {
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
    OSSL_DECODER_CTX_free(ctx);
    return pkey;
}

caasa_status caasa_key_load(const void *data, size_t length, const void *passphrase, size_t passphrase_length,
                            caasa_key **out) {
    ERR_clear_error();
    if (data == NULL || length == 0) {
        ERR_raise_data(ERR_LIB_USER, ERR_R_PASSED_NULL_PARAMETER, "empty key file");
        return CAASA_ERR_KEY_DECODE;
    }
    struct caasa_passphrase pass = {passphrase, passphrase_length, 0};
    EVP_PKEY *pkey = NULL;
    if (caasa_looks_like_pem(data, length)) {
        BIO *bio = caasa_bio_from(data, length);
        if (bio == NULL) return CAASA_ERR_MEMORY;
        pkey = PEM_read_bio_PrivateKey_ex(bio, NULL, caasa_pem_passphrase_cb, &pass, NULL, NULL);
        BIO_free(bio);
    } else {
        pkey = caasa_decode_der_key(data, length, &pass);
    }
    if (pkey == NULL) {
        if (pass.asked && passphrase == NULL) return CAASA_ERR_KEY_NEEDS_PASSPHRASE;
        if (pass.asked) return CAASA_ERR_KEY_BAD_PASSPHRASE;
        return CAASA_ERR_KEY_DECODE;
    }
    *out = (caasa_key *)pkey;
    return CAASA_OK;
}

void caasa_key_free(caasa_key *key) { EVP_PKEY_free(caasa_pkey(key)); }

const char *caasa_key_type(const caasa_key *key) {
    const char *name = EVP_PKEY_get0_type_name(caasa_pkey(key));
    return name != NULL ? name : "unknown";
}

int caasa_key_bits(const caasa_key *key) { return EVP_PKEY_get_bits(caasa_pkey(key)); }
