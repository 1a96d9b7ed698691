/* The host's store (telenorid_store_functions) from Java: each function calls the app's Store through
 * StoreCall (which turns what it throws into a status), on whichever thread the library runs it, attached to
 * the JVM for the call. A store made here lives as long as the auth states and machine tokens bound through
 * it: the bridge frees its own reference at once, and the library's release drops the global reference to the
 * StoreCall. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "telenorid_jni_bridge.h"

#define STORE_CALL_CLASS "no/telenor/id/StoreCall"

static jmethodID g_load, g_store, g_lock, g_unlock;

int store_on_load(JNIEnv *env)
{
    jclass call = (*env)->FindClass(env, STORE_CALL_CLASS);
    if (call == NULL) {
        return 0;
    }
    g_load = (*env)->GetMethodID(env, call, "load", "([BJ)I");
    g_store = g_load ? (*env)->GetMethodID(env, call, "store", "([B[B)I") : NULL;
    g_lock = g_store ? (*env)->GetMethodID(env, call, "lock", "([BI)I") : NULL;
    g_unlock = g_lock ? (*env)->GetMethodID(env, call, "unlock", "([B)I") : NULL;
    (*env)->DeleteLocalRef(env, call);
    return g_unlock != NULL;
}

/* The status a StoreCall method returned; TELENORID_E_STORE_FAILED when Java could not be called or threw
 * (StoreCall catches what the app's store throws; what is left can't propagate through the library). */
static int32_t checked(JNIEnv *env, jint status)
{
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
        return TELENORID_E_STORE_FAILED;
    }
    return status;
}

static int32_t on_load(void *user_data, const char *key, telenorid_store_record *record)
{
    int attached = 0;
    JNIEnv *env = callback_env(&attached);
    if (env == NULL) {
        return TELENORID_E_STORE_FAILED;
    }
    int32_t result = TELENORID_E_STORE_FAILED;
    if (!(*env)->ExceptionCheck(env)) {
        jbyteArray key_bytes = new_bytes(env, key);
        jint status = key_bytes == NULL ? TELENORID_E_STORE_FAILED
                                        : (*env)->CallIntMethod(env, ((java_ref *)user_data)->object, g_load,
                                                                key_bytes, (jlong)(intptr_t)record);
        result = checked(env, status);
        (*env)->DeleteLocalRef(env, key_bytes);
    }
    callback_env_release(attached);
    return result;
}

static int32_t on_store(void *user_data, const char *key, const uint8_t *data, size_t len)
{
    int attached = 0;
    JNIEnv *env = callback_env(&attached);
    if (env == NULL) {
        return TELENORID_E_STORE_FAILED;
    }
    int32_t result = TELENORID_E_STORE_FAILED;
    if (!(*env)->ExceptionCheck(env) && len <= (size_t)INT32_MAX) {
        jbyteArray key_bytes = new_bytes(env, key);
        jbyteArray data_bytes = key_bytes ? (*env)->NewByteArray(env, (jsize)len) : NULL;
        jint status = TELENORID_E_STORE_FAILED;
        if (data_bytes != NULL) {
            (*env)->SetByteArrayRegion(env, data_bytes, 0, (jsize)len, (const jbyte *)data);
            status = (*env)->CallIntMethod(env, ((java_ref *)user_data)->object, g_store, key_bytes, data_bytes);
        }
        result = checked(env, status);
        (*env)->DeleteLocalRef(env, data_bytes);
        (*env)->DeleteLocalRef(env, key_bytes);
    }
    callback_env_release(attached);
    return result;
}

/* lock (with its timeout) or unlock (`timeout_ms` < 0) of `name`. */
static int32_t lock_call(void *user_data, const char *name, int32_t timeout_ms)
{
    int attached = 0;
    JNIEnv *env = callback_env(&attached);
    if (env == NULL) {
        return TELENORID_E_STORE_FAILED;
    }
    int32_t result = TELENORID_E_STORE_FAILED;
    if (!(*env)->ExceptionCheck(env)) {
        jbyteArray name_bytes = new_bytes(env, name);
        jobject call = ((java_ref *)user_data)->object;
        jint status = TELENORID_E_STORE_FAILED;
        if (name_bytes != NULL) {
            status = timeout_ms < 0 ? (*env)->CallIntMethod(env, call, g_unlock, name_bytes)
                                    : (*env)->CallIntMethod(env, call, g_lock, name_bytes, (jint)timeout_ms);
        }
        result = checked(env, status);
        (*env)->DeleteLocalRef(env, name_bytes);
    }
    callback_env_release(attached);
    return result;
}

static int32_t on_lock(void *user_data, const char *name, int32_t timeout_ms)
{
    return lock_call(user_data, name, timeout_ms < 0 ? 0 : timeout_ms);
}

static int32_t on_unlock(void *user_data, const char *name)
{
    return lock_call(user_data, name, -1);
}

