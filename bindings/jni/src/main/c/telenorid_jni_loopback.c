/*
 * telenorid_jni_loopback.c — the bridge's natives for the loopback redirect listener (RFC 8252 §7.3),
 * for desktop JVM hosts; see telenorid_jni.c for the rules every native keeps.
 */
#include "telenorid_jni_bridge.h"

jlong n_loopback_new(JNIEnv *env, jclass cls, jint port, jbyteArray path_bytes)
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
