// OpenSSL's error queue, buffers, and small shared helpers.
#include "internal.h"

#include <stdio.h>

int caasa_error_pop(caasa_error_entry *out) {
    const char *data = NULL;
    int flags = 0;
    unsigned long code = ERR_get_error_all(NULL, NULL, NULL, &data, &flags);
    if (code == 0) return 0;
    out->code = code;
    out->library = ERR_GET_LIB(code);
    out->reason = ERR_GET_REASON(code);
    const char *lib = ERR_lib_error_string(code);
    const char *reason = ERR_reason_error_string(code);
    char reason_buf[32];
    if (reason == NULL) {
        snprintf(reason_buf, sizeof reason_buf, "reason(%d)", ERR_GET_REASON(code));
        reason = reason_buf;
    }
    out->from_caasa = ERR_GET_LIB(code) == ERR_LIB_USER;
    if (data != NULL && (flags & ERR_TXT_STRING) && data[0] != '\0') {
        snprintf(out->text, sizeof out->text, "%s: %s (%s)", lib ? lib : "OpenSSL", reason, data);
        caasa_copy_string(out->detail, sizeof out->detail, data);
    } else {
        snprintf(out->text, sizeof out->text, "%s: %s", lib ? lib : "OpenSSL", reason);
        out->detail[0] = '\0';
    }
    return 1;
}

void caasa_error_clear(void) { ERR_clear_error(); }

void caasa_buffer_free(caasa_buffer *buffer) {
    if (buffer->data != NULL) OPENSSL_clear_free(buffer->data, buffer->length);
    buffer->data = NULL;
    buffer->length = 0;
}

void caasa_cleanse(void *data, size_t length) {
    if (data != NULL && length > 0) OPENSSL_cleanse(data, length);
}

BIO *caasa_bio_from(const void *data, size_t length) {
    static const char empty[1] = {0};
    if (data == NULL || length == 0) return BIO_new_mem_buf(empty, 0);
    if (length > INT_MAX) return NULL;
    return BIO_new_mem_buf(data, (int)length);
}

caasa_status caasa_buffer_from_bytes(const unsigned char *bytes, size_t length, caasa_buffer *out) {
    unsigned char *copy = OPENSSL_malloc(length > 0 ? length : 1);
    if (copy == NULL) return CAASA_ERR_MEMORY;
    if (length > 0) memcpy(copy, bytes, length);
    out->data = copy;
    out->length = length;
    return CAASA_OK;
}

caasa_status caasa_buffer_from_bio(BIO *bio, caasa_buffer *out) {
    char *bytes = NULL;
    long length = BIO_get_mem_data(bio, &bytes);
    if (length < 0) return CAASA_ERR_ENCODE;
    return caasa_buffer_from_bytes((const unsigned char *)bytes, (size_t)length, out);
}

/// What caasa_name_string keeps per thread: a memory BIO to print into (BIO_new and BIO_free
/// take OpenSSL's global ex_data lock), and the last name printed, by its DER (a batch prints the
/// same signer's issuer for every file). docs/performance.md, "Many cores".
static _Thread_local BIO *caasa_name_bio;
static _Thread_local unsigned char *caasa_last_name_der;
static _Thread_local size_t caasa_last_name_length;
static _Thread_local char *caasa_last_name_text;

static void caasa_forget_last_name(void) {
    OPENSSL_free(caasa_last_name_der);
    OPENSSL_free(caasa_last_name_text);
    caasa_last_name_der = NULL;
    caasa_last_name_text = NULL;
    caasa_last_name_length = 0;
}

void caasa_name_string_release(void) {
    BIO_free(caasa_name_bio);
    caasa_name_bio = NULL;
    caasa_forget_last_name();
}

/// The name printed as caasa_name_string prints it, into the thread's BIO.
static char *caasa_print_name(const X509_NAME *name) {
    if (caasa_name_bio == NULL) {
        if ((caasa_name_bio = BIO_new(BIO_s_mem())) == NULL) return NULL;
        caasa_thread_state_made();
    }
    BIO *bio = caasa_name_bio;
    if (BIO_reset(bio) != 1) return NULL;
    unsigned long flags = (ASN1_STRFLGS_RFC2253 & ~ASN1_STRFLGS_ESC_MSB) | XN_FLAG_SEP_CPLUS_SPC
                          | XN_FLAG_FN_SN | XN_FLAG_DUMP_UNKNOWN_FIELDS;
    char *result = NULL;
    if (X509_NAME_print_ex(bio, name, 0, flags) >= 0) {
        char *bytes = NULL;
        long length = BIO_get_mem_data(bio, &bytes);
        result = OPENSSL_malloc((size_t)length + 1);
        if (result != NULL) {
            if (length > 0) memcpy(result, bytes, (size_t)length);
            result[length] = '\0';
        }
    }
    // Keep no name of this call for the next; a BIO grown by a long name is not kept (a reset
    // clears the whole buffer).
    if (BIO_ctrl_pending(bio) > 4096) {
        BIO_free(bio);
        caasa_name_bio = NULL;
    } else {
        (void)BIO_reset(bio);
    }
    return result;
}

char *caasa_name_string(const X509_NAME *name) {
    const unsigned char *der = NULL;
    size_t der_length = 0;
    if (!X509_NAME_get0_der(name, &der, &der_length)) {
        ERR_clear_error();
        return caasa_print_name(name);
    }
    // The same DER prints the same text.
    if (caasa_last_name_text != NULL && der_length == caasa_last_name_length
        && memcmp(der, caasa_last_name_der, der_length) == 0)
        return OPENSSL_strdup(caasa_last_name_text);
    char *text = caasa_print_name(name);
    caasa_forget_last_name();
    if (text != NULL && der_length <= 1024) {
        caasa_last_name_der = OPENSSL_memdup(der, der_length);
        caasa_last_name_text = OPENSSL_strdup(text);
        caasa_last_name_length = der_length;
        if (caasa_last_name_der == NULL || caasa_last_name_text == NULL) caasa_forget_last_name();
    }
    return text;
}

char *caasa_serial_string(const ASN1_INTEGER *serial) {
    BIGNUM *bn = ASN1_INTEGER_to_BN(serial, NULL);
    if (bn == NULL) return NULL;
    char *hex = BN_bn2hex(bn);
    BN_free(bn);
    return hex;  // OPENSSL_malloc'd, upper case
}

int caasa_looks_like_pem(const void *data, size_t length) {
    static const char marker[] = "-----BEGIN ";
    const size_t marker_length = sizeof marker - 1;
    if (data == NULL || length < marker_length) return 0;
    return memmem(data, length, marker, marker_length) != NULL;
}
