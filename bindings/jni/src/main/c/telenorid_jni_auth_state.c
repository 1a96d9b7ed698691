/*
 * telenorid_jni_auth_state.c — the bridge's client and auth state natives (see telenorid_jni.c for the
 * rules every native keeps), and the auth state's change listener.
 *
 * The change listener crosses threads: the library calls it on whichever thread made the change. The
 * bridge keeps the Java listener (a Runnable from AuthState that catches what the app's listener throws)
 * as a global reference in a `java_ref` the Java side holds as a long; the trampoline attaches the
 * calling thread to the JVM when it is not attached yet (and detaches it again after), and makes no JNI
 * call while an exception is pending. Replacing or removing the listener and freeing the state release
 * the global reference; AuthState does both under its write lock, which waits for every call on the
 * state — and the callback only ever runs inside such a call — so the old listener is never in use
 * while it is released.
 */

#include "telenorid_jni_bridge.h"

static jmethodID g_runnable_run;

/* The library's change callback. */
static void on_change(void *user_data)
{
    java_ref *listener = user_data;
    int attached = 0;
    JNIEnv *env = callback_env(&attached);
    if (env == NULL) {
        return; /* no JVM thread to run the listener on; the change itself stands */
    }
    /* Inside a native call that already failed (an exception pending), Java can't be called. */
    if (!(*env)->ExceptionCheck(env)) {
        (*env)->CallVoidMethod(env, listener->object, g_runnable_run);
        if ((*env)->ExceptionCheck(env)) {
            /* The Runnable reports the listener's exceptions itself; what is left (an Error thrown while
             * reporting) can't propagate through the library: drop it rather than leave it pending. */
            (*env)->ExceptionClear(env);
        }
    }
    callback_env_release(attached);
}

int auth_state_on_load(JNIEnv *env)
{
    jclass runnable = (*env)->FindClass(env, "java/lang/Runnable");
    if (runnable == NULL) {
        return 0;
    }
    g_runnable_run = (*env)->GetMethodID(env, runnable, "run", "()V");
    (*env)->DeleteLocalRef(env, runnable);
    return g_runnable_run != NULL;
}

/* ------------------------------------------------------------------------------------------------
 * Auth state
 * --------------------------------------------------------------------------------------------- */

jboolean n_auth_state_is_signed_in(JNIEnv *env, jclass cls, jlong state)
{
    (void)cls;
    int32_t out = 0;
    telenorid_status status = telenorid_auth_state_is_signed_in(HANDLE(const telenorid_auth_state, state), &out);
    void_result(env, status);
    return status == TELENORID_OK && out != 0 ? JNI_TRUE : JNI_FALSE;
}

/* Installs `runnable` (null: removes the listener) and returns the new listener handle (0 for none).
 * On success the previous listener, `old`, is released; on failure it stays installed and the new one
 * is released instead. */
jlong n_auth_state_set_change_listener(JNIEnv *env, jclass cls, jlong state, jobject runnable, jlong old)
{
    (void)cls;
    java_ref *next = NULL;
    if (!java_ref_new(env, runnable, &next)) {
        return old;
    }
    telenorid_status status = telenorid_auth_state_set_change_callback(
        HANDLE(telenorid_auth_state, state), next != NULL ? on_change : NULL, next);
    return java_ref_installed(env, status, next, old);
}

/* Frees the state (wiping its tokens), then its listener: no callback can run after the state is gone. */
void n_auth_state_free(JNIEnv *env, jclass cls, jlong state, jlong change_listener)
{
    (void)cls;
    telenorid_auth_state_free(HANDLE(telenorid_auth_state, state));
    java_ref_free(env, HANDLE(java_ref, change_listener));
}
