// Per-thread OpenSSL state (the error queue, DRBG instances): released on demand.
#include "internal.h"

void caasa_thread_stop(void) { OPENSSL_thread_stop(); }
