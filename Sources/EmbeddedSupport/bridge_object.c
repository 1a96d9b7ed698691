/* swift_bridgeObjectRetain(_n) for the Embedded Swift runtime, which the library defines over the
 * embedded standard library's own.
 *
 * The runtime contract (the full runtime's SwiftObject.mm, and the `returned` attribute the compiler puts
 * on every call) is that these return their argument unchanged. The embedded standard library of Swift 6.3
 * returns the argument with its tag bits masked off (0x8fff_ffff_ffff_fff8), even for an immortal value it
 * does not retain (fixed upstream by swiftlang/swift#91151). Where the code generator takes the returned
 * register for the value it passed in, a String's discriminator loses its small and ASCII bits: the aarch64
 * library crashed reading a small String kept across a token refresh (TokenSet.init(response:previous:),
 * `response.scope ?? previous?.scope`) as a "shared" string. Its definition is weak in every Swift object;
 * this one is strong, so the linker takes it.
 *
 * The masks are the embedded runtime's for 64-bit targets (x86_64 and aarch64 other than Android): bit 63
 * marks a value that holds no reference (an immortal or small String, say); the rest of the bits outside
 * the mask are tags. The retain itself is the runtime's swift_retain_n, which ignores NULL. */
#include <stdint.h>

_Static_assert(sizeof(void *) == 8, "the masks below are the 64-bit ones");

void *swift_retain_n(void *object, uint32_t n);

void *swift_bridgeObjectRetain_n(void *object, uint32_t n) {
    uintptr_t bits = (uintptr_t)object;
    if (bits & UINT64_C(0x8000000000000000)) return object;
    swift_retain_n((void *)(bits & UINT64_C(0x8ffffffffffffff8)), n);
    return object;
}

void *swift_bridgeObjectRetain(void *object) {
    return swift_bridgeObjectRetain_n(object, 1);
}
