/*
 * telenorid_jni_authorization.c — the bridge's natives for the local half of an
 * authorization: the request, the pending authorization, the redirect callback and the app-to-app callback
 * (see telenorid_jni.c for the rules every native keeps).
 */
#include "telenorid_jni_bridge.h"

jboolean n_auth_request_apply_step_up(JNIEnv *env, jclass cls, jlong request, jbyteArray header_bytes)
{
    (void)cls;
    in_string header;
    if (!in_string_get(env, header_bytes, "wwwAuthenticate", &header)) {
        return JNI_FALSE;
    }
    int32_t applied = 0;
    telenorid_status status = telenorid_auth_request_apply_step_up(HANDLE(telenorid_auth_request, request),
                                                                   header.chars, &applied);
    in_string_release(&header);
    void_result(env, status);
    return status == TELENORID_OK && applied ? JNI_TRUE : JNI_FALSE;
}
