/*
 * telenorid_jni.c — the JNI bridge between no.telenor.id.Native and libtelenorid's public C API: loading
 * (JNI_OnLoad) and registration of the table of natives, and the library-wide natives (versions, status
 * names).
 *
 * Rules every file of the bridge keeps (see bindings/jni/README.md):
 *
 *  - It calls only what include/telenorid.h declares. Every native is a thin adapter: convert the
 *    arguments, make one library call (two or three for the configuration builder), convert the result.
 *  - Nothing but JNI_OnLoad is exported (built with -fvisibility=hidden). The natives are registered from
 *    one table with RegisterNatives, so there are no Java_* symbols and a name/signature mismatch fails
 *    loudly at load time instead of at first call.
 *  - Strings cross as UTF-8 byte[] in both directions, never through NewStringUTF/GetStringUTFChars:
 *    those use "modified UTF-8", which encodes U+0000 as two bytes and supplementary characters as
 *    surrogate pairs (CESU-8), so "Åse 😀" would reach the library as invalid UTF-8 and an embedded NUL
 *    would be smuggled past a C string. Java encodes with a strict encoder (Utf8.encode); the bridge
 *    copies the bytes with their length and refuses an embedded NUL with IllegalArgumentException
 *    instead of letting C truncate the string there.
 *  - Library-owned strings are copied into a new byte[] and released with telenorid_string_free (which
 *    wipes them) at once. Input copies are wiped before they are freed: they may hold a client secret,
 *    an authorization code or a serialized PKCE verifier.
 *  - A failed library call turns into a Java exception built by TelenoridException.fromNative from
 *    telenorid_error_last() (status, status name, message, OAuth error, description, URI, HTTP status,
 *    Retry-After); the native then returns at once with a zero/NULL result. No JNI call is made while an exception is
 *    pending except the ones JNI allows (ExceptionCheck, DeleteLocalRef).
 *  - Handles cross as jlong. Java never passes 0 (it throws IllegalStateException for a closed object
 *    first), and the Java side serialises close() against in-flight calls, so the bridge does no
 *    locking of its own.
 *
 * The bridge is laid out by object family:
 *   telenorid_jni.c                this file: JNI_OnLoad, registration, versions and status names
 *   telenorid_jni_natives.c/.h     generated (scripts/gen): the adapters of the regular shapes, the table of
 *                                  every native and the prototypes of the hand-written ones
 *   telenorid_jni_convert.c        conversions: UTF-8 byte[] in and out, exceptions from status codes,
 *                                  call results, global references and threads for callbacks
 *   telenorid_jni_config.c         configuration
 *   telenorid_jni_pkce.c           PKCE
 *   telenorid_jni_authorization.c  authorization request, pending authorization, callbacks
 *   telenorid_jni_auth_state.c     client and auth state (network, change listener)
 *   telenorid_jni_line_auth.c      line authentication, the socket hook and the host resolver
 *   telenorid_jni_idp_app.c        the identity-provider app flow
 *   telenorid_jni_loopback.c       the loopback redirect listener
 *   telenorid_jni_dpop.c           DPoP: the host's signer, the headers for the app's own requests
 *   telenorid_jni_log.c            the library's log, to java.util.logging
 * telenorid_jni_bridge.h declares what they share.
 *
 * Adding a function: add its header name to scripts/gen/jni_natives.py and run `make generate`, which
 * writes its adapter (when it is of a regular shape), its table line and its declaration in Native.java;
 * for an irregular shape, give its Java declaration there instead and write the adapter (`n_` and the Java
 * name in snake case) in its family's file.
 */
#include <jni.h>

#include <stddef.h>

#include "telenorid.h"
#include "telenorid_jni_bridge.h"

#define NATIVE_CLASS "no/telenor/id/Native"

/* ------------------------------------------------------------------------------------------------
 * Versions and status names
 * --------------------------------------------------------------------------------------------- */

jint n_version(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return (jint)telenorid_version();
}

/* The version of the header this bridge was compiled against, for the load-time compatibility check. */
jint n_header_version(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return (jint)TELENORID_VERSION_NUMBER;
}

jbyteArray n_version_string(JNIEnv *env, jclass cls)
{
    (void)cls;
    return new_bytes(env, telenorid_version_string());
}

jbyteArray n_status_name(JNIEnv *env, jclass cls, jint status)
{
    (void)cls;
    return new_bytes(env, telenorid_status_str((telenorid_status)status));
}

/* The library's rule for transient failures, asked rather than copied into Java. */
jboolean n_status_is_transient(JNIEnv *env, jclass cls, jint status)
{
    (void)env;
    (void)cls;
    return telenorid_status_is_transient((telenorid_status)status) != 0 ? JNI_TRUE : JNI_FALSE;
}

/* ------------------------------------------------------------------------------------------------
 * Registration: the table of every native is telenorid_jni_natives.c's, generated with Native.java from the
 * header and scripts/gen/jni_natives.py. JNI signatures: J long (a handle), I int, Z boolean, V void,
 * [B byte[] (UTF-8), [I int[], [[B byte[][], L...; an object.
 * --------------------------------------------------------------------------------------------- */

/* How many natives the table registers, so a test can compare it with Native.java's declarations. */
jint n_registered_natives(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return natives_count;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
    (void)reserved;
    JNIEnv *env = NULL;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_6) != JNI_OK) {
        return JNI_ERR;
    }
    if (!convert_on_load(env, vm)) {
        return JNI_ERR;
    }
    jclass native = (*env)->FindClass(env, NATIVE_CLASS);
    if (native == NULL) {
        return JNI_ERR;
    }
    jint registered = JNI_OK;
    for (size_t i = 0; i < natives_on_load_count && registered == JNI_OK; i++) {
        if (!natives_on_load[i](env)) {
            registered = JNI_ERR;
        }
    }
    if (registered == JNI_OK) {
        registered = (*env)->RegisterNatives(env, native, natives, natives_count);
    }
    (*env)->DeleteLocalRef(env, native);
    if (registered != JNI_OK) {
        return JNI_ERR; /* NoSuchMethodError pending, naming the first mismatch */
    }
    return JNI_VERSION_1_6;
}
