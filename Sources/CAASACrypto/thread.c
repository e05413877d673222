// Per-thread state (OpenSSL's error queue and DRBG instances; this module's prepared signature
// contexts, last name printed and parsed certificates): released on demand, and when a thread
// that made any of it exits.
#include "internal.h"

static void caasa_release_module_state(void) {
    caasa_quick_verify_release();
    caasa_name_string_release();
    caasa_thread_certs_release();
}

static pthread_key_t caasa_thread_key;
static pthread_once_t caasa_thread_key_once = PTHREAD_ONCE_INIT;

/// Runs when a thread that holds module state exits without caasa_thread_stop (a Dispatch or
/// event-loop thread): the state is freed rather than lost with the thread's storage.
static void caasa_thread_exit(void *value) {
    (void)value;
    caasa_release_module_state();
}

static void caasa_make_thread_key(void) { (void)pthread_key_create(&caasa_thread_key, caasa_thread_exit); }

void caasa_thread_state_made(void) {
    pthread_once(&caasa_thread_key_once, caasa_make_thread_key);
    if (pthread_getspecific(caasa_thread_key) == NULL) (void)pthread_setspecific(caasa_thread_key, &caasa_thread_key);
}

void caasa_thread_stop(void) {
    caasa_release_module_state();
    OPENSSL_thread_stop();
}
