/* The registry of accounts (the header's "Accounts"): open through the app's store or the directory store,
 * add, list, select, remove, free. */
#include "telenorid_jni.h"

static jlong n_accounts_open(JNIEnv *env, jclass cls, jlong client, jobject call, jbyteArray directory,
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

static jbyteArray n_accounts_add(JNIEnv *env, jclass cls, jlong accounts, jlong state)
{
    (void)cls;
    char *out = NULL;
    telenorid_status status = telenorid_accounts_add(HANDLE(telenorid_accounts, accounts),
                                                     HANDLE(telenorid_auth_state, state), &out);
    return string_result(env, status, out);
}

STRING_GETTER(n_accounts_list, telenorid_accounts, telenorid_accounts_list)

static jlong n_accounts_select(JNIEnv *env, jclass cls, jlong accounts, jbyteArray id_bytes)
{
    (void)cls;
    in_string id;
    telenorid_auth_state *out = NULL;
    if (!in_string_get(env, id_bytes, "accountId", &id)) {
        return 0;
    }
    telenorid_status status = telenorid_accounts_select(HANDLE(telenorid_accounts, accounts), id.chars, &out);
    in_string_release(&id);
    return handle_result(env, status, out);
}

static void n_accounts_remove(JNIEnv *env, jclass cls, jlong accounts, jbyteArray id_bytes)
{
    (void)cls;
    in_string id;
    if (!in_string_get(env, id_bytes, "accountId", &id)) {
        return;
    }
    telenorid_status status = telenorid_accounts_remove(HANDLE(telenorid_accounts, accounts), id.chars);
    in_string_release(&id);
    void_result(env, status);
}

FREE_FUNCTION(n_accounts_free, telenorid_accounts, telenorid_accounts_free)

static const JNINativeMethod accounts_natives[] = {
    NATIVE("accountsOpen", "(JLno/telenor/id/StoreCall;[B[B)J", n_accounts_open),
    NATIVE("accountsAdd", "(JJ)[B", n_accounts_add),
    NATIVE("accountsList", "(J)[B", n_accounts_list),
    NATIVE("accountsSelect", "(J[B)J", n_accounts_select),
    NATIVE("accountsRemove", "(J[B)V", n_accounts_remove),
    NATIVE("accountsFree", "(J)V", n_accounts_free),
};

NATIVE_TABLE(accounts_table, accounts_natives, NULL);
