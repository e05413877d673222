// The OpenSSL version: the library loaded at run time and the headers compiled against.
#include "internal.h"

const char *caasa_openssl_version_runtime(void) { return OpenSSL_version(OPENSSL_VERSION); }

const char *caasa_openssl_version_built(void) { return OPENSSL_VERSION_TEXT; }
