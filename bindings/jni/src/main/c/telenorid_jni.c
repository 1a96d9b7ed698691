/*
 * telenorid_jni.c — the JNI bridge between no.telenor.id.Native and libtelenorid's public C API.
 *
 * Rules this file keeps (see bindings/jni/README.md):
 *
 *  - It calls only what include/telenorid.h declares. Every native is a thin adapter: convert the
 *    arguments, make one library call (two or three for the configuration builder), convert the result.
 *  - Nothing but JNI_OnLoad is exported (built with -fvisibility=hidden). The natives are static
 *    functions registered from the NATIVES table with RegisterNatives, so there are no Java_* symbols
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
 *    Retry-After);
 *    the native then returns at once with a zero/NULL result. No JNI call is made while an exception is
 *    pending except the ones JNI allows (ExceptionCheck, DeleteLocalRef).
 *  - Handles cross as jlong. Java never passes 0 (it throws IllegalStateException for a closed object
 *    first), and the Java side serialises close() against in-flight calls, so the bridge does no
 *    locking of its own.
 *
 * Natives that go to the network or call back live in files of their own, each with its own table
 * (telenorid_jni_session.c: client and auth state; telenorid_jni_line_auth.c: line authentication and
 * the socket hook; telenorid_jni_idp_app.c: the identity-provider app flow; telenorid_jni_loopback.c:
 * the loopback listener); telenorid_jni.h shares the helpers and JNI_OnLoad registers every table.
 *
 * Adding a function: write the adapter (the STRING_GETTER / FREE_FUNCTION macros cover the common
 * shapes), add one NATIVE(...) line to its file's table, and declare the same name and signature in
 * Native.java. NativeRegistrationTest checks that the tables and Native.java agree.
 */
#include <jni.h>

#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "telenorid.h"
#include "telenorid_jni.h"

#define NATIVE_CLASS "no/telenor/id/Native"
#define EXCEPTION_CLASS "no/telenor/id/TelenoridException"
#define EXCEPTION_FACTORY "fromNative"
#define EXCEPTION_FACTORY_SIG "(I[B[B[B[B[BIJ)L" EXCEPTION_CLASS ";"

/* Cached in JNI_OnLoad as global references; read-only afterwards. */
static jclass g_exception_class;
static jmethodID g_exception_factory;
static jclass g_illegal_argument_class;
static jclass g_out_of_memory_class;
static jclass g_byte_array_class;
static JavaVM *g_vm;


/* ------------------------------------------------------------------------------------------------
 * Helpers
 * --------------------------------------------------------------------------------------------- */

/* Overwrites memory in a way the compiler may not drop as a dead store. */
static void wipe(void *memory, size_t length)
{
    volatile unsigned char *p = (volatile unsigned char *)memory;
    while (length--) {
        *p++ = 0;
    }
}

void throw_out_of_memory(JNIEnv *env, const char *what)
{
    if (!(*env)->ExceptionCheck(env)) {
        (*env)->ThrowNew(env, g_out_of_memory_class, what);
    }
}

void throw_illegal_argument(JNIEnv *env, const char *message)
{
    if (!(*env)->ExceptionCheck(env)) {
        (*env)->ThrowNew(env, g_illegal_argument_class, message);
    }
}

/* Copies `bytes` (may be NULL: gives a NULL string) into `out`. Refuses an embedded NUL with
 * IllegalArgumentException naming `what`. Returns 1 on success; 0 with an exception pending. */
int in_string_get(JNIEnv *env, jbyteArray bytes, const char *what, in_string *out)
{
    out->chars = NULL;
    out->length = 0;
    if (bytes == NULL) {
        return 1;
    }
    jsize length = (*env)->GetArrayLength(env, bytes);
    char *chars = malloc((size_t)length + 1);
    if (chars == NULL) {
        throw_out_of_memory(env, "telenorid: no memory for a string argument");
        return 0;
    }
    (*env)->GetByteArrayRegion(env, bytes, 0, length, (jbyte *)chars);
    if ((*env)->ExceptionCheck(env)) {
        free(chars);
        return 0;
    }
    const char *nul = memchr(chars, 0, (size_t)length);
    if (nul != NULL) {
        char message[160];
        snprintf(message, sizeof message, "%s contains a NUL character (U+0000) at byte %ld; it is refused, not truncated",
                 what, (long)(nul - chars));
        wipe(chars, (size_t)length);
        free(chars);
        (*env)->ThrowNew(env, g_illegal_argument_class, message);
        return 0;
    }
    chars[length] = '\0';
    out->chars = chars;
    out->length = (size_t)length;
    return 1;
}

