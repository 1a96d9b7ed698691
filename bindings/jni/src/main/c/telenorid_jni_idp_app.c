/*
 * telenorid_jni_idp_app.c — the bridge's natives for the identity-provider app flow (Salesforce Mobile SDK identity provider; see
 * telenorid_jni.c for the rules every native keeps).
 *
 * Key-value pairs (an Android Bundle's strings) cross as one flat byte[][]: name, value, name, value, in
 * order. The Java side keeps them in a Map; telenorid_params exists only for the length of one native
 * call here, like the configuration builder, so Java never holds a params handle.
 */
#include <stdlib.h>

#include "telenorid_jni_bridge.h"

/* Builds pairs from a flat name/value byte[][]. Returns 1 with *out set; 0 with an exception pending
 * (an odd length or a null element is an IllegalArgumentException; a repeated name the library's
 * MalformedException). */
static int params_from_java(JNIEnv *env, jobjectArray flat, telenorid_params **out)
{
    in_strings strings;
    *out = NULL;
    if (!in_strings_get(env, flat, "bundle", &strings)) {
        return 0;
    }
    if (strings.count % 2 != 0) {
        in_strings_release(&strings);
        throw_illegal_argument(env, "bundle: names and values must come in pairs");
        return 0;
    }
    telenorid_params *params = NULL;
    telenorid_status status = telenorid_params_new(&params);
    for (size_t i = 0; status == TELENORID_OK && i < strings.count; i += 2) {
        status = telenorid_params_add(params, strings.pointers[i], strings.pointers[i + 1]);
    }
    in_strings_release(&strings);
    if (status != TELENORID_OK) {
        throw_status(env, status);
        telenorid_params_free(params);
        return 0;
    }
    *out = params;
    return 1;
}

/* The pairs as a flat byte[][] (name, value, ...); frees `params` whatever happens. NULL with an
 * exception pending on failure. */
static jobjectArray params_to_java(JNIEnv *env, telenorid_params *params)
{
    size_t count = 0;
    jobjectArray flat = NULL;
    telenorid_status status = telenorid_params_count(params, &count);
    if (status != TELENORID_OK) {
        throw_status(env, status);
        goto done;
    }
    if (count > (size_t)INT32_MAX / 2 || (flat = new_byte_arrays(env, count * 2)) == NULL) {
        throw_out_of_memory(env, "telenorid: too many pairs for a Java array");
        goto done;
    }
    for (size_t i = 0; i < count * 2; i++) {
        char *text = NULL;
        status = (i % 2 == 0) ? telenorid_params_name(params, i / 2, &text) : telenorid_params_value(params, i / 2, &text);
        if (status != TELENORID_OK) {
            throw_status(env, status);
            break;
        }
        jbyteArray element = take_string(env, text);
        if (element == NULL) {
            break; /* OutOfMemoryError pending */
        }
        (*env)->SetObjectArrayElement(env, flat, (jsize)i, element);
        (*env)->DeleteLocalRef(env, element);
    }
    if ((*env)->ExceptionCheck(env)) {
        (*env)->DeleteLocalRef(env, flat);
        flat = NULL;
    }
done:
    telenorid_params_free(params);
    return flat;
}

/* `jobjectArray name(jlong handle)` for `telenorid_status cfunc(const type *, telenorid_params **out)`. */
#define PARAMS_GETTER(name, type, cfunc)                                      \
    jobjectArray name(JNIEnv *env, jclass cls, jlong handle)                  \
    {                                                                         \
        (void)cls;                                                            \
        telenorid_params *out = NULL;                                         \
        telenorid_status status = cfunc(HANDLE(type, handle), &out);          \
        if (status != TELENORID_OK) {                                         \
            throw_status(env, status);                                        \
            return NULL;                                                      \
        }                                                                     \
        return params_to_java(env, out);                                      \
    }

/* ------------------------------------------------------------------------------------------------
 * Service-provider side
 * --------------------------------------------------------------------------------------------- */

PARAMS_GETTER(n_idp_request_params, const telenorid_idp_request, telenorid_idp_request_params)

jlong n_pending_auth_handle_idp_response_url(JNIEnv *env, jclass cls, jlong pending, jbyteArray url_bytes,
                                             jobjectArray hosts_array)
{
    (void)cls;
    in_string url;
    in_strings hosts;
    telenorid_authorization_callback *out = NULL;
    if (!in_string_get(env, url_bytes, "responseUrl", &url)) {
        return 0;
    }
    if (!in_strings_get(env, hosts_array, "allowedLoginHosts", &hosts)) {
        in_string_release(&url);
        return 0;
    }
    telenorid_status status = telenorid_pending_auth_handle_idp_response_url(
        HANDLE(const telenorid_pending_auth, pending), url.chars, hosts.pointers, hosts.count, &out);
    in_string_release(&url);
    in_strings_release(&hosts);
    return handle_result(env, status, out);
}

jlong n_pending_auth_handle_idp_response_params(JNIEnv *env, jclass cls, jlong pending, jobjectArray flat,
                                                jobjectArray hosts_array)
{
    (void)cls;
    telenorid_params *params = NULL;
    in_strings hosts;
    telenorid_authorization_callback *out = NULL;
    if (!params_from_java(env, flat, &params)) {
        return 0;
    }
    if (!in_strings_get(env, hosts_array, "allowedLoginHosts", &hosts)) {
        telenorid_params_free(params);
        return 0;
    }
    telenorid_status status = telenorid_pending_auth_handle_idp_response_params(
        HANDLE(const telenorid_pending_auth, pending), params, hosts.pointers, hosts.count, &out);
    telenorid_params_free(params);
    in_strings_release(&hosts);
    return handle_result(env, status, out);
}

