/*
 * telenorid_jni_pkce.c — the bridge's PKCE natives (Pkce, RFC 7636)
 * (see telenorid_jni.c for the rules every native keeps).
 */
#include <stdint.h>

#include "telenorid_jni_bridge.h"

jlong n_pkce_new(JNIEnv *env, jclass cls, jint length)
{
    (void)cls;
    telenorid_pkce *out = NULL;
    /* A negative length must not wrap into a plausible size_t: make it one the library refuses. */
    size_t size = length < 0 ? SIZE_MAX : (size_t)length;
    telenorid_status status = telenorid_pkce_new(size, &out);
    return handle_result(env, status, out);
}

/* Overwrites memory in a way the compiler may not drop as a dead store. */
static void wipe(void *memory, size_t length)
{
    volatile unsigned char *p = (volatile unsigned char *)memory;
    while (length--) {
        *p++ = 0;
    }
}

/* {verifier, challenge} as UTF-8, from telenorid_pkce_generate into stack buffers; the verifier's buffer is
 * wiped before returning, whatever happens. */
jobjectArray n_pkce_generate(JNIEnv *env, jclass cls, jint length)
{
    (void)cls;
    char verifier[129], challenge[44]; /* the longest verifier (RFC 7636 §4.1) and a challenge, with NULs */
    size_t size = length < 0 ? SIZE_MAX : (size_t)length;
    telenorid_status status = telenorid_pkce_generate(size, verifier, sizeof verifier, challenge, sizeof challenge);
    if (status != TELENORID_OK) {
        throw_status(env, status);
        return NULL;
    }
    jobjectArray pair = new_byte_arrays(env, 2);
    jbyteArray verifier_array = pair == NULL ? NULL : new_bytes(env, verifier);
    wipe(verifier, sizeof verifier);
    jbyteArray challenge_array = verifier_array == NULL ? NULL : new_bytes(env, challenge);
    if (challenge_array == NULL) {
        return NULL; /* OutOfMemoryError pending */
    }
    (*env)->SetObjectArrayElement(env, pair, 0, verifier_array);
    (*env)->SetObjectArrayElement(env, pair, 1, challenge_array);
    return pair;
}
