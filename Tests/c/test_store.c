/* The host's store from C, against the real provider (django-oauth-toolkit, Tests/support/provider/
 * oidc_provider.py, started here, which rotates refresh tokens): an in-memory store with pthread locks
 * standing for a keychain or a database, eight auth states on one record (eight processes) refreshing at
 * once with one refresh between them, a store that fails, and the contract of the functions (NULLs, a short
 * struct, keys, calls from inside the host's functions). Ends with "N passed, M failed". */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <telenorid.h>
#include "check.h"
#include "sign_in.h"

#define S(expected, call) check_report((call) == (expected), __FILE__, __LINE__, #call)
#define STATES 8

static struct {
    char issuer[256], public_id[128], username[64], password[64];
    pid_t pid;
} provider;

static int start_provider(void) {
    char *argv[] = {"python3", "Tests/support/provider/oidc_provider.py", NULL};
    char line[2048];
    if (!first_line(argv, line, sizeof line, &provider.pid)) return 0;
    return field(line, "\"issuer\": \"", provider.issuer, sizeof provider.issuer) &&
           field(line, "\"public\": {\"client_id\": \"", provider.public_id, sizeof provider.public_id) &&
           field(line, "\"username\": \"", provider.username, sizeof provider.username) &&
           field(line, "\"password\": \"", provider.password, sizeof provider.password);
}

static void stop_provider(void) {
    if (provider.pid > 0) {
        kill(provider.pid, SIGTERM);
        waitpid(provider.pid, NULL, 0);
    }
}

/* ---- The host's store: one record, named locks, each a flag under one mutex and condition. ---- */

struct memory_store {
    pthread_mutex_t mutex;
    pthread_cond_t changed;
    char key[129];
    uint8_t *data;
    size_t len;
    char held[4][140];
    int fail_store, released, loads, saves, inside_status;
};

static telenorid_status memory_load(void *user_data, const char *key, telenorid_store_record *record) {
    struct memory_store *store = user_data;
    pthread_mutex_lock(&store->mutex);
    store->loads++;
    /* Any other library call from in here is refused. */
    store->inside_status = telenorid_auth_state_is_signed_in(NULL, NULL);
    telenorid_status status = TELENORID_OK;
    if (store->data && strcmp(store->key, key) == 0) status = telenorid_store_record_set(record, store->data, store->len);
    pthread_mutex_unlock(&store->mutex);
    return status;
}

static telenorid_status memory_save(void *user_data, const char *key, const uint8_t *data, size_t len) {
    struct memory_store *store = user_data;
    pthread_mutex_lock(&store->mutex);
    telenorid_status status = TELENORID_E_NETWORK;
    if (!store->fail_store) {
        uint8_t *copy = malloc(len ? len : 1);
        if (copy) {
            memcpy(copy, data, len);
            free(store->data);
            store->data = copy;
            store->len = len;
            snprintf(store->key, sizeof store->key, "%s", key);
            store->saves++;
            status = TELENORID_OK;
        }
    }
    pthread_mutex_unlock(&store->mutex);
    return status;
}

static int held_slot(struct memory_store *store, const char *name) {
    for (int i = 0; i < 4; i++) {
        if (strcmp(store->held[i], name) == 0) return i;
    }
    return -1;
}

static telenorid_status memory_lock(void *user_data, const char *name, int32_t timeout_ms) {
    struct memory_store *store = user_data;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&store->mutex);
    while (held_slot(store, name) >= 0) {
        if (pthread_cond_timedwait(&store->changed, &store->mutex, &deadline) == ETIMEDOUT) {
            pthread_mutex_unlock(&store->mutex);
            return TELENORID_E_TIMEOUT;
        }
    }
    int free_slot = held_slot(store, "");
    if (free_slot >= 0) snprintf(store->held[free_slot], sizeof store->held[free_slot], "%s", name);
    pthread_mutex_unlock(&store->mutex);
    return free_slot >= 0 ? TELENORID_OK : TELENORID_E_TIMEOUT;
}

static telenorid_status memory_unlock(void *user_data, const char *name) {
    struct memory_store *store = user_data;
    pthread_mutex_lock(&store->mutex);
    int slot = held_slot(store, name);
    if (slot >= 0) store->held[slot][0] = '\0';
    pthread_cond_broadcast(&store->changed);
    pthread_mutex_unlock(&store->mutex);
    return slot >= 0 ? TELENORID_OK : TELENORID_E_INVALID_ARGUMENT;
}

static void memory_release(void *user_data) {
    struct memory_store *store = user_data;
    store->released++;
}

static const telenorid_store_functions memory_functions = {
    sizeof(telenorid_store_functions), memory_load, memory_save, memory_lock, memory_unlock, memory_release};

