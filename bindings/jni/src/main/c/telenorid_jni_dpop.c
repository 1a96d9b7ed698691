/*
 * telenorid_jni_dpop.c — the bridge's DPoP natives (RFC 9449; see telenorid_jni.c for the rules every
 * native keeps): the host's signers (its DPoP key, and its client key for RFC 7523 assertions and RFC 9101
 * request objects), and the headers for the app's own requests to a resource server and the reading of its
 * answers, for an auth state and a machine's token alike.
 *
 * The signer is the app's way to keep its DPoP key in the Android Keystore: the library calls it with
 * each proof's signing input, on whichever thread makes the request. The bridge keeps the Java side (a
 * HostKeySignerCall, which calls the app's HostKeySigner and turns what it throws into a failure) as a global
 * reference in a `java_ref` the Java side holds as a long. An auth state keeps using the client's signer
 * for its key after the client is freed (auth states keep the native client alive); the library stops
 * calling a signer once it is removed or replaced (include/telenorid.h), but the bridge keeps it simple:
 * Client keeps every signer it installed and releases them all once the native client and every auth
 * state made from it are freed (dpopSignerFree).
 */

#include "telenorid_jni_bridge.h"

#define SIGNER_CLASS "no/telenor/id/HostKeySignerCall"

static jmethodID g_signer_sign; /* byte[] HostKeySignerCall.sign(byte[] signingInput) */

/* Asks Java for the signature of `input`, copying it into `signature`: 0 on success, 1 when Java can't be
 * asked or gives nothing (HostKeySignerCall keeps what the signer threw), 2 when the signature doesn't fit. */
static int32_t sign_in_java(JNIEnv *env, java_ref *signer, const uint8_t *input, size_t input_len,
                            uint8_t *signature, size_t *signature_len)
{
    if (input_len > (size_t)INT32_MAX) {
        return 1;
    }
    jbyteArray input_bytes = (*env)->NewByteArray(env, (jsize)input_len);
    if (input_bytes == NULL) {
        (*env)->ExceptionClear(env); /* OutOfMemoryError: can't propagate through the library */
        return 1;
    }
    (*env)->SetByteArrayRegion(env, input_bytes, 0, (jsize)input_len, (const jbyte *)input);
    jbyteArray answer = (jbyteArray)(*env)->CallObjectMethod(env, signer->object, g_signer_sign, input_bytes);
    (*env)->DeleteLocalRef(env, input_bytes);
    if ((*env)->ExceptionCheck(env)) {
        /* HostKeySignerCall catches what the app's signer throws; what is left (an Error while recording it)
         * can't propagate through the library: fail the signature and drop it. */
        (*env)->ExceptionClear(env);
        return 1;
    }
    if (answer == NULL) {
        return 1;
    }
    int32_t result = 0;
    jsize length = (*env)->GetArrayLength(env, answer);
    if ((size_t)length > *signature_len) {
        result = 2;
    } else {
        (*env)->GetByteArrayRegion(env, answer, 0, length, (jbyte *)signature);
        *signature_len = (size_t)length;
    }
    (*env)->DeleteLocalRef(env, answer);
    return result;
}

/* The library's sign callback (telenorid_host_key_signer). */
static int32_t on_sign(void *user_data, const uint8_t *input, size_t input_len, uint8_t *signature,
                       size_t *signature_len)
{
    int attached = 0;
    JNIEnv *env = callback_env(&attached);
    if (env == NULL) {
        return 1; /* no JVM thread to sign on */
    }
    int32_t result = 1;
    /* Inside a native call that already failed (an exception pending), Java can't be called. */
    if (!(*env)->ExceptionCheck(env)) {
        result = sign_in_java(env, user_data, input, input_len, signature, signature_len);
    }
    callback_env_release(attached);
    return result;
}

int dpop_on_load(JNIEnv *env)
{
    jclass signer_class = (*env)->FindClass(env, SIGNER_CLASS);
    if (signer_class == NULL) {
        return 0;
    }
    g_signer_sign = (*env)->GetMethodID(env, signer_class, "sign", "([B)[B");
    (*env)->DeleteLocalRef(env, signer_class);
    return g_signer_sign != NULL;
}

/* The library's two setters of a host-held key: the DPoP key and the client's own key. */
typedef telenorid_status (*signer_setter)(telenorid_client *, const char *, const char *, telenorid_host_key_signer,
                                          void *);

