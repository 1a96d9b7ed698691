/*
 * telenorid_jni_authorization.c — the bridge's natives for the local half of an
 * authorization: the request, the pending authorization, the redirect callback and the app-to-app callback
 * (see telenorid_jni.c for the rules every native keeps).
 */
#include "telenorid_jni.h"

static jlong n_auth_request_new(JNIEnv *env, jclass cls, jlong config)
{
    (void)cls;
    telenorid_auth_request *out = NULL;
    telenorid_status status = telenorid_auth_request_new(HANDLE(const telenorid_config, config), &out);
    return handle_result(env, status, out);
}

static void n_auth_request_set(JNIEnv *env, jclass cls, jlong request, jint param, jbyteArray value_bytes)
{
    (void)cls;
    in_string value;
    if (!in_string_get(env, value_bytes, "value", &value)) {
        return;
    }
    telenorid_status status = telenorid_auth_request_set(HANDLE(telenorid_auth_request, request),
                                                         (telenorid_auth_param)param, value.chars);
    in_string_release(&value);
    void_result(env, status);
}

static void n_auth_request_add_parameter(JNIEnv *env, jclass cls, jlong request, jbyteArray name_bytes,
                                         jbyteArray value_bytes)
{
    (void)cls;
    in_string name, value;
    if (!in_string_get(env, name_bytes, "name", &name)) {
        return;
    }
    if (!in_string_get(env, value_bytes, "value", &value)) {
        in_string_release(&name);
        return;
    }
    telenorid_status status = telenorid_auth_request_add_parameter(HANDLE(telenorid_auth_request, request),
                                                                   name.chars, value.chars);
    in_string_release(&name);
    in_string_release(&value);
    void_result(env, status);
}

static void n_auth_request_add_claim(JNIEnv *env, jclass cls, jlong request, jint target, jbyteArray name_bytes,
                                     jint essential, jbyteArray purpose_bytes, jbyteArray value_json_bytes,
                                     jbyteArray values_json_bytes)
{
    (void)cls;
    in_string name = {0}, purpose = {0}, value_json = {0}, values_json = {0};
    if (in_string_get(env, name_bytes, "name", &name) &&
        in_string_get(env, purpose_bytes, "purpose", &purpose) &&
        in_string_get(env, value_json_bytes, "valueJson", &value_json) &&
        in_string_get(env, values_json_bytes, "valuesJson", &values_json)) {
        telenorid_status status = telenorid_auth_request_add_claim(
            HANDLE(telenorid_auth_request, request), (telenorid_claim_target)target, name.chars, (int32_t)essential,
            purpose.chars, value_json.chars, values_json.chars);
        void_result(env, status);
    }
    in_string_release(&name);
    in_string_release(&purpose);
    in_string_release(&value_json);
    in_string_release(&values_json);
}

/* The request's setters that take one string: `what` names it in the exception for bad bytes. */
typedef telenorid_status (*request_string_setter)(telenorid_auth_request *request, const char *value);

static void set_request_string(JNIEnv *env, jlong request, jbyteArray bytes, const char *what,
                               request_string_setter setter)
{
    in_string value;
    if (!in_string_get(env, bytes, what, &value)) {
        return;
    }
    telenorid_status status = setter(HANDLE(telenorid_auth_request, request), value.chars);
    in_string_release(&value);
    void_result(env, status);
}

static void n_auth_request_set_app_to_app(JNIEnv *env, jclass cls, jlong request, jbyteArray uri_bytes)
{
    (void)cls;
    set_request_string(env, request, uri_bytes, "appCallbackUri", telenorid_auth_request_set_app_to_app);
}

static void n_auth_request_add_resource(JNIEnv *env, jclass cls, jlong request, jbyteArray uri_bytes)
{
    (void)cls;
    set_request_string(env, request, uri_bytes, "uri", telenorid_auth_request_add_resource);
}