/* Whether `len` bytes at `data` contain `text`. */
static int contains(const uint8_t *data, size_t len, const char *text) {
    size_t n = strlen(text);
    for (size_t i = 0; data && n <= len && i <= len - n; i++) {
        if (memcmp(data + i, text, n) == 0) return 1;
    }
    return 0;
}

/* ---- Sign-in ---- */

static telenorid_client *new_client(void) {
    return public_client(provider.issuer, provider.public_id, "http://127.0.0.1:53682/callback", "openid profile");
}

static telenorid_auth_state *sign_in(telenorid_client *client) {
    char *browser[] = {"python3", "Tests/support/provider/browser.py", NULL, provider.username, provider.password,
                       NULL};
    return sign_in_through(client, browser, 2);
}

/* ---- Eight states on one record refresh once ---- */

struct refresher {
    telenorid_auth_state *state;
    pthread_barrier_t *start;
    telenorid_status status;
    char *access_token;
};

static void *refresh_one(void *argument) {
    struct refresher *r = argument;
    pthread_barrier_wait(r->start);
    r->status = telenorid_auth_state_refresh(r->state);
    if (r->status == TELENORID_OK) telenorid_auth_state_get(r->state, TELENORID_TOKEN_ACCESS_TOKEN, &r->access_token);
    return NULL;
}

static void test_one_refresh_between_eight_states(telenorid_client *client, telenorid_auth_state *signed_in) {
    struct memory_store memory = {.mutex = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};
    telenorid_store *store = NULL;
    char *first_access = NULL, *first_refresh = NULL;
    S(TELENORID_OK, telenorid_store_new(&memory_functions, &memory, &store));
    S(TELENORID_OK, telenorid_auth_state_get(signed_in, TELENORID_TOKEN_ACCESS_TOKEN, &first_access));
    S(TELENORID_OK, telenorid_auth_state_get(signed_in, TELENORID_TOKEN_REFRESH_TOKEN, &first_refresh));
    S(TELENORID_OK, telenorid_auth_state_bind_store(signed_in, store, "alice"));
    CHECK(memory.saves == 1 && memory.len > 0 && strcmp(memory.key, "alice") == 0);

    struct refresher refreshers[STATES];
    pthread_t threads[STATES];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, STATES);
    for (int i = 0; i < STATES; i++) {
        refreshers[i] = (struct refresher){NULL, &start, -1, NULL};
        S(TELENORID_OK, telenorid_auth_state_open_store(client, store, "alice", &refreshers[i].state));
    }
    CHECK(memory.inside_status == TELENORID_E_INVALID_ARGUMENT);  /* refused inside the host's load */
    for (int i = 0; i < STATES; i++) pthread_create(&threads[i], NULL, refresh_one, &refreshers[i]);
    for (int i = 0; i < STATES; i++) pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&start);
    /* One refresh: every state has its access token. A second refresh would have presented the rotated-away
     * refresh token, which django refuses (and answers with invalid_grant), or brought another token. */
    for (int i = 0; i < STATES; i++) {
        S(TELENORID_OK, refreshers[i].status);
        CHECK(refreshers[i].access_token && first_access && strcmp(refreshers[i].access_token, first_access) != 0);
        CHECK(refreshers[i].access_token && refreshers[0].access_token &&
              strcmp(refreshers[i].access_token, refreshers[0].access_token) == 0);
    }
    /* The stored record holds the new state, without the rotation journal's marker. */
    CHECK(memory.data && memory.len > 0 && !contains(memory.data, memory.len, "refresh_started_at"));
    CHECK(memory.data && first_refresh && !contains(memory.data, memory.len, first_refresh));
    /* The state the eight did not include catches up at its next refresh instead of redeeming its old token. */
    S(TELENORID_OK, telenorid_auth_state_refresh(signed_in));
    for (int i = 0; i < STATES; i++) {
        telenorid_string_free(refreshers[i].access_token);
        telenorid_auth_state_free(refreshers[i].state);
    }
    telenorid_string_free(first_access);
    telenorid_string_free(first_refresh);
    telenorid_store_free(store);
    CHECK(memory.released == 0);  /* `signed_in` still holds the store */
    telenorid_auth_state_free(signed_in);
    CHECK(memory.released == 1);
    free(memory.data);
}