/* Installs `call` with `set` as one of the client's signers (null: removes it) and returns its handle (0 for
 * none), which the caller keeps and releases with dpopSignerFree once nothing can call it; on failure
 * throws and releases it. */
static jlong set_signer(JNIEnv *env, signer_setter set, jlong client, jbyteArray algorithm_bytes, jbyteArray jwk_bytes,
                        jobject call)
{
    in_string algorithm, jwk;
    java_ref *signer = NULL;
    if (!in_string_get(env, algorithm_bytes, "algorithm", &algorithm)) {
        return 0;
    }
    if (!in_string_get(env, jwk_bytes, "publicJwk", &jwk)) {
        in_string_release(&algorithm);
        return 0;
    }
    if (!java_ref_new(env, call, &signer)) {
        in_string_release(&algorithm);
        in_string_release(&jwk);
        return 0;
    }
    telenorid_status status = set(HANDLE(telenorid_client, client), algorithm.chars, jwk.chars,
                                  signer != NULL ? on_sign : NULL, signer);
    in_string_release(&algorithm);
    in_string_release(&jwk);
    if (status != TELENORID_OK) {
        throw_status(env, status);
        java_ref_free(env, signer);
        return 0;
    }
    return JHANDLE(signer);
}

jlong n_client_set_dpop_signer(JNIEnv *env, jclass cls, jlong client, jbyteArray algorithm_bytes,
                               jbyteArray jwk_bytes, jobject call)
{
    (void)cls;
    return set_signer(env, telenorid_client_set_dpop_signer, client, algorithm_bytes, jwk_bytes, call);
}

jlong n_client_set_client_signer(JNIEnv *env, jclass cls, jlong client, jbyteArray algorithm_bytes,
                                 jbyteArray jwk_bytes, jobject call)
{
    (void)cls;
    return set_signer(env, telenorid_client_set_client_signer, client, algorithm_bytes, jwk_bytes, call);
}

void n_dpop_signer_free(JNIEnv *env, jclass cls, jlong signer)
{
    (void)cls;
    java_ref_free(env, HANDLE(java_ref, signer));
}

/* One `..._request_headers` call of the library, on the handle the Java long holds. */
typedef telenorid_status (*request_headers_call)(jlong handle, const char *method, const char *url,
                                                 const char *nonce, char **authorization, char **dpop);

static telenorid_status auth_state_headers(jlong state, const char *method, const char *url, const char *nonce,
                                           char **authorization, char **dpop)
{
    return telenorid_auth_state_request_headers(HANDLE(telenorid_auth_state, state), method, url, nonce,
                                                authorization, dpop);
}

static telenorid_status client_credentials_headers(jlong credentials, const char *method, const char *url,
                                                   const char *nonce, char **authorization, char **dpop)
{
    return telenorid_client_credentials_request_headers(HANDLE(telenorid_client_credentials, credentials), method,
                                                        url, nonce, authorization, dpop);
}

/* {authorization, dpop} as UTF-8; dpop is null for a Bearer token. Both strings are freed (wiped) here. */
static jobjectArray request_headers(JNIEnv *env, request_headers_call call, jlong handle, jbyteArray method_bytes,
                                    jbyteArray url_bytes, jbyteArray nonce_bytes)
{
    in_string method, url, nonce;
    char *authorization = NULL, *dpop = NULL;
    if (!in_string_get(env, method_bytes, "method", &method)) {
        return NULL;
    }
    if (!in_string_get(env, url_bytes, "url", &url)) {
        in_string_release(&method);
        return NULL;
    }
    if (!in_string_get(env, nonce_bytes, "resourceNonce", &nonce)) {
        in_string_release(&method);
        in_string_release(&url);
        return NULL;
    }
    telenorid_status status = call(handle, method.chars, url.chars, nonce.chars, &authorization, &dpop);
    in_string_release(&method);
    in_string_release(&url);
    in_string_release(&nonce);
    if (status != TELENORID_OK) {
        throw_status(env, status); /* first: read the last error before any other library call */
        telenorid_string_free(authorization);
        telenorid_string_free(dpop);
        return NULL;
    }
    jbyteArray authorization_array = take_string(env, authorization);
    jbyteArray dpop_array = NULL;
    if (authorization_array == NULL) {
        telenorid_string_free(dpop);
        return NULL; /* OutOfMemoryError pending */
    }
    if (dpop != NULL && (dpop_array = take_string(env, dpop)) == NULL) {
        (*env)->DeleteLocalRef(env, authorization_array);
        return NULL;
    }
    jobjectArray result = new_byte_arrays(env, 2);
    if (result != NULL) {
        (*env)->SetObjectArrayElement(env, result, 0, authorization_array);
        (*env)->SetObjectArrayElement(env, result, 1, dpop_array);
    }
    (*env)->DeleteLocalRef(env, authorization_array);
    if (dpop_array != NULL) {
        (*env)->DeleteLocalRef(env, dpop_array);
    }
    return result;
}

