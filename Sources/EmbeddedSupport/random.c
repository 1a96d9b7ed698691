/* arc4random_buf for the Embedded Swift standard library, which draws its randomness from it (its
 * SystemRandomNumberGenerator, which also seeds hashing). glibc has arc4random_buf only from 2.36, above the
 * wheel's manylinux_2_35 floor, so the library defines its own from getrandom(2), as the core's `Crypto`
 * draws. Local to the library (Sources/Telenorid/exports.map): a host's arc4random_buf is not replaced.
 * It cannot report a failure: where the kernel refuses getrandom (before Linux 3.17, or under a seccomp
 * filter) it aborts, as glibc's does when it has no randomness to give. */
#include <errno.h>
#include <stdlib.h>
#include <sys/random.h>

void arc4random_buf(void *buffer, size_t count) {
    unsigned char *bytes = buffer;
    size_t filled = 0;
    while (filled < count) {
        ssize_t got = getrandom(bytes + filled, count - filled, 0);
        if (got > 0) {
            filled += (size_t)got;
        } else if (errno != EINTR) {
            abort();
        }
    }
}