void in_string_release(in_string *string)
{
    if (string->chars != NULL) {
        wipe(string->chars, string->length);
        free(string->chars);
        string->chars = NULL;
        string->length = 0;
    }
}

/* Copies every element of `array` (NULL: none). Returns 1 on success; 0 with an exception pending
 * (a null element is an IllegalArgumentException naming `what`). */
int in_strings_get(JNIEnv *env, jobjectArray array, const char *what, in_strings *out)
{
    out->items = NULL;
    out->pointers = NULL;
    out->count = 0;
    if (array == NULL) {
        return 1;
    }
    size_t count = (size_t)(*env)->GetArrayLength(env, array);
    if (count == 0) {
        return 1;
    }
    out->items = calloc(count, sizeof *out->items);
    out->pointers = calloc(count, sizeof *out->pointers);
    if (out->items == NULL || out->pointers == NULL) {
        in_strings_release(out);
        throw_out_of_memory(env, "telenorid: no memory for a string array argument");
        return 0;
    }
    for (size_t i = 0; i < count; i++) {
        jbyteArray element = (jbyteArray)(*env)->GetObjectArrayElement(env, array, (jsize)i);
        if ((*env)->ExceptionCheck(env)) {
            in_strings_release(out);
            return 0;
        }
        int ok = element != NULL && in_string_get(env, element, what, &out->items[i]);
        if (element != NULL) {
            (*env)->DeleteLocalRef(env, element);
        } else {
            char message[160];
            snprintf(message, sizeof message, "%s: element %lu is null", what, (unsigned long)i);
            throw_illegal_argument(env, message);
        }
        out->count = i + 1; /* release what was copied so far, even on failure */
        if (!ok) {
            in_strings_release(out);
            return 0;
        }
        out->pointers[i] = out->items[i].chars;
    }
    return 1;
}

void in_strings_release(in_strings *strings)
{
    for (size_t i = 0; i < strings->count; i++) {
        in_string_release(&strings->items[i]);
    }
    free(strings->items);
    free(strings->pointers);
    strings->items = NULL;
    strings->pointers = NULL;
    strings->count = 0;
}

/* A new byte[][] of `count` nulls; NULL with an exception pending when it can't be made. */
jobjectArray new_byte_arrays(JNIEnv *env, size_t count)
{
    if (count > (size_t)INT32_MAX) {
        throw_out_of_memory(env, "telenorid: too many strings for a Java array");
        return NULL;
    }
    return (*env)->NewObjectArray(env, (jsize)count, g_byte_array_class, NULL);
}

int java_ref_new(JNIEnv *env, jobject object, java_ref **out)
{
    *out = NULL;
    if (object == NULL) {
        return 1;
    }
    java_ref *ref = malloc(sizeof *ref);
    if (ref == NULL) {
        throw_out_of_memory(env, "telenorid: no memory for a callback");
        return 0;
    }
    ref->object = (*env)->NewGlobalRef(env, object);
    if (ref->object == NULL) {
        free(ref);
        return 0; /* OutOfMemoryError pending */
    }
    *out = ref;
    return 1;
}

void java_ref_free(JNIEnv *env, java_ref *ref)
{
    if (ref != NULL) {
        (*env)->DeleteGlobalRef(env, ref->object);
        free(ref);
    }
}

jlong java_ref_installed(JNIEnv *env, telenorid_status status, java_ref *next, jlong old)
{
    if (status != TELENORID_OK) {
        throw_status(env, status);
        java_ref_free(env, next);
        return old;
    }
    java_ref_free(env, HANDLE(java_ref, old));
    return JHANDLE(next);
}