jobjectArray n_auth_state_request_headers(JNIEnv *env, jclass cls, jlong state, jbyteArray method_bytes,
                                          jbyteArray url_bytes, jbyteArray nonce_bytes)
{
    (void)cls;
    return request_headers(env, auth_state_headers, state, method_bytes, url_bytes, nonce_bytes);
}

jobjectArray n_client_credentials_request_headers(JNIEnv *env, jclass cls, jlong credentials, jbyteArray method_bytes,
                                                  jbyteArray url_bytes, jbyteArray nonce_bytes)
{
    (void)cls;
    return request_headers(env, client_credentials_headers, credentials, method_bytes, url_bytes, nonce_bytes);
}

/* One `..._resource_answered` call of the library, on the handle the Java long holds. */
typedef telenorid_status (*resource_answered_call)(jlong handle, const char *url, int32_t status,
                                                   const char *challenge, const char *nonce, const char *sent,
                                                   int32_t *retry);

static telenorid_status auth_state_answered(jlong state, const char *url, int32_t status, const char *challenge,
                                            const char *nonce, const char *sent, int32_t *retry)
{
    return telenorid_auth_state_resource_answered(HANDLE(telenorid_auth_state, state), url, status, challenge, nonce,
                                                  sent, retry);
}

static telenorid_status client_credentials_answered(jlong credentials, const char *url, int32_t status,
                                                    const char *challenge, const char *nonce, const char *sent,
                                                    int32_t *retry)
{
    return telenorid_client_credentials_resource_answered(HANDLE(telenorid_client_credentials, credentials), url,
                                                          status, challenge, nonce, sent, retry);
}

/* Whether the library says to send the request once more. The four strings (null arrays are NULL) are
 * copied in, and wiped when released: the sent Authorization value holds the token. */
static jboolean resource_answered(JNIEnv *env, resource_answered_call call, jlong handle, jbyteArray url_bytes,
                                  jint status, jbyteArray challenge_bytes, jbyteArray nonce_bytes,
                                  jbyteArray sent_bytes)
{
    jbyteArray arrays[4] = {url_bytes, challenge_bytes, nonce_bytes, sent_bytes};
    static const char *const names[4] = {"url", "wwwAuthenticate", "dpopNonce", "authorizationSent"};
    in_string strings[4];
    size_t copied = 0;
    while (copied < 4 && in_string_get(env, arrays[copied], names[copied], &strings[copied])) {
        copied++;
    }
    int32_t retry = 0;
    telenorid_status result = TELENORID_OK;
    int called = copied == 4;
    if (called) {
        result = call(handle, strings[0].chars, (int32_t)status, strings[1].chars, strings[2].chars, strings[3].chars,
                      &retry);
    }
    while (copied > 0) {
        in_string_release(&strings[--copied]);
    }
    if (!called) {
        return JNI_FALSE; /* an exception is pending */
    }
    void_result(env, result);
    return result == TELENORID_OK && retry == 1 ? JNI_TRUE : JNI_FALSE;
}

jboolean n_auth_state_resource_answered(JNIEnv *env, jclass cls, jlong state, jbyteArray url_bytes, jint status,
                                        jbyteArray challenge_bytes, jbyteArray nonce_bytes, jbyteArray sent_bytes)
{
    (void)cls;
    return resource_answered(env, auth_state_answered, state, url_bytes, status, challenge_bytes, nonce_bytes,
                             sent_bytes);
}

jboolean n_client_credentials_resource_answered(JNIEnv *env, jclass cls, jlong credentials, jbyteArray url_bytes,
                                                jint status, jbyteArray challenge_bytes, jbyteArray nonce_bytes,
                                                jbyteArray sent_bytes)
{
    (void)cls;
    return resource_answered(env, client_credentials_answered, credentials, url_bytes, status, challenge_bytes,
                             nonce_bytes, sent_bytes);
}