/* ------------------------------------------------------------------------------------------------
 * Identity-provider side
 * --------------------------------------------------------------------------------------------- */

jlong n_idp_request_parse_url(JNIEnv *env, jclass cls, jbyteArray url_bytes, jbyteArray app_uri_bytes,
                              jobjectArray callers_array)
{
    (void)cls;
    in_string url, app_uri;
    in_strings callers;
    telenorid_idp_request *out = NULL;
    if (!in_string_get(env, url_bytes, "requestUrl", &url)) {
        return 0;
    }
    if (!in_string_get(env, app_uri_bytes, "idpAppUri", &app_uri)) {
        in_string_release(&url);
        return 0;
    }
    if (!in_strings_get(env, callers_array, "callerRedirectUris", &callers)) {
        in_string_release(&url);
        in_string_release(&app_uri);
        return 0;
    }
    telenorid_status status = telenorid_idp_request_parse_url(url.chars, app_uri.chars, callers.pointers,
                                                              callers.count, &out);
    in_string_release(&url);
    in_string_release(&app_uri);
    in_strings_release(&callers);
    return handle_result(env, status, out);
}

jlong n_idp_request_parse_params(JNIEnv *env, jclass cls, jobjectArray flat, jobjectArray callers_array)
{
    (void)cls;
    telenorid_params *params = NULL;
    in_strings callers;
    telenorid_idp_request *out = NULL;
    if (!params_from_java(env, flat, &params)) {
        return 0;
    }
    if (!in_strings_get(env, callers_array, "callerRedirectUris", &callers)) {
        telenorid_params_free(params);
        return 0;
    }
    telenorid_status status = telenorid_idp_request_parse_params(params, callers.pointers, callers.count, &out);
    telenorid_params_free(params);
    in_strings_release(&callers);
    return handle_result(env, status, out);
}

PARAMS_GETTER(n_idp_response_params, const telenorid_idp_response, telenorid_idp_response_params)

/* ------------------------------------------------------------------------------------------------
 * IdP-initiated sign-in: the IdP app's message for a chosen user, and the SP's reading of it
 * --------------------------------------------------------------------------------------------- */

jobjectArray n_idp_initiation_params(JNIEnv *env, jclass cls, jbyteArray hint_bytes, jbyteArray host_bytes)
{
    (void)cls;
    in_string hint, host;
    telenorid_params *out = NULL;
    if (!in_string_get(env, hint_bytes, "userHint", &hint)) {
        return NULL;
    }
    if (!in_string_get(env, host_bytes, "loginHost", &host)) {
        in_string_release(&hint);
        return NULL;
    }
    telenorid_status status = telenorid_idp_initiation_params(hint.chars, host.chars, &out);
    in_string_release(&hint);
    in_string_release(&host);
    if (status != TELENORID_OK) {
        throw_status(env, status);
        return NULL;
    }
    return params_to_java(env, out);
}

/* {user_hint, login_host} as a byte[2][]; frees both strings whatever happens (on failure the library
 * wrote neither). */
static jobjectArray initiation_result(JNIEnv *env, telenorid_status status, char *hint, char *host)
{
    if (status != TELENORID_OK) {
        throw_status(env, status);
        return NULL;
    }
    jobjectArray pair = new_byte_arrays(env, 2);
    char *texts[] = {hint, host};
    for (jsize i = 0; i < 2; i++) {
        if (pair == NULL) {
            telenorid_string_free(texts[i]);
            continue;
        }
        jbyteArray element = take_string(env, texts[i]);
        if (element == NULL) {
            (*env)->DeleteLocalRef(env, pair);
            pair = NULL;
            continue;
        }
        (*env)->SetObjectArrayElement(env, pair, i, element);
        (*env)->DeleteLocalRef(env, element);
    }
    return pair;
}

jobjectArray n_idp_initiation_parse_url(JNIEnv *env, jclass cls, jbyteArray url_bytes,
                                        jbyteArray app_uri_bytes)
{
    (void)cls;
    in_string url, app_uri;
    char *hint = NULL, *host = NULL;
    if (!in_string_get(env, url_bytes, "url", &url)) {
        return NULL;
    }
    if (!in_string_get(env, app_uri_bytes, "spAppUri", &app_uri)) {
        in_string_release(&url);
        return NULL;
    }
    telenorid_status status = telenorid_idp_initiation_parse_url(url.chars, app_uri.chars, &hint, &host);
    in_string_release(&url);
    in_string_release(&app_uri);
    return initiation_result(env, status, hint, host);
}

jobjectArray n_idp_initiation_parse_params(JNIEnv *env, jclass cls, jobjectArray flat)
{
    (void)cls;
    telenorid_params *params = NULL;
    char *hint = NULL, *host = NULL;
    if (!params_from_java(env, flat, &params)) {
        return NULL;
    }
    telenorid_status status = telenorid_idp_initiation_parse_params(params, &hint, &host);
    telenorid_params_free(params);
    return initiation_result(env, status, hint, host);
}
