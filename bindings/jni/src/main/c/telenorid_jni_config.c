/*
 * telenorid_jni_config.c — the bridge's configuration natives (Config, Config.Builder)
 * (see telenorid_jni.c for the rules every native keeps).
 */
#include "telenorid_jni_bridge.h"

/* Config.Builder keeps its settings in Java and builds in one call: builder_new, one builder_set per
 * setting, builder_build, builder_free. So no native builder outlives the call, and the Java builder
 * needs no close(). */
jlong n_config_build(JNIEnv *env, jclass cls, jintArray keys, jobjectArray values)
{
    (void)cls;
    telenorid_config_builder *builder = NULL;
    telenorid_config *config = NULL;
    telenorid_status status;

    if (keys == NULL || values == NULL ||
        (*env)->GetArrayLength(env, keys) != (*env)->GetArrayLength(env, values)) {
        throw_illegal_argument(env, "keys and values must be arrays of the same length");
        return 0;
    }
    jsize count = (*env)->GetArrayLength(env, keys);
    status = telenorid_config_builder_new(&builder);
    if (status != TELENORID_OK) {
        throw_status(env, status);
        return 0;
    }
    for (jsize i = 0; i < count; i++) {
        jint key = 0;
        (*env)->GetIntArrayRegion(env, keys, i, 1, &key);
        if ((*env)->ExceptionCheck(env)) {
            goto done;
        }
        jbyteArray value_bytes = (jbyteArray)(*env)->GetObjectArrayElement(env, values, i);
        if ((*env)->ExceptionCheck(env)) {
            goto done;
        }
        in_string value;
        int ok = in_string_get(env, value_bytes, "a configuration value", &value);
        if (value_bytes != NULL) {
            (*env)->DeleteLocalRef(env, value_bytes);
        }
        if (!ok) {
            goto done;
        }
        status = telenorid_config_builder_set(builder, (telenorid_config_key)key, value.chars);
        in_string_release(&value);
        if (status != TELENORID_OK) {
            throw_status(env, status);
            goto done;
        }
    }
    status = telenorid_config_builder_build(builder, &config);
    if (status != TELENORID_OK) {
        throw_status(env, status);
        config = NULL;
    }
done:
    telenorid_config_builder_free(builder);
    return JHANDLE(config);
}