JNIEnv *callback_env(int *attached)
{
    JNIEnv *env = NULL;
    *attached = 0;
    jint got = (*g_vm)->GetEnv(g_vm, (void **)&env, JNI_VERSION_1_6);
    if (got == JNI_EDETACHED) {
        if ((*g_vm)->AttachCurrentThread(g_vm, (void **)&env, NULL) != JNI_OK) {
            return NULL;
        }
        *attached = 1;
    } else if (got != JNI_OK) {
        return NULL;
    }
    return env;
}

void callback_env_release(int attached)
{
    if (attached) {
        (*g_vm)->DetachCurrentThread(g_vm);
    }
}

/* A new byte[] with the bytes of `chars` (not freed). NULL gives NULL. NULL with an exception pending
 * when the array can't be made. */
jbyteArray new_bytes(JNIEnv *env, const char *chars)
{
    if (chars == NULL) {
        return NULL;
    }
    size_t length = strlen(chars);
    if (length > (size_t)INT32_MAX) {
        throw_out_of_memory(env, "telenorid: string too long for a Java array");
        return NULL;
    }
    jbyteArray array = (*env)->NewByteArray(env, (jsize)length);
    if (array == NULL) {
        return NULL; /* OutOfMemoryError pending */
    }
    (*env)->SetByteArrayRegion(env, array, 0, (jsize)length, (const jbyte *)chars);
    return array;
}

/* Copies a string the library handed out into a byte[] and frees it with telenorid_string_free (which
 * wipes it), whatever happens. NULL (an absent value) gives NULL. */
jbyteArray take_string(JNIEnv *env, char *chars)
{
    jbyteArray array = new_bytes(env, chars);
    telenorid_string_free(chars);
    return array;
}

/* Throws the exception for a failed call: TelenoridException.fromNative(status, name, message,
 * oauthError, oauthErrorDescription, oauthErrorUri, httpStatus, retryAfter), filled from
 * telenorid_error_last(). */
void throw_status(JNIEnv *env, telenorid_status status)
{
    telenorid_error *error = telenorid_error_last();
    /* The last error must be the one of this call. If it is not (a library bug: a failing call that
     * recorded nothing), report the status alone rather than a stale message. */
    const telenorid_error *detail = (error != NULL && telenorid_error_status(error) == status) ? error : NULL;
    jbyteArray name = NULL, message = NULL, oauth_error = NULL, oauth_description = NULL, oauth_uri = NULL;
    jint http_status = detail != NULL ? (jint)telenorid_error_http_status(detail) : 0;
    jlong retry_after = detail != NULL ? (jlong)telenorid_error_retry_after(detail) : -1;

    name = new_bytes(env, telenorid_status_str(status));
    if (name == NULL) {
        goto done;
    }
    message = new_bytes(env, detail != NULL ? telenorid_error_message(detail) : telenorid_status_str(status));
    if (message == NULL) {
        goto done;
    }
    if (detail != NULL) {
        const char *value = telenorid_error_oauth_error(detail);
        if (value != NULL && (oauth_error = new_bytes(env, value)) == NULL) {
            goto done;
        }
        value = telenorid_error_oauth_description(detail);
        if (value != NULL && (oauth_description = new_bytes(env, value)) == NULL) {
            goto done;
        }
        value = telenorid_error_oauth_uri(detail);
        if (value != NULL && (oauth_uri = new_bytes(env, value)) == NULL) {
            goto done;
        }
    }
    jobject exception = (*env)->CallStaticObjectMethod(env, g_exception_class, g_exception_factory, (jint)status,
                                                       name, message, oauth_error, oauth_description, oauth_uri,
                                                       http_status, retry_after);
    if (!(*env)->ExceptionCheck(env) && exception != NULL) {
        (*env)->Throw(env, (jthrowable)exception);
        (*env)->DeleteLocalRef(env, exception);
    }

done:
    telenorid_error_free(error);
    if (name) (*env)->DeleteLocalRef(env, name);
    if (message) (*env)->DeleteLocalRef(env, message);
    if (oauth_error) (*env)->DeleteLocalRef(env, oauth_error);
    if (oauth_description) (*env)->DeleteLocalRef(env, oauth_description);
    if (oauth_uri) (*env)->DeleteLocalRef(env, oauth_uri);
}

/* Results of the three common call shapes. */

