/*
 * telenorid_jni_ciba.c — the bridge's natives for client-initiated backchannel authentication (OpenID CIBA
 * Core 1.0) and the mobile operators' login hint forms (MODRNA / CAMARA); see telenorid_jni.c for the rules
 * every native keeps.
 */
#include "telenorid_jni.h"

static jlong n_client_start_backchannel_authentication(JNIEnv *env, jclass cls, jlong client, jlong request)
{
    (void)cls;
    telenorid_backchannel_auth *out = NULL;
    telenorid_status status = telenorid_client_start_backchannel_authentication(
        HANDLE(telenorid_client, client), HANDLE(const telenorid_auth_request, request), &out);
    return handle_result(env, status, out);
}

STRING_GETTER(n_backchannel_auth_id, const telenorid_backchannel_auth, telenorid_backchannel_auth_id)

static jlong n_backchannel_auth_expires_at(JNIEnv *env, jclass cls, jlong auth)
{
    (void)cls;
    int64_t out = 0;
    telenorid_status status =
        telenorid_backchannel_auth_expires_at(HANDLE(const telenorid_backchannel_auth, auth), &out);
    void_result(env, status);
    return status == TELENORID_OK ? (jlong)out : 0;
}

static jint n_backchannel_auth_interval(JNIEnv *env, jclass cls, jlong auth)
{
    (void)cls;
    int32_t out = 0;
    telenorid_status status =
        telenorid_backchannel_auth_interval(HANDLE(const telenorid_backchannel_auth, auth), &out);
    void_result(env, status);
    return status == TELENORID_OK ? (jint)out : 0;
}

static void n_backchannel_auth_handle_ping(JNIEnv *env, jclass cls, jlong auth, jbyteArray authorization_bytes,
                                           jbyteArray body_bytes)
{
    (void)cls;
    in_string authorization = {0}, body = {0};
    if (in_string_get(env, authorization_bytes, "authorization", &authorization) &&
        in_string_get(env, body_bytes, "body", &body)) {
        telenorid_status status = telenorid_backchannel_auth_handle_ping(HANDLE(telenorid_backchannel_auth, auth),
                                                                         authorization.chars, body.chars);
        void_result(env, status);
    }
    in_string_release(&authorization);
    in_string_release(&body);
}

static jlong n_backchannel_auth_wait(JNIEnv *env, jclass cls, jlong auth)
{
    (void)cls;
    telenorid_auth_state *out = NULL;
    telenorid_status status = telenorid_backchannel_auth_wait(HANDLE(telenorid_backchannel_auth, auth), &out);
    return handle_result(env, status, out);
}

FREE_FUNCTION(n_backchannel_auth_free, telenorid_backchannel_auth, telenorid_backchannel_auth_free)

/* The helpers that make a login hint from one string. */
typedef telenorid_status (*hint_maker)(const char *value, char **out);

static jbyteArray make_hint(JNIEnv *env, jbyteArray value_bytes, const char *what, hint_maker make)
{
    in_string value;
    if (!in_string_get(env, value_bytes, what, &value)) {
        return NULL;
    }
    char *out = NULL;
    telenorid_status status = make(value.chars, &out);
    in_string_release(&value);
    return string_result(env, status, out);
}

static jbyteArray n_login_hint_phone_number(JNIEnv *env, jclass cls, jbyteArray e164_bytes)
{
    (void)cls;
    return make_hint(env, e164_bytes, "e164", telenorid_login_hint_phone_number);
}

static jbyteArray n_login_hint_operator_token(JNIEnv *env, jclass cls, jbyteArray token_bytes)
{
    (void)cls;
    return make_hint(env, token_bytes, "token", telenorid_login_hint_operator_token);
}

static jbyteArray n_login_hint_ip_port(JNIEnv *env, jclass cls, jbyteArray address_bytes, jint port)
{
    (void)cls;
    in_string address;
    if (!in_string_get(env, address_bytes, "address", &address)) {
        return NULL;
    }
    char *out = NULL;
    telenorid_status status = telenorid_login_hint_ip_port(address.chars, (int32_t)port, &out);
    in_string_release(&address);
    return string_result(env, status, out);
}

static jint n_login_hint_get_form(JNIEnv *env, jclass cls, jbyteArray hint_bytes)
{
    (void)cls;
    in_string hint;
    if (!in_string_get(env, hint_bytes, "hint", &hint)) {
        return 0;
    }
    telenorid_login_hint_form out = 0;
    telenorid_status status = telenorid_login_hint_get_form(hint.chars, &out);
    in_string_release(&hint);
    void_result(env, status);
    return status == TELENORID_OK ? (jint)out : 0;
}

static const JNINativeMethod ciba_natives[] = {
    NATIVE("clientStartBackchannelAuthentication", "(JJ)J", n_client_start_backchannel_authentication),
    NATIVE("backchannelAuthId", "(J)[B", n_backchannel_auth_id),
    NATIVE("backchannelAuthExpiresAt", "(J)J", n_backchannel_auth_expires_at),
    NATIVE("backchannelAuthInterval", "(J)I", n_backchannel_auth_interval),
    NATIVE("backchannelAuthHandlePing", "(J[B[B)V", n_backchannel_auth_handle_ping),
    NATIVE("backchannelAuthWait", "(J)J", n_backchannel_auth_wait),
    NATIVE("backchannelAuthFree", "(J)V", n_backchannel_auth_free),
    NATIVE("loginHintPhoneNumber", "([B)[B", n_login_hint_phone_number),
    NATIVE("loginHintIpPort", "([BI)[B", n_login_hint_ip_port),
    NATIVE("loginHintOperatorToken", "([B)[B", n_login_hint_operator_token),
    NATIVE("loginHintGetForm", "([B)I", n_login_hint_get_form),
};

NATIVE_TABLE(ciba_table, ciba_natives, NULL);
