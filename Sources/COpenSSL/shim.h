/* The parts of libcrypto the core uses. */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