jbyteArray string_result(JNIEnv *env, telenorid_status status, char *out)
{
    if (status != TELENORID_OK) {
        throw_status(env, status); /* first: read the last error before any other library call */
        telenorid_string_free(out); /* NULL by contract; harmless either way */
        return NULL;
    }
    return take_string(env, out);
}

jlong handle_result(JNIEnv *env, telenorid_status status, void *out)
{
    if (status != TELENORID_OK) {
        throw_status(env, status);
        return 0;
    }
    return JHANDLE(out);
}

void void_result(JNIEnv *env, telenorid_status status)
{
    if (status != TELENORID_OK) {
        throw_status(env, status);
    }
}

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
 * Configuration
 * --------------------------------------------------------------------------------------------- */

/* Config.Builder keeps its settings in Java and builds in one call: builder_new, one builder_set per
 * setting, builder_build, builder_free. So no native builder outlives the call, and the Java builder
 * needs no close(). */
static jlong n_config_build(JNIEnv *env, jclass cls, jintArray keys, jobjectArray values)
{
    (void)cls;
    telenorid_config_builder *builder = NULL;
    telenorid_config *config = NULL;
    telenorid_status status;

    if (keys == NULL || values == NULL ||
        (*env)->GetArrayLength(env, keys) != (*env)->GetArrayLength(env, values)) {
        throw_illegal_argument(env, "keys and values must be arrays of the same length");
        return 0;
    }
    jsize count = (*env)->GetArrayLength(env, keys);
    status = telenorid_config_builder_new(&builder);
    if (status != TELENORID_OK) {
        throw_status(env, status);
        return 0;
    }
    for (jsize i = 0; i < count; i++) {
        jint key = 0;
        (*env)->GetIntArrayRegion(env, keys, i, 1, &key);
        if ((*env)->ExceptionCheck(env)) {
            goto done;
        }
        jbyteArray value_bytes = (jbyteArray)(*env)->GetObjectArrayElement(env, values, i);
        if ((*env)->ExceptionCheck(env)) {
            goto done;
        }
        in_string value;
        int ok = in_string_get(env, value_bytes, "a configuration value", &value);
        if (value_bytes != NULL) {
            (*env)->DeleteLocalRef(env, value_bytes);
        }
        if (!ok) {
            goto done;
        }
        status = telenorid_config_builder_set(builder, (telenorid_config_key)key, value.chars);
        in_string_release(&value);
        if (status != TELENORID_OK) {
            throw_status(env, status);
            goto done;
        }
    }
    status = telenorid_config_builder_build(builder, &config);
    if (status != TELENORID_OK) {
        throw_status(env, status);
        config = NULL;
    }
done:
    telenorid_config_builder_free(builder);
    return JHANDLE(config);
}

static jlong n_config_from_json(JNIEnv *env, jclass cls, jbyteArray json_bytes, jbyteArray environment_bytes)
{
    (void)cls;
    in_string json, environment;
    telenorid_config *out = NULL;
    if (!in_string_get(env, json_bytes, "json", &json)) {
        return 0;
    }
    if (!in_string_get(env, environment_bytes, "environment", &environment)) {
        in_string_release(&json);
        return 0;
    }
    telenorid_status status = telenorid_config_from_json(json.chars, environment.chars, &out);
    in_string_release(&json);
    in_string_release(&environment);
    return handle_result(env, status, out);
}

static jbyteArray n_config_get(JNIEnv *env, jclass cls, jlong config, jint key)
{
    (void)cls;
    char *out = NULL;
    telenorid_status status = telenorid_config_get(HANDLE(const telenorid_config, config),
                                                   (telenorid_config_key)key, &out);
    return string_result(env, status, out);
}

FREE_FUNCTION(n_config_free, telenorid_config, telenorid_config_free)

/* ------------------------------------------------------------------------------------------------
 * PKCE
 * --------------------------------------------------------------------------------------------- */

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

/* ------------------------------------------------------------------------------------------------
 * Authorization request
 * --------------------------------------------------------------------------------------------- */

static jlong n_auth_request_new(JNIEnv *env, jclass cls, jlong config)
{
    (void)cls;
    telenorid_auth_request *out = NULL;
    telenorid_status status = telenorid_auth_request_new(HANDLE(const telenorid_config, config), &out);
    return handle_result(env, status, out);
}

