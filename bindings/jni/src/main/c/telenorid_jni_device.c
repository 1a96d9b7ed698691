/*
 * telenorid_jni_device.c — the bridge's natives for the device authorization grant (RFC 8628); see
 * telenorid_jni.c for the rules every native keeps.
 */
#include "telenorid_jni.h"

static jlong n_client_start_device_authorization(JNIEnv *env, jclass cls, jlong client, jlong request)
{
    (void)cls;
    telenorid_device_authorization *out = NULL;
    telenorid_status status = telenorid_client_start_device_authorization(
        HANDLE(telenorid_client, client), HANDLE(const telenorid_auth_request, request), &out);
    return handle_result(env, status, out);
}

static jbyteArray n_device_authorization_get(JNIEnv *env, jclass cls, jlong authorization, jint field)
{
    (void)cls;
    char *out = NULL;
    telenorid_status status = telenorid_device_authorization_get(
        HANDLE(const telenorid_device_authorization, authorization), (telenorid_device_field)field, &out);
    return string_result(env, status, out);
}

static jlong n_device_authorization_expires_at(JNIEnv *env, jclass cls, jlong authorization)
{
    (void)cls;
    int64_t out = 0;
    telenorid_status status = telenorid_device_authorization_expires_at(
        HANDLE(const telenorid_device_authorization, authorization), &out);
    void_result(env, status);
    return status == TELENORID_OK ? (jlong)out : 0;
}

static jint n_device_authorization_interval(JNIEnv *env, jclass cls, jlong authorization)
{
    (void)cls;
    int32_t out = 0;
    telenorid_status status = telenorid_device_authorization_interval(
        HANDLE(const telenorid_device_authorization, authorization), &out);
    void_result(env, status);
    return status == TELENORID_OK ? (jint)out : 0;
}

static jlong n_device_authorization_wait(JNIEnv *env, jclass cls, jlong authorization)
{
    (void)cls;
    telenorid_auth_state *out = NULL;
    telenorid_status status =
        telenorid_device_authorization_wait(HANDLE(telenorid_device_authorization, authorization), &out);
    return handle_result(env, status, out);
}

FREE_FUNCTION(n_device_authorization_free, telenorid_device_authorization, telenorid_device_authorization_free)

static const JNINativeMethod device_natives[] = {
    NATIVE("clientStartDeviceAuthorization", "(JJ)J", n_client_start_device_authorization),
    NATIVE("deviceAuthorizationGet", "(JI)[B", n_device_authorization_get),
    NATIVE("deviceAuthorizationExpiresAt", "(J)J", n_device_authorization_expires_at),
    NATIVE("deviceAuthorizationInterval", "(J)I", n_device_authorization_interval),
    NATIVE("deviceAuthorizationWait", "(J)J", n_device_authorization_wait),
    NATIVE("deviceAuthorizationFree", "(J)V", n_device_authorization_free),
};

NATIVE_TABLE(device_table, device_natives, NULL);
