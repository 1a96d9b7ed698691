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

#include "telenorid_jni.h"

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

static int auth_state_on_load(JNIEnv *env)
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
 * Client
 * --------------------------------------------------------------------------------------------- */

static jlong n_client_new(JNIEnv *env, jclass cls, jlong config)
{
    (void)cls;
    telenorid_client *out = NULL;
    telenorid_status status = telenorid_client_new(HANDLE(const telenorid_config, config), &out);
    return handle_result(env, status, out);
}

static void n_client_discover(JNIEnv *env, jclass cls, jlong client)
{
    (void)cls;
    void_result(env, telenorid_client_discover(HANDLE(telenorid_client, client)));
}

static void n_client_cancel(JNIEnv *env, jclass cls, jlong client)
{
    (void)cls;
    void_result(env, telenorid_client_cancel(HANDLE(telenorid_client, client)));
}

static jlong n_client_config(JNIEnv *env, jclass cls, jlong client)
{
    (void)cls;
    telenorid_config *out = NULL;
    telenorid_status status = telenorid_client_config(HANDLE(telenorid_client, client), &out);
    return handle_result(env, status, out);
}

static jlong n_client_build_auth_request(JNIEnv *env, jclass cls, jlong client, jlong request)
{
    (void)cls;
    telenorid_pending_auth *out = NULL;
    telenorid_status status = telenorid_client_build_auth_request(HANDLE(telenorid_client, client),
                                                                  HANDLE(const telenorid_auth_request, request), &out);
    return handle_result(env, status, out);
}

static jlong n_client_exchange_code(JNIEnv *env, jclass cls, jlong client, jlong callback)
{
    (void)cls;
    telenorid_auth_state *out = NULL;
    telenorid_status status =
        telenorid_client_exchange_code(HANDLE(telenorid_client, client),
                                       HANDLE(const telenorid_authorization_callback, callback), &out);
    return handle_result(env, status, out);
}

static jbyteArray n_client_verify_id_token(JNIEnv *env, jclass cls, jlong client, jbyteArray token_bytes,
                                           jbyteArray nonce_bytes)
{
    (void)cls;
    in_string token, nonce;
    char *out = NULL;
    if (!in_string_get(env, token_bytes, "idToken", &token)) {
        return NULL;
    }
    if (!in_string_get(env, nonce_bytes, "nonce", &nonce)) {
        in_string_release(&token);
        return NULL;
    }
    telenorid_status status = telenorid_client_verify_id_token(HANDLE(telenorid_client, client), token.chars,
                                                               nonce.chars, &out);
    in_string_release(&token);
    in_string_release(&nonce);
    return string_result(env, status, out);
}

static jlong n_auth_state_restore(JNIEnv *env, jclass cls, jlong client, jbyteArray json_bytes)
{
    (void)cls;
    in_string json;
    telenorid_auth_state *out = NULL;
    if (!in_string_get(env, json_bytes, "json", &json)) {
        return 0;
    }
    telenorid_status status = telenorid_auth_state_restore(HANDLE(telenorid_client, client), json.chars, &out);
    in_string_release(&json);
    return handle_result(env, status, out);
}

static jlong n_auth_state_open_file(JNIEnv *env, jclass cls, jlong client, jbyteArray path_bytes)
{
    (void)cls;
    in_string path;
    telenorid_auth_state *out = NULL;
    if (!in_string_get(env, path_bytes, "path", &path)) {
        return 0;
    }
    telenorid_status status = telenorid_auth_state_open_file(HANDLE(telenorid_client, client), path.chars, &out);
    in_string_release(&path);
    return handle_result(env, status, out);
}

static void n_client_free(JNIEnv *env, jclass cls, jlong client)
{
    (void)env;
    (void)cls;
    telenorid_client_free(HANDLE(telenorid_client, client));
}

/* ------------------------------------------------------------------------------------------------
 * Auth state
 * --------------------------------------------------------------------------------------------- */

static jbyteArray n_auth_state_fresh_access_token(JNIEnv *env, jclass cls, jlong state)
{
    (void)cls;
    char *out = NULL;
    telenorid_status status = telenorid_auth_state_fresh_access_token(HANDLE(telenorid_auth_state, state), &out);
    return string_result(env, status, out);
}

static void n_auth_state_refresh(JNIEnv *env, jclass cls, jlong state)
{
    (void)cls;
    void_result(env, telenorid_auth_state_refresh(HANDLE(telenorid_auth_state, state)));
}

static jboolean n_auth_state_is_signed_in(JNIEnv *env, jclass cls, jlong state)
{
    (void)cls;
    int32_t out = 0;
    telenorid_status status = telenorid_auth_state_is_signed_in(HANDLE(const telenorid_auth_state, state), &out);
    void_result(env, status);
    return status == TELENORID_OK && out != 0 ? JNI_TRUE : JNI_FALSE;
}

static jbyteArray n_auth_state_get(JNIEnv *env, jclass cls, jlong state, jint field)
{
    (void)cls;
    char *out = NULL;
    telenorid_status status = telenorid_auth_state_get(HANDLE(const telenorid_auth_state, state),
                                                       (telenorid_token_field)field, &out);
    return string_result(env, status, out);
}

static jlong n_auth_state_expires_at(JNIEnv *env, jclass cls, jlong state)
{
    (void)cls;
    int64_t out = 0;
    telenorid_status status = telenorid_auth_state_expires_at(HANDLE(const telenorid_auth_state, state), &out);
    void_result(env, status);
    return status == TELENORID_OK ? (jlong)out : 0;
}