static void n_auth_request_set(JNIEnv *env, jclass cls, jlong request, jint param, jbyteArray value_bytes)
{
    (void)cls;
    in_string value;
    if (!in_string_get(env, value_bytes, "value", &value)) {
        return;
    }
    telenorid_status status = telenorid_auth_request_set(HANDLE(telenorid_auth_request, request),
                                                         (telenorid_auth_param)param, value.chars);
    in_string_release(&value);
    void_result(env, status);
}

static void n_auth_request_add_parameter(JNIEnv *env, jclass cls, jlong request, jbyteArray name_bytes,
                                         jbyteArray value_bytes)
{
    (void)cls;
    in_string name, value;
    if (!in_string_get(env, name_bytes, "name", &name)) {
        return;
    }
    if (!in_string_get(env, value_bytes, "value", &value)) {
        in_string_release(&name);
        return;
    }
    telenorid_status status = telenorid_auth_request_add_parameter(HANDLE(telenorid_auth_request, request),
                                                                   name.chars, value.chars);
    in_string_release(&name);
    in_string_release(&value);
    void_result(env, status);
}

static void n_auth_request_add_claim(JNIEnv *env, jclass cls, jlong request, jint target, jbyteArray name_bytes,
                                     jint essential, jbyteArray purpose_bytes, jbyteArray value_json_bytes,
                                     jbyteArray values_json_bytes)
{
    (void)cls;
    in_string name = {0}, purpose = {0}, value_json = {0}, values_json = {0};
    if (in_string_get(env, name_bytes, "name", &name) &&
        in_string_get(env, purpose_bytes, "purpose", &purpose) &&
        in_string_get(env, value_json_bytes, "valueJson", &value_json) &&
        in_string_get(env, values_json_bytes, "valuesJson", &values_json)) {
        telenorid_status status = telenorid_auth_request_add_claim(
            HANDLE(telenorid_auth_request, request), (telenorid_claim_target)target, name.chars, (int32_t)essential,
            purpose.chars, value_json.chars, values_json.chars);
        void_result(env, status);
    }
    in_string_release(&name);
    in_string_release(&purpose);
    in_string_release(&value_json);
    in_string_release(&values_json);
}

static void n_auth_request_set_app_to_app(JNIEnv *env, jclass cls, jlong request, jbyteArray uri_bytes)
{
    (void)cls;
    in_string uri;
    if (!in_string_get(env, uri_bytes, "appCallbackUri", &uri)) {
        return;
    }
    telenorid_status status = telenorid_auth_request_set_app_to_app(HANDLE(telenorid_auth_request, request),
                                                                    uri.chars);
    in_string_release(&uri);
    void_result(env, status);
}

static void n_auth_request_set_pkce_method(JNIEnv *env, jclass cls, jlong request, jint method)
{
    (void)cls;
    void_result(env, telenorid_auth_request_set_pkce_method(HANDLE(telenorid_auth_request, request),
                                                            (telenorid_pkce_method)method));
}

static jlong n_auth_request_build(JNIEnv *env, jclass cls, jlong request)
{
    (void)cls;
    telenorid_pending_auth *out = NULL;
    telenorid_status status = telenorid_auth_request_build(HANDLE(const telenorid_auth_request, request), &out);
    return handle_result(env, status, out);
}

FREE_FUNCTION(n_auth_request_free, telenorid_auth_request, telenorid_auth_request_free)

/* ------------------------------------------------------------------------------------------------
 * Pending authorization
 * --------------------------------------------------------------------------------------------- */

STRING_GETTER(n_pending_auth_url, const telenorid_pending_auth, telenorid_pending_auth_url)
STRING_GETTER(n_pending_auth_state, const telenorid_pending_auth, telenorid_pending_auth_state)
STRING_GETTER(n_pending_auth_nonce, const telenorid_pending_auth, telenorid_pending_auth_nonce)
STRING_GETTER(n_pending_auth_code_verifier, const telenorid_pending_auth, telenorid_pending_auth_code_verifier)
STRING_GETTER(n_pending_auth_serialize, const telenorid_pending_auth, telenorid_pending_auth_serialize)