static void test_a_failing_store(telenorid_client *client) {
    struct memory_store memory = {.mutex = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};
    telenorid_store *store = NULL;
    telenorid_auth_state *state = (telenorid_auth_state *)1;
    S(TELENORID_OK, telenorid_store_new(&memory_functions, &memory, &store));
    memory.fail_store = 1;
    S(TELENORID_E_STORE_FAILED, telenorid_auth_state_open_store(client, store, "bob", &state));
    CHECK(state == (telenorid_auth_state *)1);
    telenorid_error *error = telenorid_error_last();
    const char *message = error ? telenorid_error_message(error) : NULL;
    CHECK(message && strstr(message, "store of \"bob\" failed (15)"));
    telenorid_error_free(error);
    /* Garbage: a record that is not an auth state. */
    memory.fail_store = 0;
    memory.data = (uint8_t *)strdup("{\"version\":1,\"access_token\":");
    memory.len = strlen((char *)memory.data);
    snprintf(memory.key, sizeof memory.key, "bob");
    S(TELENORID_E_STORE_FAILED, telenorid_auth_state_open_store(client, store, "bob", &state));
    CHECK(state == (telenorid_auth_state *)1);
    telenorid_store_free(store);
    CHECK(memory.released == 1);
    free(memory.data);
}

/* telenorid_auth_state_save: a store that refuses the write is STORE_FAILED and keeps its record; once it
 * takes writes, save writes; a state bound to nothing can't save. */
static void test_save(telenorid_client *client, telenorid_auth_state *signed_in) {
    struct memory_store memory = {.mutex = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};
    telenorid_store *store = NULL;
    telenorid_auth_state *state = NULL;
    char *json = NULL;
    S(TELENORID_OK, telenorid_auth_state_serialize(signed_in, &json));
    S(TELENORID_OK, telenorid_auth_state_restore(client, json, &state));
    telenorid_string_free(json);
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_save(state));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_save(NULL));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_save((telenorid_auth_state *)client)); /* wrong kind */
    S(TELENORID_OK, telenorid_store_new(&memory_functions, &memory, &store));
    S(TELENORID_OK, telenorid_auth_state_bind_store(state, store, "erin"));
    int saves = memory.saves;
    memory.fail_store = 1;
    S(TELENORID_E_STORE_FAILED, telenorid_auth_state_save(state));
    telenorid_error *error = telenorid_error_last();
    const char *message = error ? telenorid_error_message(error) : NULL;
    CHECK(message && strstr(message, "store of \"erin\" failed"));
    telenorid_error_free(error);
    CHECK(memory.saves == saves);
    memory.fail_store = 0;
    S(TELENORID_OK, telenorid_auth_state_save(state));
    CHECK(memory.saves == saves + 1 && contains(memory.data, memory.len, "refresh_token"));
    telenorid_auth_state_free(state);
    telenorid_store_free(store);
    CHECK(memory.released == 1);
    free(memory.data);
}

static void test_the_contract(telenorid_client *client) {
    telenorid_store *store = NULL;
    telenorid_auth_state *state = NULL;
    telenorid_store_functions shorter = memory_functions;
    shorter.size = sizeof(telenorid_store_functions) - 1;
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_store_new(NULL, NULL, &store));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_store_new(&shorter, NULL, &store));
    telenorid_store_functions no_lock = memory_functions;
    no_lock.lock = NULL;
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_store_new(&no_lock, NULL, &store));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_store_new(&memory_functions, NULL, NULL));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_store_new_directory(NULL, &store));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_store_record_set(NULL, (const uint8_t *)"x", 1));
    CHECK(store == NULL);
    S(TELENORID_OK, telenorid_store_new_directory("/nonexistent-telenorid-dir", &store));
    const char *bad_keys[] = {"", "a/b", "../x", "alice.update", "sp ace"};
    for (size_t i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; i++) {
        S(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_open_store(client, store, bad_keys[i], &state));
    }
    S(TELENORID_E_CONFIGURATION, telenorid_auth_state_open_store(client, store, "alice", &state));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_open_store(client, NULL, "alice", &state));
    S(TELENORID_E_INVALID_ARGUMENT,
      telenorid_auth_state_open_store(client, (telenorid_store *)client, "alice", &state));  /* wrong kind */
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_bind_store(NULL, store, "alice"));
    CHECK(state == NULL);
    telenorid_store_free(store);
    telenorid_store_free(NULL);
}

int main(void) {
    if (!CHECK(start_provider())) {
        stop_provider();
        return finish_checks();
    }
    telenorid_client *client = new_client();
    test_the_contract(client);
    test_a_failing_store(client);
    telenorid_auth_state *signed_in = sign_in(client);
    if (CHECK(signed_in != NULL)) test_save(client, signed_in);
    if (CHECK(signed_in != NULL)) test_one_refresh_between_eight_states(client, signed_in);
    telenorid_client_free(client);
    stop_provider();
    return finish_checks();
}
