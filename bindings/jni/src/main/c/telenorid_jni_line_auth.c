/*
 * telenorid_jni_line_auth.c — the bridge's line authentication natives (TelenorID+ through Aloha; see
 * telenorid_jni.c for the rules every native keeps), and the socket hook.
 *
 * The socket hook is the app's way to put the exchange on the cellular network: the library calls it
 * with each socket before it connects. The bridge keeps the Java side (a SocketHookCall, which calls the
 * app's SocketHook and turns what it throws into a refusal) as a global reference in a `java_ref` the
 * Java side holds as a long. The exchange runs on the thread that called run() or apply(), so the hook
 * normally finds that thread attached; callback_env attaches one that is not. Replacing the hook and
 * freeing the line authenticator release the global reference; LineAuthenticator does both under its
 * write lock, which waits for every exchange in flight (an exchange keeps the hook it started with), so
 * the old hook is never in use while it is released.
 */

#include "telenorid_jni.h"

#define HOOK_CLASS "no/telenor/id/SocketHookCall"

static jmethodID g_hook_on_socket; /* int SocketHookCall.onSocket(int fd) */

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

static int line_auth_on_load(JNIEnv *env)
{
    jclass hook_class = (*env)->FindClass(env, HOOK_CLASS);
    if (hook_class == NULL) {
        return 0;
    }
    g_hook_on_socket = (*env)->GetMethodID(env, hook_class, "onSocket", "(I)I");
    (*env)->DeleteLocalRef(env, hook_class);
    return g_hook_on_socket != NULL;
}

static jlong n_line_auth_new(JNIEnv *env, jclass cls, jlong config)
{
    (void)cls;
    telenorid_line_authenticator *out = NULL;
    telenorid_status status = telenorid_line_authenticator_new(HANDLE(const telenorid_config, config), &out);
    return handle_result(env, status, out);
}

/* Installs `call` (null: removes the hook) and returns the new hook handle (0 for none). On success the
 * previous hook, `old`, is released; on failure it stays installed and the new one is released instead. */
static jlong n_line_auth_set_socket_hook(JNIEnv *env, jclass cls, jlong line_auth, jobject call, jlong old)
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

static void n_line_auth_run(JNIEnv *env, jclass cls, jlong line_auth)
{
    (void)cls;
    void_result(env, telenorid_line_authenticator_run(HANDLE(telenorid_line_authenticator, line_auth)));
}

static jlong n_line_auth_valid_for(JNIEnv *env, jclass cls, jlong line_auth)
{
    (void)cls;
    int64_t out = 0;
    telenorid_status status =
        telenorid_line_authenticator_valid_for(HANDLE(const telenorid_line_authenticator, line_auth), &out);
    void_result(env, status);
    return status == TELENORID_OK ? (jlong)out : 0;
}

static void n_line_auth_set_margin(JNIEnv *env, jclass cls, jlong line_auth, jlong seconds)
{
    (void)cls;
    void_result(env, telenorid_line_authenticator_set_margin(HANDLE(telenorid_line_authenticator, line_auth),
                                                             (int64_t)seconds));
}

static void n_line_auth_apply(JNIEnv *env, jclass cls, jlong line_auth, jlong request)
{
    (void)cls;
    void_result(env, telenorid_line_authenticator_apply(HANDLE(telenorid_line_authenticator, line_auth),
                                               HANDLE(telenorid_auth_request, request)));
}

/* Frees the line authenticator (wiping its session), then its hook: no exchange can call the hook after. */
static void n_line_auth_free(JNIEnv *env, jclass cls, jlong line_auth, jlong hook)
{
    (void)cls;
    telenorid_line_authenticator_free(HANDLE(telenorid_line_authenticator, line_auth));
    java_ref_free(env, HANDLE(java_ref, hook));
}

static const JNINativeMethod line_auth_natives[] = {
    NATIVE("lineAuthNew", "(J)J", n_line_auth_new),
    NATIVE("lineAuthSetSocketHook", "(JL" HOOK_CLASS ";J)J", n_line_auth_set_socket_hook),
    NATIVE("lineAuthRun", "(J)V", n_line_auth_run),
    NATIVE("lineAuthValidFor", "(J)J", n_line_auth_valid_for),
    NATIVE("lineAuthSetMargin", "(JJ)V", n_line_auth_set_margin),
    NATIVE("lineAuthApply", "(JJ)V", n_line_auth_apply),
    NATIVE("lineAuthFree", "(JJ)V", n_line_auth_free),
};

NATIVE_TABLE(line_auth_table, line_auth_natives, line_auth_on_load);