static jlong n_pending_auth_restore(JNIEnv *env, jclass cls, jlong config, jbyteArray json_bytes)
{
    (void)cls;
    in_string json;
    telenorid_pending_auth *out = NULL;
    if (!in_string_get(env, json_bytes, "json", &json)) {
        return 0;
    }
    telenorid_status status = telenorid_pending_auth_restore(HANDLE(const telenorid_config, config), json.chars,
                                                             &out);
    in_string_release(&json);
    return handle_result(env, status, out);
}

static jlong n_pending_auth_handle_callback(JNIEnv *env, jclass cls, jlong pending, jbyteArray url_bytes)
{
    (void)cls;
    in_string url;
    telenorid_callback *out = NULL;
    if (!in_string_get(env, url_bytes, "redirectUrl", &url)) {
        return 0;
    }
    telenorid_status status = telenorid_pending_auth_handle_callback(HANDLE(const telenorid_pending_auth, pending),
                                                                     url.chars, &out);
    in_string_release(&url);
    return handle_result(env, status, out);
}

static jlong n_pending_auth_handle_app_callback(JNIEnv *env, jclass cls, jlong pending, jbyteArray url_bytes,
                                                jbyteArray host_bytes)
{
    (void)cls;
    in_string url, host;
    telenorid_app_callback *out = NULL;
    if (!in_string_get(env, url_bytes, "callbackUrl", &url)) {
        return 0;
    }
    if (!in_string_get(env, host_bytes, "allowedResumeHost", &host)) {
        in_string_release(&url);
        return 0;
    }
    telenorid_status status = telenorid_pending_auth_handle_app_callback(
        HANDLE(const telenorid_pending_auth, pending), url.chars, host.chars, &out);
    in_string_release(&url);
    in_string_release(&host);
    return handle_result(env, status, out);
}

FREE_FUNCTION(n_pending_auth_free, telenorid_pending_auth, telenorid_pending_auth_free)

/* ------------------------------------------------------------------------------------------------
 * Callbacks
 * --------------------------------------------------------------------------------------------- */

STRING_GETTER(n_callback_code, const telenorid_callback, telenorid_callback_code)

static jbyteArray n_callback_parameter(JNIEnv *env, jclass cls, jlong callback, jbyteArray name_bytes)
{
    (void)cls;
    in_string name;
    char *out = NULL;
    if (!in_string_get(env, name_bytes, "name", &name)) {
        return NULL;
    }
    telenorid_status status = telenorid_callback_parameter(HANDLE(const telenorid_callback, callback), name.chars,
                                                           &out);
    in_string_release(&name);
    return string_result(env, status, out);
}

FREE_FUNCTION(n_callback_free, telenorid_callback, telenorid_callback_free)

STRING_GETTER(n_app_callback_resume_uri, const telenorid_app_callback, telenorid_app_callback_resume_uri)
FREE_FUNCTION(n_app_callback_free, telenorid_app_callback, telenorid_app_callback_free)

/* ------------------------------------------------------------------------------------------------
 * Registration. One line per native of no.telenor.id.Native, with its JNI signature:
 * J long (a handle), I int, V void, [B byte[] (UTF-8), [I int[], [[B byte[][].
 * --------------------------------------------------------------------------------------------- */

