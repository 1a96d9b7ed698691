/*
 * telenorid_jni_pkce.c — the bridge's PKCE natives (Pkce, RFC 7636)
 * (see telenorid_jni.c for the rules every native keeps).
 */
#include <stdint.h>

#include "telenorid_jni.h"

static jlong n_pkce_new(JNIEnv *env, jclass cls, jint length)
{
    (void)cls;
    telenorid_pkce *out = NULL;
    /* A negative length must not wrap into a plausible size_t: make it one the library refuses. */
    size_t size = length < 0 ? SIZE_MAX : (size_t)length;
    telenorid_status status = telenorid_pkce_new(size, &out);
    return handle_result(env, status, out);
}

static jlong n_pkce_from_verifier(JNIEnv *env, jclass cls, jbyteArray verifier_bytes)
{
    (void)cls;
    in_string verifier;
    telenorid_pkce *out = NULL;
    if (!in_string_get(env, verifier_bytes, "verifier", &verifier)) {
        return 0;
    }
    telenorid_status status = telenorid_pkce_from_verifier(verifier.chars, &out);
    in_string_release(&verifier);
    return handle_result(env, status, out);
}

STRING_GETTER(n_pkce_verifier, const telenorid_pkce, telenorid_pkce_verifier)
STRING_GETTER(n_pkce_challenge, const telenorid_pkce, telenorid_pkce_challenge)
FREE_FUNCTION(n_pkce_free, telenorid_pkce, telenorid_pkce_free)

static const JNINativeMethod pkce_natives[] = {
    NATIVE("pkceNew", "(I)J", n_pkce_new),
    NATIVE("pkceFromVerifier", "([B)J", n_pkce_from_verifier),
    NATIVE("pkceVerifier", "(J)[B", n_pkce_verifier),
    NATIVE("pkceChallenge", "(J)[B", n_pkce_challenge),
    NATIVE("pkceFree", "(J)V", n_pkce_free),
};

NATIVE_TABLE(pkce_table, pkce_natives, NULL);
