/* The parts of libcrypto the core uses, and the kernel CSPRNG call Glibc's module map leaves out. */
/* Low-level SHA-256 (SHA256_Init...) is deprecated in OpenSSL 3 but is the cheapest digest for a PKCE pair. */
#define OPENSSL_SUPPRESS_DEPRECATED
/* In the Embedded build the C library is the module CPlatform (Sources/CPlatform): included first, its
 * declarations (pthread_mutex_t, size_t...) belong to that module and not to this one. The standard build
 * has Glibc's module for them and does not put CPlatform on the include path. */
#if __has_include("platform.h")
#include "platform.h"
#endif
#include <sys/random.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/bn.h>
#include <openssl/err.h>
