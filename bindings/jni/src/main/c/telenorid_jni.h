/* telenorid_jni.h — what the bridge's files share (private; not installed). Everything here has
 * hidden visibility through -fvisibility=hidden: the bridge still exports only JNI_OnLoad. */
#ifndef TELENORID_JNI_H
#define TELENORID_JNI_H

#include <jni.h>
#include <stddef.h>
#include <stdint.h>

#include "telenorid.h"

#define HANDLE(type, value) ((type *)(intptr_t)(value))
#define JHANDLE(pointer) ((jlong)(intptr_t)(pointer))

/* A NUL-terminated copy of a Java byte[] holding UTF-8. */
typedef struct {
    char *chars;   /* NULL when the Java array was null */
    size_t length; /* without the terminating NUL */
} in_string;

/* Copies of a Java byte[][] (a null array gives count 0; a null element is refused): the strings and a
 * C array of pointers to them, as the header's `const char *const *` parameters take. */
typedef struct {
    in_string *items;
    const char **pointers; /* NULL when count is 0 */
    size_t count;
} in_strings;

/* telenorid_jni_convert.c: see the comments there. */

/* Caches the classes and methods the conversions need (from JNI_OnLoad). Returns 1; 0 with an
 * exception pending. */
int convert_on_load(JNIEnv *env, JavaVM *vm);
int in_string_get(JNIEnv *env, jbyteArray bytes, const char *what, in_string *out);
void in_string_release(in_string *string);
int in_strings_get(JNIEnv *env, jobjectArray array, const char *what, in_strings *out);
void in_strings_release(in_strings *strings);
jbyteArray new_bytes(JNIEnv *env, const char *chars);
jbyteArray take_string(JNIEnv *env, char *chars);
void throw_status(JNIEnv *env, telenorid_status status);
jbyteArray string_result(JNIEnv *env, telenorid_status status, char *out);
jlong handle_result(JNIEnv *env, telenorid_status status, void *out);
void void_result(JNIEnv *env, telenorid_status status);
void throw_out_of_memory(JNIEnv *env, const char *what);
void throw_illegal_argument(JNIEnv *env, const char *message);
jobjectArray new_byte_arrays(JNIEnv *env, size_t count);

/* `jbyteArray name(jlong handle)` for a function `telenorid_status cfunc(const type *, char **out)`. */
#define STRING_GETTER(name, type, cfunc)                                      \
    static jbyteArray name(JNIEnv *env, jclass cls, jlong handle)             \
    {                                                                         \
        (void)cls;                                                            \
        char *out = NULL;                                                     \
        telenorid_status status = cfunc(HANDLE(type, handle), &out);          \
        return string_result(env, status, out);                               \
    }

/* `void name(jlong handle)` for a function `void cfunc(type *)`. */
#define FREE_FUNCTION(name, type, cfunc)                                      \
    static void name(JNIEnv *env, jclass cls, jlong handle)                   \
    {                                                                         \
        (void)env;                                                            \
        (void)cls;                                                            \
        cfunc(HANDLE(type, handle));                                          \
    }

/* A Java object the library holds as a callback's user_data (a change listener, a socket hook, a DPoP
 * signer): a global reference in memory of its own, whose address the Java side keeps as a long. */
typedef struct {
    jobject object; /* global reference */
} java_ref;

/* *out = a java_ref for `object` (NULL object: *out = NULL). Returns 1; 0 with an exception pending. */
int java_ref_new(JNIEnv *env, jobject object, java_ref **out);
void java_ref_free(JNIEnv *env, java_ref *ref);
/* After the library was asked to install `next` in place of the Java side's `old` (a java_ref as
 * jlong): on success releases `old` and returns `next`; on failure throws, releases `next`, returns `old`. */
jlong java_ref_installed(JNIEnv *env, telenorid_status status, java_ref *next, jlong old);

/* For the library's callbacks (change listener, socket hook), which may run on a thread the JVM does
 * not know: the thread's JNIEnv, attaching the thread first when it is not attached (then *attached is
 * 1 and callback_env_release detaches it again). NULL when there is no JVM thread to run Java on. */
JNIEnv *callback_env(int *attached);
void callback_env_release(int attached);

/* A table of natives to register with no.telenor.id.Native, one per file. `on_load` (may be NULL)
 * caches what the file's callbacks need; it returns 0 with an exception pending when it can't. */
typedef struct {
    const JNINativeMethod *methods;
    jint count;
    int (*on_load)(JNIEnv *env);
} native_table;

#define NATIVE(java_name, signature, function) {(char *)(java_name), (char *)(signature), (void *)(function)}
#define NATIVE_TABLE(name, methods, on_load) \
    const native_table name = {methods, (jint)(sizeof methods / sizeof methods[0]), on_load}

extern const native_table config_table;        /* telenorid_jni_config.c: configuration */
extern const native_table pkce_table;          /* telenorid_jni_pkce.c: PKCE */
extern const native_table authorization_table; /* telenorid_jni_authorization.c: request, pending, callbacks */
extern const native_table auth_state_table;    /* telenorid_jni_auth_state.c: client, auth state, change listener */
extern const native_table line_auth_table;     /* telenorid_jni_line_auth.c: line authentication, socket hook, resolver */
extern const native_table idp_app_table;       /* telenorid_jni_idp_app.c: the identity-provider app flow */
extern const native_table loopback_table;      /* telenorid_jni_loopback.c: the loopback redirect listener */
extern const native_table dpop_table;          /* telenorid_jni_dpop.c: DPoP signer, request headers */
extern const native_table device_table;        /* telenorid_jni_device.c: the device authorization grant */
extern const native_table ciba_table;          /* telenorid_jni_ciba.c: backchannel authentication, login hints */
extern const native_table log_table;           /* telenorid_jni_log.c: the library's log */
extern const native_table store_table;         /* telenorid_jni_store.c: the app's store, the directory store */
extern const native_table accounts_table;      /* telenorid_jni_accounts.c: the registry of accounts */

/* A store for one call (telenorid_jni_store.c): the directory store when `directory_bytes` is not NULL, else the
 * app's through `call` (a StoreCall). 0 with an exception pending when it can't be made. */
int new_store(JNIEnv *env, jobject call, jbyteArray directory_bytes, telenorid_store **out);

#endif
