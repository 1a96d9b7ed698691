/*
 * telenorid_jni.c — the JNI bridge between no.telenor.id.Native and libtelenorid's public C API: loading
 * (JNI_OnLoad) and registration of every file's table of natives, and the library-wide natives (versions,
 * status names).
 *
 * Rules every file of the bridge keeps (see bindings/jni/README.md):
 *
 *  - It calls only what include/telenorid.h declares. Every native is a thin adapter: convert the
 *    arguments, make one library call (two or three for the configuration builder), convert the result.
 *  - Nothing but JNI_OnLoad is exported (built with -fvisibility=hidden). The natives are static
 *    functions registered from each file's table with RegisterNatives, so there are no Java_* symbols
 *    and a name/signature mismatch fails loudly at load time instead of at first call.
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
 * The bridge is laid out by object family, each file with its own table of natives:
 *   telenorid_jni.c                this file: JNI_OnLoad, registration, versions and status names
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
 * telenorid_jni.h declares what they share.
 *
 * Adding a function: write the adapter in its family's file (the STRING_GETTER / FREE_FUNCTION macros
 * cover the common shapes), add one NATIVE(...) line to that file's table, and declare the same name and
 * signature in Native.java. NativeRegistrationTest checks that the tables and Native.java agree.
 */
#include <jni.h>

#include <stddef.h>

#include "telenorid.h"
#include "telenorid_jni.h"

#define NATIVE_CLASS "no/telenor/id/Native"

/* ------------------------------------------------------------------------------------------------
 * Versions and status names
 * --------------------------------------------------------------------------------------------- */

static jint n_version(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return (jint)telenorid_version();
}

/* The version of the header this bridge was compiled against, for the load-time compatibility check. */
static jint n_header_version(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return (jint)TELENORID_VERSION_NUMBER;
}

static jbyteArray n_version_string(JNIEnv *env, jclass cls)
{
    (void)cls;
    return new_bytes(env, telenorid_version_string());
}

static jbyteArray n_status_name(JNIEnv *env, jclass cls, jint status)
{
    (void)cls;
    return new_bytes(env, telenorid_status_str((telenorid_status)status));
}

/* The library's rule for transient failures, asked rather than copied into Java. */
static jboolean n_status_is_transient(JNIEnv *env, jclass cls, jint status)
{
    (void)env;
    (void)cls;
    return telenorid_status_is_transient((telenorid_status)status) != 0 ? JNI_TRUE : JNI_FALSE;
}

static jint n_registered_natives(JNIEnv *env, jclass cls);

/* ------------------------------------------------------------------------------------------------
 * Registration. One line per native of no.telenor.id.Native, with its JNI signature:
 * J long (a handle), I int, V void, [B byte[] (UTF-8), [I int[], [[B byte[][].
 * --------------------------------------------------------------------------------------------- */

static const JNINativeMethod library_natives[] = {
    NATIVE("registeredNatives", "()I", n_registered_natives),
    NATIVE("version", "()I", n_version),
    NATIVE("headerVersion", "()I", n_header_version),
    NATIVE("versionString", "()[B", n_version_string),
    NATIVE("statusName", "(I)[B", n_status_name),
    NATIVE("statusIsTransient", "(I)Z", n_status_is_transient),
};

static NATIVE_TABLE(library_table, library_natives, NULL);

/* Every table, registered in this order. */
static const native_table *const TABLES[] = {
    &library_table, &config_table,   &pkce_table,    &authorization_table,
    &auth_state_table, &line_auth_table, &idp_app_table, &loopback_table, &dpop_table, &log_table,
    &store_table, &device_table, &ciba_table, &accounts_table,
};
#define TABLE_COUNT (sizeof TABLES / sizeof TABLES[0])

/* How many natives the tables register, so a test can compare it with Native.java's declarations. */
static jint n_registered_natives(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    jint count = 0;
    for (size_t i = 0; i < TABLE_COUNT; i++) {
        count += TABLES[i]->count;
    }
    return count;
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
    for (size_t i = 0; i < TABLE_COUNT && registered == JNI_OK; i++) {
        const native_table *table = TABLES[i];
        if (table->on_load != NULL && !table->on_load(env)) {
            registered = JNI_ERR;
        } else {
            registered = (*env)->RegisterNatives(env, native, table->methods, table->count);
        }
    }
    (*env)->DeleteLocalRef(env, native);
    if (registered != JNI_OK) {
        return JNI_ERR; /* NoSuchMethodError pending, naming the first mismatch */
    }
    return JNI_VERSION_1_6;
}
