/* The parts of libcrypto the core uses, and the kernel CSPRNG call Glibc's module map leaves out. */
#include <sys/random.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
