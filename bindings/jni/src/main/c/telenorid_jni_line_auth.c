/*
 * telenorid_jni_line_auth.c — the bridge's line authentication natives (TelenorID+ through Aloha; see
 * telenorid_jni.c for the rules every native keeps), the socket hook and the host resolver.
 *
 * The socket hook is the app's way to put the exchange on the cellular network: the library calls it
 * with each socket before it connects. The resolver is its way to look the names up on that network: the
 * library calls it with each host name the exchange must resolve, and connects only to the addresses it
 * answers. The bridge keeps the Java side of each (a SocketHookCall or a HostResolverCall, which calls the
 * app's SocketHook or HostResolver and turns what it throws into a refusal) as a global reference in a
 * `java_ref` the Java side holds as a long. The exchange runs on the thread that called run() or apply(),
 * so the callbacks normally find that thread attached; callback_env attaches one that is not. Replacing a
 * hook or resolver and freeing the line authenticator release the global reference; LineAuthenticator
 * does both under its write lock, which waits for every exchange in flight (an exchange keeps the hook and
 * resolver it started with), so the old one is never in use while it is released.
 */

#include <string.h>

#include "telenorid_jni_bridge.h"

#define HOOK_CLASS "no/telenor/id/SocketHookCall"

#define RESOLVER_CLASS "no/telenor/id/HostResolverCall"

static jmethodID g_hook_on_socket;       /* int SocketHookCall.onSocket(int fd) */
static jmethodID g_resolver_resolve;     /* int HostResolverCall.resolve(byte[] host, int port, byte[][] answer) */

/* The library's socket hook: the Java verdict, or a refusal when Java can't be asked. */
static int32_t on_socket(void *user_data, int fd)
{
    java_ref *hook = user_data;
    int32_t verdict = TELENORID_SOCKET_REFUSE;
    int attached = 0;
    JNIEnv *env = callback_env(&attached);
    if (env == NULL) {
        return verdict;
    }
    if (!(*env)->ExceptionCheck(env)) {
        jint answer = (*env)->CallIntMethod(env, hook->object, g_hook_on_socket, (jint)fd);
        if ((*env)->ExceptionCheck(env)) {
            /* SocketHookCall catches what the app's hook throws; what is left (an Error while recording
             * it) can't propagate through the library: refuse the socket and drop it. */
            (*env)->ExceptionClear(env);
        } else {
            verdict = (int32_t)answer;
        }
    }
    callback_env_release(attached);
    return verdict;
}

/* Copies Java's answer (ASCII text without its NUL) into `out` of `out_size` bytes, NUL-terminated: 1 when it
 * fits and holds no NUL byte (the library would read a shorter list than Java gave), else 0. */
static int copy_answer(JNIEnv *env, jbyteArray text, uint8_t *out, size_t out_size)
{
    jsize length = (*env)->GetArrayLength(env, text);
    if (length < 0 || (size_t)length >= out_size) {
        return 0;
    }
    (*env)->GetByteArrayRegion(env, text, 0, length, (jbyte *)out);
    if (memchr(out, 0, (size_t)length) != NULL) {
        out[0] = 0;
        return 0;
    }
    out[length] = 0;
    return 1;
}

/* Asks Java to resolve `host` for `port`: the verdict (a TELENORID_SOCKET_* value), with the answer copied
 * into `out` when it is TELENORID_SOCKET_ALLOW; TELENORID_SOCKET_REFUSE when Java can't be asked or gives no
 * usable answer (HostResolverCall keeps what the resolver threw). */
