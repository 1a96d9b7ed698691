/*
 * telenorid_jni_loopback.c — the bridge's natives for the loopback redirect listener (RFC 8252 §7.3),
 * for desktop JVM hosts; see telenorid_jni.c for the rules every native keeps.
 */
#include "telenorid_jni.h"

static jlong n_loopback_new(JNIEnv *env, jclass cls, jint port, jbyteArray path_bytes)
{
    (void)cls;
    in_string path;
    telenorid_loopback_listener *out = NULL;
    if (port < 0 || port > UINT16_MAX) {
        throw_illegal_argument(env, "port must be 0..65535");
        return 0;
    }
    if (!in_string_get(env, path_bytes, "path", &path)) {
        return 0;
    }
    telenorid_status status = telenorid_loopback_listener_new((uint16_t)port, path.chars, &out);
    in_string_release(&path);
    return handle_result(env, status, out);
}

STRING_GETTER(n_loopback_redirect_uri, const telenorid_loopback_listener, telenorid_loopback_listener_redirect_uri)

static jbyteArray n_loopback_wait(JNIEnv *env, jclass cls, jlong listener, jint timeout_ms)
{
    (void)cls;
    char *out = NULL;
    telenorid_status status =
        telenorid_loopback_listener_wait(HANDLE(telenorid_loopback_listener, listener), (int32_t)timeout_ms, &out);
    return string_result(env, status, out);
}

static void n_loopback_expect_state(JNIEnv *env, jclass cls, jlong listener, jbyteArray state_bytes)
{
    (void)cls;
    in_string state;
    if (!in_string_get(env, state_bytes, "state", &state)) {
        return;
    }
    telenorid_status status =
        telenorid_loopback_listener_expect_state(HANDLE(telenorid_loopback_listener, listener), state.chars);
    in_string_release(&state);
    void_result(env, status);
}

FREE_FUNCTION(n_loopback_free, telenorid_loopback_listener, telenorid_loopback_listener_free)

static void n_loopback_cancel(JNIEnv *env, jclass cls, jlong listener)
{
    (void)cls;
    void_result(env, telenorid_loopback_listener_cancel(HANDLE(telenorid_loopback_listener, listener)));
}

static const JNINativeMethod loopback_natives[] = {
    NATIVE("loopbackNew", "(I[B)J", n_loopback_new),
    NATIVE("loopbackRedirectUri", "(J)[B", n_loopback_redirect_uri),
    NATIVE("loopbackWait", "(JI)[B", n_loopback_wait),
    NATIVE("loopbackExpectState", "(J[B)V", n_loopback_expect_state),
    NATIVE("loopbackFree", "(J)V", n_loopback_free),
    NATIVE("loopbackCancel", "(J)V", n_loopback_cancel),
};

NATIVE_TABLE(loopback_table, loopback_natives, NULL);
