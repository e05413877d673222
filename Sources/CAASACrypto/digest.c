// A message digest of a byte buffer, for values that need a stable identity (finding
// fingerprints), not for signatures (those go through PKCS7_sign and PKCS7_dataVerify).
#include "internal.h"

int caasa_sha256(const uint8_t *data, size_t length, uint8_t out[32]) {
    static const uint8_t empty = 0;
    unsigned int written = 0;
    if (EVP_Digest(data != NULL ? data : &empty, length, out, &written, EVP_sha256(), NULL) != 1 || written != 32) {
        ERR_clear_error();
        return 0;
    }
    return 1;
}