static const JNINativeMethod NATIVES[] = {
    NATIVE("registeredNatives", "()I", n_registered_natives),
    NATIVE("version", "()I", n_version),
    NATIVE("headerVersion", "()I", n_header_version),
    NATIVE("versionString", "()[B", n_version_string),
    NATIVE("statusName", "(I)[B", n_status_name),
    NATIVE("statusIsTransient", "(I)Z", n_status_is_transient),

    NATIVE("configBuild", "([I[[B)J", n_config_build),
    NATIVE("configFromJson", "([B[B)J", n_config_from_json),
    NATIVE("configGet", "(JI)[B", n_config_get),
    NATIVE("configFree", "(J)V", n_config_free),

    NATIVE("pkceNew", "(I)J", n_pkce_new),
    NATIVE("pkceFromVerifier", "([B)J", n_pkce_from_verifier),
    NATIVE("pkceVerifier", "(J)[B", n_pkce_verifier),
    NATIVE("pkceChallenge", "(J)[B", n_pkce_challenge),
    NATIVE("pkceFree", "(J)V", n_pkce_free),

    NATIVE("authRequestNew", "(J)J", n_auth_request_new),
    NATIVE("authRequestSet", "(JI[B)V", n_auth_request_set),
    NATIVE("authRequestAddParameter", "(J[B[B)V", n_auth_request_add_parameter),
    NATIVE("authRequestAddClaim", "(JI[BI[B[B[B)V", n_auth_request_add_claim),
    NATIVE("authRequestSetAppToApp", "(J[B)V", n_auth_request_set_app_to_app),
    NATIVE("authRequestSetPkceMethod", "(JI)V", n_auth_request_set_pkce_method),
    NATIVE("authRequestBuild", "(J)J", n_auth_request_build),
    NATIVE("authRequestFree", "(J)V", n_auth_request_free),

    NATIVE("pendingAuthUrl", "(J)[B", n_pending_auth_url),
    NATIVE("pendingAuthState", "(J)[B", n_pending_auth_state),
    NATIVE("pendingAuthNonce", "(J)[B", n_pending_auth_nonce),
    NATIVE("pendingAuthCodeVerifier", "(J)[B", n_pending_auth_code_verifier),
    NATIVE("pendingAuthSerialize", "(J)[B", n_pending_auth_serialize),
    NATIVE("pendingAuthRestore", "(J[B)J", n_pending_auth_restore),
    NATIVE("pendingAuthHandleCallback", "(J[B)J", n_pending_auth_handle_callback),
    NATIVE("pendingAuthHandleAppCallback", "(J[B[B)J", n_pending_auth_handle_app_callback),
    NATIVE("pendingAuthFree", "(J)V", n_pending_auth_free),

    NATIVE("callbackCode", "(J)[B", n_callback_code),
    NATIVE("callbackParameter", "(J[B)[B", n_callback_parameter),
    NATIVE("callbackFree", "(J)V", n_callback_free),

    NATIVE("appCallbackResumeUri", "(J)[B", n_app_callback_resume_uri),
    NATIVE("appCallbackFree", "(J)V", n_app_callback_free),
};

#define NATIVE_COUNT ((jint)(sizeof NATIVES / sizeof NATIVES[0]))

static const native_table *const OTHER_TABLES[] = {&session_table, &line_auth_table, &idp_app_table, &loopback_table};
#define OTHER_TABLE_COUNT (sizeof OTHER_TABLES / sizeof OTHER_TABLES[0])

/* How many natives the table registers, so a test can compare it with Native.java's declarations. */
static jint n_registered_natives(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    jint count = NATIVE_COUNT;
    for (size_t i = 0; i < OTHER_TABLE_COUNT; i++) {
        count += OTHER_TABLES[i]->count;
    }
    return count;
}

static jclass global_class(JNIEnv *env, const char *name)
{
    jclass local = (*env)->FindClass(env, name);
    if (local == NULL) {
        return NULL; /* NoClassDefFoundError pending */
    }
    jclass global = (jclass)(*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    return global;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
    (void)reserved;
    JNIEnv *env = NULL;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_6) != JNI_OK) {
        return JNI_ERR;
    }
    g_vm = vm;
    g_illegal_argument_class = global_class(env, "java/lang/IllegalArgumentException");
    g_out_of_memory_class = global_class(env, "java/lang/OutOfMemoryError");
    g_byte_array_class = global_class(env, "[B");
    g_exception_class = global_class(env, EXCEPTION_CLASS);
    if (g_illegal_argument_class == NULL || g_out_of_memory_class == NULL || g_byte_array_class == NULL ||
        g_exception_class == NULL) {
        return JNI_ERR;
    }
    g_exception_factory = (*env)->GetStaticMethodID(env, g_exception_class, EXCEPTION_FACTORY, EXCEPTION_FACTORY_SIG);
    if (g_exception_factory == NULL) {
        return JNI_ERR;
    }
    jclass native = (*env)->FindClass(env, NATIVE_CLASS);
    if (native == NULL) {
        return JNI_ERR;
    }
    jint registered = (*env)->RegisterNatives(env, native, NATIVES, NATIVE_COUNT);
    for (size_t i = 0; i < OTHER_TABLE_COUNT && registered == JNI_OK; i++) {
        const native_table *table = OTHER_TABLES[i];
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
