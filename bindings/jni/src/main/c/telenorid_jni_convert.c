/*
 * telenorid_jni_convert.c — the bridge's conversions, shared by every file through telenorid_jni_bridge.h:
 * Java byte[] (UTF-8) in and out, byte[][] arrays, the Java exception for a failed library call (built by
 * TelenoridException.fromNative from telenorid_error_last()), the results of the common call shapes, and
 * the plumbing of the library's callbacks (global references, attaching a thread). The rules every native
 * keeps are in telenorid_jni.c.
 */
#include <jni.h>

#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "telenorid.h"
#include "telenorid_jni_bridge.h"

#define EXCEPTION_CLASS "no/telenor/id/TelenoridException"
#define EXCEPTION_FACTORY "fromNative"
#define EXCEPTION_FACTORY_SIG "(I[B[B[B[B[BIJ)L" EXCEPTION_CLASS ";"

/* Cached by convert_on_load (from JNI_OnLoad) as global references; read-only afterwards. */
static jclass g_exception_class;
static jmethodID g_exception_factory;
static jclass g_illegal_argument_class;
static jclass g_out_of_memory_class;
static jclass g_byte_array_class;
static JavaVM *g_vm;

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

int convert_on_load(JNIEnv *env, JavaVM *vm)
{
    g_vm = vm;
    g_illegal_argument_class = global_class(env, "java/lang/IllegalArgumentException");
    g_out_of_memory_class = global_class(env, "java/lang/OutOfMemoryError");
    g_byte_array_class = global_class(env, "[B");
    g_exception_class = global_class(env, EXCEPTION_CLASS);
    if (g_illegal_argument_class == NULL || g_out_of_memory_class == NULL || g_byte_array_class == NULL ||
        g_exception_class == NULL) {
        return 0;
    }
    g_exception_factory = (*env)->GetStaticMethodID(env, g_exception_class, EXCEPTION_FACTORY, EXCEPTION_FACTORY_SIG);
    return g_exception_factory != NULL;
}

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
