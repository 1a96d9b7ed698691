/* telenorid_jni.h — what the bridge's two files share (private; not installed). Everything here has
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

/* telenorid_jni.c: see the comments there. */
int in_string_get(JNIEnv *env, jbyteArray bytes, const char *what, in_string *out);
void in_string_release(in_string *string);
jbyteArray new_bytes(JNIEnv *env, const char *chars);
void throw_status(JNIEnv *env, telenorid_status status);
jbyteArray string_result(JNIEnv *env, telenorid_status status, char *out);
jlong handle_result(JNIEnv *env, telenorid_status status, void *out);
void void_result(JNIEnv *env, telenorid_status status);
void throw_out_of_memory(JNIEnv *env, const char *what);

/* telenorid_jni_session.c: the client and auth state natives. session_on_load caches what the change
 * listener needs; returns 0 with an exception pending when it can't. */
extern const JNINativeMethod session_natives[];
extern const jint session_native_count;
int session_on_load(JavaVM *vm, JNIEnv *env);

#endif
