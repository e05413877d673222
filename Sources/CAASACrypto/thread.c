// Per-thread OpenSSL state (the error queue, DRBG instances, the quick signature check's
// prepared contexts, the BIO names are printed into): released on demand.
#include "internal.h"

void caasa_thread_stop(void) {
    caasa_quick_verify_release();
    caasa_name_bio_release();
    OPENSSL_thread_stop();
}