static int32_t resolve_in_java(JNIEnv *env, java_ref *resolver, const char *host, int32_t port, uint8_t *out,
                               size_t out_size)
{
    jbyteArray host_bytes = new_bytes(env, host);
    if (host_bytes == NULL) {
        (*env)->ExceptionClear(env); /* OutOfMemoryError: can't propagate through the library */
        return TELENORID_SOCKET_REFUSE;
    }
    jobjectArray slot = new_byte_arrays(env, 1);
    if (slot == NULL) {
        (*env)->ExceptionClear(env);
        (*env)->DeleteLocalRef(env, host_bytes);
        return TELENORID_SOCKET_REFUSE;
    }
    jint answer = (*env)->CallIntMethod(env, resolver->object, g_resolver_resolve, host_bytes, (jint)port, slot);
    (*env)->DeleteLocalRef(env, host_bytes);
    int32_t verdict = TELENORID_SOCKET_REFUSE;
    if ((*env)->ExceptionCheck(env)) {
        /* HostResolverCall catches what the app's resolver throws; what is left (an Error while recording
         * it) can't propagate through the library: refuse the name and drop it. */
        (*env)->ExceptionClear(env);
    } else if (answer == TELENORID_SOCKET_ALLOW) {
        jbyteArray text = (jbyteArray)(*env)->GetObjectArrayElement(env, slot, 0);
        if (text != NULL) {
            if (copy_answer(env, text, out, out_size)) {
                verdict = TELENORID_SOCKET_ALLOW;
            }
            (*env)->DeleteLocalRef(env, text);
        }
    } else {
        verdict = (int32_t)answer; /* NOT_CELLULAR, or a refusal */
    }
    (*env)->DeleteLocalRef(env, slot);
    return verdict;
}

/* The library's host resolver (telenorid_host_resolver): Java's verdict and answer, or a refusal when Java
 * can't be asked. */
static int32_t on_resolve(void *user_data, const char *host, int32_t port, uint8_t *out, size_t out_size)
{
    int32_t verdict = TELENORID_SOCKET_REFUSE;
    if (out == NULL || out_size == 0 || host == NULL) {
        return verdict;
    }
    out[0] = 0;
    int attached = 0;
    JNIEnv *env = callback_env(&attached);
    if (env == NULL) {
        return verdict;
    }
    /* Inside a native call that already failed (an exception pending), Java can't be called. */
    if (!(*env)->ExceptionCheck(env)) {
        verdict = resolve_in_java(env, user_data, host, port, out, out_size);
    }
    callback_env_release(attached);
    return verdict;
}

int line_auth_on_load(JNIEnv *env)
{
    jclass hook_class = (*env)->FindClass(env, HOOK_CLASS);
    if (hook_class == NULL) {
        return 0;
    }
    g_hook_on_socket = (*env)->GetMethodID(env, hook_class, "onSocket", "(I)I");
    (*env)->DeleteLocalRef(env, hook_class);
    if (g_hook_on_socket == NULL) {
        return 0;
    }
    jclass resolver_class = (*env)->FindClass(env, RESOLVER_CLASS);
    if (resolver_class == NULL) {
        return 0;
    }
    g_resolver_resolve = (*env)->GetMethodID(env, resolver_class, "resolve", "([BI[[B)I");
    (*env)->DeleteLocalRef(env, resolver_class);
    return g_resolver_resolve != NULL;
}

/* Installs `call` (null: removes the hook) and returns the new hook handle (0 for none). On success the
 * previous hook, `old`, is released; on failure it stays installed and the new one is released instead. */
jlong n_line_auth_set_socket_hook(JNIEnv *env, jclass cls, jlong line_auth, jobject call, jlong old)
{
    (void)cls;
    java_ref *next = NULL;
    if (!java_ref_new(env, call, &next)) {
        return old;
    }
    telenorid_status status =
        telenorid_line_authenticator_set_socket_hook(HANDLE(telenorid_line_authenticator, line_auth),
                                                     next != NULL ? on_socket : NULL, next);
    return java_ref_installed(env, status, next, old);
}

/* Installs `call` (null: removes the resolver) and returns the new resolver handle (0 for none), as
 * n_line_auth_set_socket_hook does for the hook. */
jlong n_line_auth_set_resolver(JNIEnv *env, jclass cls, jlong line_auth, jobject call, jlong old)
{
    (void)cls;
    java_ref *next = NULL;
    if (!java_ref_new(env, call, &next)) {
        return old;
    }
    telenorid_status status =
        telenorid_line_authenticator_set_resolver(HANDLE(telenorid_line_authenticator, line_auth),
                                                  next != NULL ? on_resolve : NULL, next);
    return java_ref_installed(env, status, next, old);
}

/* Frees the line authenticator (wiping its session), then its hook and resolver: no exchange can call them
 * after. */
void n_line_auth_free(JNIEnv *env, jclass cls, jlong line_auth, jlong hook, jlong resolver)
{
    (void)cls;
    telenorid_line_authenticator_free(HANDLE(telenorid_line_authenticator, line_auth));
    java_ref_free(env, HANDLE(java_ref, hook));
    java_ref_free(env, HANDLE(java_ref, resolver));
}
