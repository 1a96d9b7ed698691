/* telenorid_jni_bridge.h — what the bridge's files share (private; not installed). Everything here has
 * hidden visibility through -fvisibility=hidden: the bridge still exports only JNI_OnLoad. */
#ifndef TELENORID_JNI_BRIDGE_H
#define TELENORID_JNI_BRIDGE_H

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

/* One line of the registration table (telenorid_jni_natives.c, generated). */
#define NATIVE(java_name, signature, function) {(char *)(java_name), (char *)(signature), (void *)(function)}

/* The hand-written adapters and on-load functions, and the table: generated from the header and
 * scripts/gen/jni_natives.py. */
#include "telenorid_jni_natives.h"

/* A store for one call (telenorid_jni_store.c): the directory store when `directory_bytes` is not NULL, else the
 * app's through `call` (a StoreCall). 0 with an exception pending when it can't be made. */
int new_store(JNIEnv *env, jobject call, jbyteArray directory_bytes, telenorid_store **out);

#endif
