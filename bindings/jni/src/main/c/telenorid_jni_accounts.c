/* The registry of accounts (the header's "Accounts"): open through the app's store or the directory store,
 * add, list, select, remove, free. */
#include "telenorid_jni_bridge.h"

jlong n_accounts_open(JNIEnv *env, jclass cls, jlong client, jobject call, jbyteArray directory,
                      jbyteArray name_bytes)
{
    (void)cls;
    in_string name;
    telenorid_store *store = NULL;
    telenorid_accounts *out = NULL;
    jlong result = 0;
    if (!in_string_get(env, name_bytes, "name", &name)) {
        return 0;
    }
    if (new_store(env, call, directory, &store)) {
        telenorid_status status = telenorid_accounts_open(HANDLE(telenorid_client, client), store, name.chars, &out);
        telenorid_store_free(store); /* the registry keeps it */
        result = handle_result(env, status, out);
    }
    in_string_release(&name);
    return result;
}