/* `json_bytes` null clears the details. */
static void n_auth_request_set_authorization_details(JNIEnv *env, jclass cls, jlong request, jbyteArray json_bytes)
{
    (void)cls;
    set_request_string(env, request, json_bytes, "json", telenorid_auth_request_set_authorization_details);
}

/* `json_bytes` null clears the details. */
static void n_auth_request_set_token_authorization_details(JNIEnv *env, jclass cls, jlong request,
                                                           jbyteArray json_bytes)
{
    (void)cls;
    set_request_string(env, request, json_bytes, "json", telenorid_auth_request_set_token_authorization_details);
}

static jboolean n_auth_request_apply_step_up(JNIEnv *env, jclass cls, jlong request, jbyteArray header_bytes)
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

static void n_auth_request_set_pkce_method(JNIEnv *env, jclass cls, jlong request, jint method)
{
    (void)cls;
    void_result(env, telenorid_auth_request_set_pkce_method(HANDLE(telenorid_auth_request, request),
                                                            (telenorid_pkce_method)method));
}

static jlong n_auth_request_build(JNIEnv *env, jclass cls, jlong request)
{
    (void)cls;
    telenorid_pending_auth *out = NULL;
    telenorid_status status = telenorid_auth_request_build(HANDLE(const telenorid_auth_request, request), &out);
    return handle_result(env, status, out);
}

FREE_FUNCTION(n_auth_request_free, telenorid_auth_request, telenorid_auth_request_free)

/* ------------------------------------------------------------------------------------------------
 * Pending authorization
 * --------------------------------------------------------------------------------------------- */

STRING_GETTER(n_pending_auth_url, const telenorid_pending_auth, telenorid_pending_auth_url)
STRING_GETTER(n_pending_auth_state, const telenorid_pending_auth, telenorid_pending_auth_state)
STRING_GETTER(n_pending_auth_nonce, const telenorid_pending_auth, telenorid_pending_auth_nonce)
STRING_GETTER(n_pending_auth_code_verifier, const telenorid_pending_auth, telenorid_pending_auth_code_verifier)
STRING_GETTER(n_pending_auth_serialize, const telenorid_pending_auth, telenorid_pending_auth_serialize)

static jlong n_pending_auth_restore(JNIEnv *env, jclass cls, jlong config, jbyteArray json_bytes)
{
    (void)cls;
    in_string json;
    telenorid_pending_auth *out = NULL;
    if (!in_string_get(env, json_bytes, "json", &json)) {
        return 0;
    }
    telenorid_status status = telenorid_pending_auth_restore(HANDLE(const telenorid_config, config), json.chars,
                                                             &out);
    in_string_release(&json);
    return handle_result(env, status, out);
}

static jlong n_pending_auth_handle_callback(JNIEnv *env, jclass cls, jlong pending, jbyteArray url_bytes)
{
    (void)cls;
    in_string url;
    telenorid_authorization_callback *out = NULL;
    if (!in_string_get(env, url_bytes, "redirectUrl", &url)) {
        return 0;
    }
    telenorid_status status = telenorid_pending_auth_handle_callback(HANDLE(const telenorid_pending_auth, pending),
                                                                     url.chars, &out);
    in_string_release(&url);
    return handle_result(env, status, out);
}

static jlong n_pending_auth_handle_app_callback(JNIEnv *env, jclass cls, jlong pending, jbyteArray url_bytes,
                                                jbyteArray host_bytes)
{
    (void)cls;
    in_string url, host;
    telenorid_app_callback *out = NULL;
    if (!in_string_get(env, url_bytes, "callbackUrl", &url)) {
        return 0;
    }
    if (!in_string_get(env, host_bytes, "allowedResumeHost", &host)) {
        in_string_release(&url);
        return 0;
    }
    telenorid_status status = telenorid_pending_auth_handle_app_callback(
        HANDLE(const telenorid_pending_auth, pending), url.chars, host.chars, &out);
    in_string_release(&url);
    in_string_release(&host);
    return handle_result(env, status, out);
}

