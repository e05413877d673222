// Per-thread OpenSSL state (the error queue, DRBG instances, the quick signature check's
// prepared contexts, the last name printed): released on demand.
#include "internal.h"

void caasa_thread_stop(void) {
    caasa_quick_verify_release();
    caasa_name_string_release();
    OPENSSL_thread_stop();
}