static void on_release(void *user_data)
{
    int attached = 0;
    JNIEnv *env = callback_env(&attached);
    if (env != NULL) {
        java_ref_free(env, user_data);
        callback_env_release(attached);
    }
}

/* A store: the directory store when `directory` is not null, else the app's store through `call`. Returns
 * 1 with *out set; 0 with an exception pending. */
int new_store(JNIEnv *env, jobject call, jbyteArray directory_bytes, telenorid_store **out)
{
    telenorid_status status;
    if (directory_bytes != NULL) {
        in_string directory;
        if (!in_string_get(env, directory_bytes, "directory", &directory)) {
            return 0;
        }
        status = telenorid_store_new_directory(directory.chars, out);
        in_string_release(&directory);
    } else {
        java_ref *ref = NULL;
        if (!java_ref_new(env, call, &ref)) {
            return 0;
        }
        const telenorid_store_functions functions = {sizeof(telenorid_store_functions), on_load, on_store, on_lock,
                                                     on_unlock, on_release};
        status = telenorid_store_new(&functions, ref, out);
        if (status != TELENORID_OK) {
            java_ref_free(env, ref); /* the library calls release only for a store it made */
        }
    }
    if (status != TELENORID_OK) {
        throw_status(env, status);
        return 0;
    }
    return 1;
}

/* What a native that binds a handle to a record, or opens one, hands the library: the store (the app's or the
 * directory one) and the record's key. */
typedef struct {
    telenorid_store *store;
    in_string key;
} keyed_store;

/* Returns 1 with *out set, to be released by keyed_store_release after the library call; 0 with an exception
 * pending and nothing to release. */
static int keyed_store_get(JNIEnv *env, jobject call, jbyteArray directory, jbyteArray key_bytes, keyed_store *out)
{
    out->store = NULL;
    if (!in_string_get(env, key_bytes, "key", &out->key)) {
        return 0;
    }
    if (!new_store(env, call, directory, &out->store)) {
        in_string_release(&out->key);
        return 0;
    }
    return 1;
}

/* Frees the bridge's reference to the store (a handle bound to it, or opened from it, keeps its own) and wipes
 * the key. */
static void keyed_store_release(keyed_store *keyed)
{
    telenorid_store_free(keyed->store);
    in_string_release(&keyed->key);
}

void n_auth_state_bind_store(JNIEnv *env, jclass cls, jlong state, jobject call, jbyteArray directory,
                             jbyteArray key_bytes)
{
    (void)cls;
    keyed_store keyed;
    if (keyed_store_get(env, call, directory, key_bytes, &keyed)) {
        telenorid_status status = telenorid_auth_state_bind_store(HANDLE(telenorid_auth_state, state), keyed.store,
                                                                  keyed.key.chars);
        keyed_store_release(&keyed);
        void_result(env, status);
    }
}

void n_client_credentials_bind_store(JNIEnv *env, jclass cls, jlong credentials, jobject call, jbyteArray directory,
                                     jbyteArray key_bytes)
{
    (void)cls;
    keyed_store keyed;
    if (keyed_store_get(env, call, directory, key_bytes, &keyed)) {
        telenorid_status status = telenorid_client_credentials_bind_store(
            HANDLE(telenorid_client_credentials, credentials), keyed.store, keyed.key.chars);
        keyed_store_release(&keyed);
        void_result(env, status);
    }
}

jlong n_auth_state_open_store(JNIEnv *env, jclass cls, jlong client, jobject call, jbyteArray directory,
                             jbyteArray key_bytes)
{
    (void)cls;
    keyed_store keyed;
    telenorid_auth_state *out = NULL;
    if (!keyed_store_get(env, call, directory, key_bytes, &keyed)) {
        return 0;
    }
    telenorid_status status = telenorid_auth_state_open_store(HANDLE(telenorid_client, client), keyed.store,
                                                              keyed.key.chars, &out);
    keyed_store_release(&keyed);
    return handle_result(env, status, out);
}

/* From inside StoreCall.load: hands the record to the library (copied, the copy wiped after). */
jint n_store_record_set(JNIEnv *env, jclass cls, jlong record, jbyteArray data)
{
    (void)cls;
    if (data == NULL) {
        return telenorid_store_record_set(HANDLE(telenorid_store_record, record), NULL, 0);
    }
    jsize length = (*env)->GetArrayLength(env, data);
    uint8_t *copy = malloc(length > 0 ? (size_t)length : 1);
    if (copy == NULL) {
        return TELENORID_E_STORE_FAILED;
    }
    (*env)->GetByteArrayRegion(env, data, 0, length, (jbyte *)copy);
    telenorid_status status = telenorid_store_record_set(HANDLE(telenorid_store_record, record), copy, (size_t)length);
    volatile uint8_t *wipe = copy; /* it held the refresh token */
    for (jsize i = 0; i < length; i++) {
        wipe[i] = 0;
    }
    free(copy);
    return status;
}