FREE_FUNCTION(n_pending_auth_free, telenorid_pending_auth, telenorid_pending_auth_free)

/* ------------------------------------------------------------------------------------------------
 * Callbacks
 * --------------------------------------------------------------------------------------------- */

STRING_GETTER(n_callback_code, const telenorid_authorization_callback, telenorid_authorization_callback_code)

static jbyteArray n_callback_parameter(JNIEnv *env, jclass cls, jlong callback, jbyteArray name_bytes)
{
    (void)cls;
    in_string name;
    char *out = NULL;
    if (!in_string_get(env, name_bytes, "name", &name)) {
        return NULL;
    }
    telenorid_status status =
        telenorid_authorization_callback_parameter(HANDLE(const telenorid_authorization_callback, callback),
                                                   name.chars, &out);
    in_string_release(&name);
    return string_result(env, status, out);
}

FREE_FUNCTION(n_callback_free, telenorid_authorization_callback, telenorid_authorization_callback_free)

STRING_GETTER(n_app_callback_resume_uri, const telenorid_app_callback, telenorid_app_callback_resume_uri)
FREE_FUNCTION(n_app_callback_free, telenorid_app_callback, telenorid_app_callback_free)

static const JNINativeMethod authorization_natives[] = {
    NATIVE("authRequestNew", "(J)J", n_auth_request_new),
    NATIVE("authRequestSet", "(JI[B)V", n_auth_request_set),
    NATIVE("authRequestAddParameter", "(J[B[B)V", n_auth_request_add_parameter),
    NATIVE("authRequestAddClaim", "(JI[BI[B[B[B)V", n_auth_request_add_claim),
    NATIVE("authRequestSetAppToApp", "(J[B)V", n_auth_request_set_app_to_app),
    NATIVE("authRequestAddResource", "(J[B)V", n_auth_request_add_resource),
    NATIVE("authRequestSetAuthorizationDetails", "(J[B)V", n_auth_request_set_authorization_details),
    NATIVE("authRequestSetTokenAuthorizationDetails", "(J[B)V", n_auth_request_set_token_authorization_details),
    NATIVE("authRequestApplyStepUp", "(J[B)Z", n_auth_request_apply_step_up),
    NATIVE("authRequestSetPkceMethod", "(JI)V", n_auth_request_set_pkce_method),
    NATIVE("authRequestBuild", "(J)J", n_auth_request_build),
    NATIVE("authRequestFree", "(J)V", n_auth_request_free),

    NATIVE("pendingAuthUrl", "(J)[B", n_pending_auth_url),
    NATIVE("pendingAuthState", "(J)[B", n_pending_auth_state),
    NATIVE("pendingAuthNonce", "(J)[B", n_pending_auth_nonce),
    NATIVE("pendingAuthCodeVerifier", "(J)[B", n_pending_auth_code_verifier),
    NATIVE("pendingAuthSerialize", "(J)[B", n_pending_auth_serialize),
    NATIVE("pendingAuthRestore", "(J[B)J", n_pending_auth_restore),
    NATIVE("pendingAuthHandleCallback", "(J[B)J", n_pending_auth_handle_callback),
    NATIVE("pendingAuthHandleAppCallback", "(J[B[B)J", n_pending_auth_handle_app_callback),
    NATIVE("pendingAuthFree", "(J)V", n_pending_auth_free),

    NATIVE("callbackCode", "(J)[B", n_callback_code),
    NATIVE("callbackParameter", "(J[B)[B", n_callback_parameter),
    NATIVE("callbackFree", "(J)V", n_callback_free),

    NATIVE("appCallbackResumeUri", "(J)[B", n_app_callback_resume_uri),
    NATIVE("appCallbackFree", "(J)V", n_app_callback_free),
};

NATIVE_TABLE(authorization_table, authorization_natives, NULL);
