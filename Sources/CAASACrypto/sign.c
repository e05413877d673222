// Signing, byte for byte as `openssl smime -sign -nodetach` does it.
//
// apps/smime.c in OpenSSL 3.0 builds the message in three steps, and so do we:
//   PKCS7_sign_ex(NULL, NULL, certfile_chain, in, flags | PKCS7_PARTIAL)   chain certificates first
//   PKCS7_sign_add_signer(p7, signer, key, md, flags)                        then the signer
//   PKCS7_final(p7, in, flags)                                               content (CRLF unless -binary)
// Calling PKCS7_sign(cert, key, chain, ...) instead would put the signer certificate first and
// the bytes would differ from the CLI's.
#include "internal.h"

caasa_status caasa_sign(const caasa_key *key, const caasa_certs *signer, size_t signer_index,
                        const caasa_certs *chain, const void *content, size_t content_length,
                        const caasa_sign_options *options, caasa_buffer *out) {
    ERR_clear_error();
    STACK_OF(X509) *signer_stack = caasa_stack(signer);
    if (signer_index >= (size_t)sk_X509_num(signer_stack) || options == NULL || options->digest == NULL)
        return CAASA_ERR_INVALID_ARGUMENT;
    X509 *signer_cert = sk_X509_value(signer_stack, (int)signer_index);
    EVP_PKEY *pkey = caasa_pkey(key);

    const EVP_MD *md = EVP_get_digestbyname(options->digest);
    if (md == NULL) return CAASA_ERR_UNKNOWN_DIGEST;
    if (X509_check_private_key(signer_cert, pkey) != 1) return CAASA_ERR_KEY_CERT_MISMATCH;

    int flags = PKCS7_PARTIAL;  // -nodetach: no PKCS7_DETACHED
    if (!options->signed_attributes) flags |= PKCS7_NOATTR;
    if (options->binary) flags |= PKCS7_BINARY;

    caasa_status status = CAASA_OK;
    BIO *in = caasa_bio_from(content, content_length);
    BIO *encoded = BIO_new(BIO_s_mem());
    PKCS7 *p7 = NULL;
    if (in == NULL || encoded == NULL) {
        status = CAASA_ERR_MEMORY;
        goto done;
    }
    p7 = PKCS7_sign_ex(NULL, NULL, chain != NULL ? caasa_stack(chain) : NULL, in, flags, NULL, NULL);
    if (p7 == NULL || PKCS7_sign_add_signer(p7, signer_cert, pkey, md, flags) == NULL
        || !PKCS7_final(p7, in, flags)) {
        status = CAASA_ERR_SIGN;
        goto done;
    }
    int written = 0;
    switch (options->encoding) {
        case CAASA_ENCODING_DER: written = i2d_PKCS7_bio(encoded, p7); break;
        case CAASA_ENCODING_PEM: written = PEM_write_bio_PKCS7(encoded, p7); break;
        case CAASA_ENCODING_SMIME: written = SMIME_write_PKCS7(encoded, p7, in, flags); break;
    }
    status = written > 0 ? caasa_buffer_from_bio(encoded, out) : CAASA_ERR_ENCODE;

done:
    PKCS7_free(p7);
    BIO_free(in);
    BIO_free(encoded);
    return status;
}
