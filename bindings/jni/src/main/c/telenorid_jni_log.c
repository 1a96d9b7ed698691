/*
 * telenorid_jni_log.c — the bridge's log natives (see telenorid_jni.c for the rules every native keeps): the
 * library's process-wide log callback, routed to a LogSink, which hands each event to java.util.logging.
 *
 * The LogSink is kept as a global reference in a `java_ref` the Java side holds as a long. The library calls
 * back on whichever thread it is working on: a Java thread inside a native, normally, else callback_env
 * attaches the thread for the call and detaches it after. telenorid_set_log_callback returns only when no
 * call of the callback it replaced is under way, so the old reference is released right after.
 */

#include "telenorid_jni_bridge.h"

#define SINK_CLASS "no/telenor/id/LogSink"

static jmethodID g_sink_on_log; /* void LogSink.onLog(int level, byte[] event, byte[] message) */

/* The library's log callback. Nothing can be reported from here: what fails is dropped. */
static void on_log(void *user_data, int32_t level, const char *event, const char *message)
{
    java_ref *sink = user_data;
    int attached = 0;
    JNIEnv *env = callback_env(&attached);
    if (env == NULL) {
        return;
    }
    if (!(*env)->ExceptionCheck(env)) {
        jbyteArray event_bytes = new_bytes(env, event);
        jbyteArray message_bytes = event_bytes != NULL ? new_bytes(env, message) : NULL;
        if (message_bytes != NULL) {
            (*env)->CallVoidMethod(env, sink->object, g_sink_on_log, (jint)level, event_bytes, message_bytes);
        }
        /* LogSink catches what logging throws; what is left (an OutOfMemoryError making the arrays, say)
         * can't propagate through the library. */
        if ((*env)->ExceptionCheck(env)) {
            (*env)->ExceptionClear(env);
        }
        (*env)->DeleteLocalRef(env, event_bytes);
        (*env)->DeleteLocalRef(env, message_bytes);
    }
    callback_env_release(attached);
}

int log_on_load(JNIEnv *env)
{
    jclass sink_class = (*env)->FindClass(env, SINK_CLASS);
    if (sink_class == NULL) {
        return 0;
    }
    g_sink_on_log = (*env)->GetMethodID(env, sink_class, "onLog", "(I[B[B)V");
    (*env)->DeleteLocalRef(env, sink_class);
    return g_sink_on_log != NULL;
}

/* Installs `sink` (null: removes the callback) for events at `min_level` and above and returns its handle
 * (0 for none). On success the previous sink, `old`, is released; on failure it stays installed. */
jlong n_set_log_sink(JNIEnv *env, jclass cls, jobject sink, jint min_level, jlong old)
{
    (void)cls;
    java_ref *next = NULL;
    if (!java_ref_new(env, sink, &next)) {
        return old;
    }
    telenorid_status status = telenorid_set_log_callback(next != NULL ? on_log : NULL, next, (int32_t)min_level);
    return java_ref_installed(env, status, next, old);
}