static jbyteArray n_auth_state_userinfo(JNIEnv *env, jclass cls, jlong state)
{
    (void)cls;
    char *out = NULL;
    telenorid_status status = telenorid_auth_state_userinfo(HANDLE(telenorid_auth_state, state), &out);
    return string_result(env, status, out);
}

static void n_auth_state_check(JNIEnv *env, jclass cls, jlong state)
{
    (void)cls;
    void_result(env, telenorid_auth_state_check(HANDLE(telenorid_auth_state, state)));
}

/* A null `token_bytes` is C NULL: the current access token. */
static void n_auth_state_access_token_rejected(JNIEnv *env, jclass cls, jlong state, jbyteArray token_bytes)
{
    (void)cls;
    in_string token;
    if (!in_string_get(env, token_bytes, "accessToken", &token)) {
        return;
    }
    telenorid_status status = telenorid_auth_state_access_token_rejected(HANDLE(telenorid_auth_state, state),
                                                                         token.chars);
    in_string_release(&token);
    void_result(env, status);
}

static void n_auth_state_revoke(JNIEnv *env, jclass cls, jlong state)
{
    (void)cls;
    void_result(env, telenorid_auth_state_revoke(HANDLE(telenorid_auth_state, state)));
}

static jbyteArray n_auth_state_end_session_url(JNIEnv *env, jclass cls, jlong state, jbyteArray redirect_bytes,
                                               jbyteArray logout_state_bytes)
{
    (void)cls;
    in_string redirect, logout_state;
    char *out = NULL;
    if (!in_string_get(env, redirect_bytes, "postLogoutRedirectUri", &redirect)) {
        return NULL;
    }
    if (!in_string_get(env, logout_state_bytes, "logoutState", &logout_state)) {
        in_string_release(&redirect);
        return NULL;
    }
    telenorid_status status = telenorid_auth_state_end_session_url(HANDLE(const telenorid_auth_state, state),
                                                                   redirect.chars, logout_state.chars, &out);
    in_string_release(&redirect);
    in_string_release(&logout_state);
    return string_result(env, status, out);
}

static jbyteArray n_auth_state_serialize(JNIEnv *env, jclass cls, jlong state)
{
    (void)cls;
    char *out = NULL;
    telenorid_status status = telenorid_auth_state_serialize(HANDLE(const telenorid_auth_state, state), &out);
    return string_result(env, status, out);
}

static void n_auth_state_bind_file(JNIEnv *env, jclass cls, jlong state, jbyteArray path_bytes)
{
    (void)cls;
    in_string path;
    if (!in_string_get(env, path_bytes, "path", &path)) {
        return;
    }
    telenorid_status status = telenorid_auth_state_bind_file(HANDLE(telenorid_auth_state, state), path.chars);
    in_string_release(&path);
    void_result(env, status);
}

/* Installs `runnable` (null: removes the listener) and returns the new listener handle (0 for none).
 * On success the previous listener, `old`, is released; on failure it stays installed and the new one
 * is released instead. */
static jlong n_auth_state_set_change_listener(JNIEnv *env, jclass cls, jlong state, jobject runnable, jlong old)
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
static void n_auth_state_free(JNIEnv *env, jclass cls, jlong state, jlong change_listener)
{
    (void)cls;
    telenorid_auth_state_free(HANDLE(telenorid_auth_state, state));
    java_ref_free(env, HANDLE(java_ref, change_listener));
}

static const JNINativeMethod auth_state_natives[] = {
    NATIVE("clientNew", "(J)J", n_client_new),
    NATIVE("clientDiscover", "(J)V", n_client_discover),
    NATIVE("clientCancel", "(J)V", n_client_cancel),
    NATIVE("clientConfig", "(J)J", n_client_config),
    NATIVE("clientBuildAuthRequest", "(JJ)J", n_client_build_auth_request),
    NATIVE("clientExchangeCode", "(JJ)J", n_client_exchange_code),
    NATIVE("clientVerifyIdToken", "(J[B[B)[B", n_client_verify_id_token),
    NATIVE("clientFree", "(J)V", n_client_free),

    NATIVE("authStateRestore", "(J[B)J", n_auth_state_restore),
    NATIVE("authStateFreshAccessToken", "(J)[B", n_auth_state_fresh_access_token),
    NATIVE("authStateRefresh", "(J)V", n_auth_state_refresh),
    NATIVE("authStateIsSignedIn", "(J)Z", n_auth_state_is_signed_in),
    NATIVE("authStateGet", "(JI)[B", n_auth_state_get),
    NATIVE("authStateExpiresAt", "(J)J", n_auth_state_expires_at),
    NATIVE("authStateUserinfo", "(J)[B", n_auth_state_userinfo),
    NATIVE("authStateCheck", "(J)V", n_auth_state_check),
    NATIVE("authStateAccessTokenRejected", "(J[B)V", n_auth_state_access_token_rejected),
    NATIVE("authStateRevoke", "(J)V", n_auth_state_revoke),
    NATIVE("authStateEndSessionUrl", "(J[B[B)[B", n_auth_state_end_session_url),
    NATIVE("authStateSerialize", "(J)[B", n_auth_state_serialize),
    NATIVE("authStateBindFile", "(J[B)V", n_auth_state_bind_file),
    NATIVE("authStateOpenFile", "(J[B)J", n_auth_state_open_file),
    NATIVE("authStateSetChangeListener", "(JLjava/lang/Runnable;J)J", n_auth_state_set_change_listener),
    NATIVE("authStateFree", "(JJ)V", n_auth_state_free),
};

NATIVE_TABLE(auth_state_table, auth_state_natives, auth_state_on_load);
