/* A store in PostgreSQL for libtelenorid, with libpq: processes on several hosts that open the same record
 * share one sign-in and refresh it once. The same tables and locking as the Python binding's
 * telenorid.postgres_store (see there for the reasons):
 *
 *   CREATE TABLE IF NOT EXISTS telenorid_records (
 *       key text PRIMARY KEY, data bytea NOT NULL, updated_at timestamptz NOT NULL DEFAULT now());
 *   CREATE TABLE IF NOT EXISTS telenorid_records_locks (name text PRIMARY KEY);
 *
 * Records are read and written on one connection in autocommit. Each lock the library takes ("<key>" across
 * a refresh's round trip, "<key>.update" while it reads and writes back) is a connection of its own whose open
 * transaction has SELECT ... FOR UPDATE on the lock's row, under lock_timeout; unlocking closes that
 * connection, which ends the transaction. A killed process's connections close, and PostgreSQL ends their
 * transactions: its locks are free again.
 *
 * As a program: prints a fresh access token's first characters for the grant stored under KEY, refreshing it
 * first when it expired (once across every process that asks at the same moment):
 *   cc pg_store.c $(pkg-config --cflags --libs telenorid libpq) -lpthread -o pg_store
 *   ./pg_store CONNINFO ISSUER CLIENT_ID KEY [REFRESH_MARGIN_S]
 * (REFRESH_MARGIN_S: refresh tokens expiring within this many seconds; the library's default is 60) */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <libpq-fe.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <telenorid.h>

#define MAX_LOCKS 8 /* the library holds two per record at most; a few records at once */
#define MAX_NAME 160

typedef struct {
    int held;               /* 1 while `connection`'s transaction holds the row lock of `name` */
    char name[MAX_NAME];
    PGconn *connection;
} pg_lock;

typedef struct {
    char *conninfo;
    pthread_mutex_t mutex;  /* the library may call from several threads: guards `data` and `locks` */
    PGconn *data;           /* records, autocommit */
    pg_lock locks[MAX_LOCKS];
} pg_store;

/* Called holding the mutex. A connection the server dropped is replaced. */
static PGconn *data_connection(pg_store *store)
{
    if (store->data != NULL && PQstatus(store->data) == CONNECTION_OK) return store->data;
    if (store->data != NULL) PQfinish(store->data);
    store->data = PQconnectdb(store->conninfo);
    if (PQstatus(store->data) != CONNECTION_OK) {
        fprintf(stderr, "pg_store: %s", PQerrorMessage(store->data));
        PQfinish(store->data);
        store->data = NULL;
    }
    return store->data;
}

/* Runs a statement; its result, or NULL unless it returned `expected`. */
static PGresult *run(PGconn *connection, const char *sql, int count, const char *const *values, const int *lengths,
                     const int *formats, int binary_result, ExecStatusType expected)
{
    PGresult *result = PQexecParams(connection, sql, count, NULL, values, lengths, formats, binary_result);
    if (PQresultStatus(result) == expected) return result;
    PQclear(result);
    return NULL;
}

static telenorid_status pg_load(void *user_data, const char *key, telenorid_store_record *record)
{
    pg_store *store = user_data;
    telenorid_status status = TELENORID_E_STORE_FAILED;
    pthread_mutex_lock(&store->mutex);
    PGconn *connection = data_connection(store);
    PGresult *result = connection == NULL ? NULL
        : run(connection, "SELECT data FROM telenorid_records WHERE key = $1", 1, &key, NULL, NULL, 1, PGRES_TUPLES_OK);
    if (result != NULL) {
        status = TELENORID_OK;
        if (PQntuples(result) == 1) {
            char *data = PQgetvalue(result, 0, 0);
            size_t length = (size_t)PQgetlength(result, 0, 0);
            status = telenorid_store_record_set(record, (const uint8_t *)data, length);
            memset(data, 0, length); /* the tokens: not left in freed memory */
        }
        PQclear(result);
    }
    pthread_mutex_unlock(&store->mutex);
    return status;
}

static telenorid_status pg_store_record(void *user_data, const char *key, const uint8_t *data, size_t len)
{
    pg_store *store = user_data;
    if (len > 0x7fffffff) return TELENORID_E_STORE_FAILED;
    const char *values[2] = {key, (const char *)data};
    const int lengths[2] = {0, (int)len}, formats[2] = {0, 1}; /* the data as binary bytea */
    pthread_mutex_lock(&store->mutex);
    PGconn *connection = data_connection(store);
    PGresult *result = connection == NULL ? NULL
        : run(connection,
              "INSERT INTO telenorid_records (key, data, updated_at) VALUES ($1, $2, now()) ON CONFLICT (key) "
              "DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
              2, values, lengths, formats, 0, PGRES_COMMAND_OK);
    pthread_mutex_unlock(&store->mutex);
    if (result == NULL) return TELENORID_E_STORE_FAILED;
    PQclear(result);
    return TELENORID_OK;
}

/* Locks the row of `name` on `connection` in a transaction left open; TELENORID_E_TIMEOUT when the wait
 * passed `timeout_ms` (SQLSTATE 55P03, lock_not_available). */
static telenorid_status take(PGconn *connection, const char *name, int32_t timeout_ms)
{
    PGresult *result = run(connection, "INSERT INTO telenorid_records_locks (name) VALUES ($1) ON CONFLICT DO NOTHING",
                           1, &name, NULL, NULL, 0, PGRES_COMMAND_OK);
    if (result == NULL) return TELENORID_E_STORE_FAILED;
    PQclear(result);
    result = run(connection, "BEGIN", 0, NULL, NULL, NULL, 0, PGRES_COMMAND_OK);
    if (result == NULL) return TELENORID_E_STORE_FAILED;
    PQclear(result);
    const char *query = "SELECT name FROM telenorid_records_locks WHERE name = $1 FOR UPDATE NOWAIT";
    if (timeout_ms > 0) { /* lock_timeout 0 would mean no limit */
        char limit[32];
        const char *value = limit;
        snprintf(limit, sizeof limit, "%ldms", (long)timeout_ms);
        result = run(connection, "SELECT set_config('lock_timeout', $1, true)", 1, &value, NULL, NULL, 0,
                     PGRES_TUPLES_OK);
        if (result == NULL) return TELENORID_E_STORE_FAILED;
        PQclear(result);
        query = "SELECT name FROM telenorid_records_locks WHERE name = $1 FOR UPDATE";
    }
    result = PQexecParams(connection, query, 1, NULL, &name, NULL, NULL, 0);
    telenorid_status status = TELENORID_OK;
    if (PQresultStatus(result) != PGRES_TUPLES_OK) {
        const char *state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
        status = state != NULL && strcmp(state, "55P03") == 0 ? TELENORID_E_TIMEOUT : TELENORID_E_STORE_FAILED;
    }
    PQclear(result);
    return status;
}

static telenorid_status pg_lock_name(void *user_data, const char *lock_name, int32_t timeout_ms)
{
    pg_store *store = user_data;
    if (strlen(lock_name) >= MAX_NAME) return TELENORID_E_STORE_FAILED;
    PGconn *connection = PQconnectdb(store->conninfo);
    if (PQstatus(connection) != CONNECTION_OK) {
        fprintf(stderr, "pg_store: %s", PQerrorMessage(connection));
        PQfinish(connection);
        return TELENORID_E_STORE_FAILED;
    }
    telenorid_status status = take(connection, lock_name, timeout_ms);
    if (status == TELENORID_OK) {
        status = TELENORID_E_STORE_FAILED; /* unless a slot is free */
        pthread_mutex_lock(&store->mutex);
        for (int i = 0; i < MAX_LOCKS; i++) {
            if (!store->locks[i].held) {
                store->locks[i].held = 1;
                strcpy(store->locks[i].name, lock_name);
                store->locks[i].connection = connection;
                status = TELENORID_OK;
                break;
            }
        }
        pthread_mutex_unlock(&store->mutex);
    }
    if (status != TELENORID_OK) PQfinish(connection);
    return status;
}

static telenorid_status pg_unlock(void *user_data, const char *lock_name)
{
    pg_store *store = user_data;
    PGconn *connection = NULL;
    pthread_mutex_lock(&store->mutex);
    for (int i = 0; i < MAX_LOCKS && connection == NULL; i++) {
        if (store->locks[i].held && strcmp(store->locks[i].name, lock_name) == 0) {
            store->locks[i].held = 0;
            connection = store->locks[i].connection;
            store->locks[i].connection = NULL;
        }
    }
    pthread_mutex_unlock(&store->mutex);
    if (connection == NULL) return TELENORID_E_STORE_FAILED; /* not held here */
    PQfinish(connection); /* the server ends the transaction, and its lock, with the connection */
    return TELENORID_OK;
}

static void pg_release(void *user_data)
{
    pg_store *store = user_data;
    for (int i = 0; i < MAX_LOCKS; i++) {
        if (store->locks[i].connection != NULL) PQfinish(store->locks[i].connection);
    }
    if (store->data != NULL) PQfinish(store->data);
    pthread_mutex_destroy(&store->mutex);
    free(store->conninfo);
    free(store);
}

static int failed(const char *step, telenorid_status status)
{
    telenorid_error *error = telenorid_error_last();
    fprintf(stderr, "%s failed: %s: %s\n", step, telenorid_status_str(status),
            error != NULL ? telenorid_error_message(error) : "");
    telenorid_error_free(error);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: %s CONNINFO ISSUER CLIENT_ID KEY [REFRESH_MARGIN_S]\n", argv[0]);
        return 2;
    }
    pg_store *pg = calloc(1, sizeof *pg);
    if (pg == NULL || (pg->conninfo = strdup(argv[1])) == NULL) {
        free(pg);
        return 1;
    }
    pthread_mutex_init(&pg->mutex, NULL);
    const telenorid_store_functions functions = {
        sizeof(telenorid_store_functions), pg_load, pg_store_record, pg_lock_name, pg_unlock, pg_release,
    };
    telenorid_store *store = NULL;
    telenorid_status status = telenorid_store_new(&functions, pg, &store);
    if (status != TELENORID_OK) {
        pg_release(pg); /* not taken over by the library */
        return failed("store_new", status);
    }

    int exit_code = 1;
    telenorid_config_builder *builder = NULL;
    telenorid_config *config = NULL;
    telenorid_client *client = NULL;
    telenorid_auth_state *state = NULL;
    char *token = NULL;
    if ((status = telenorid_config_builder_new(&builder)) != TELENORID_OK) {
        failed("config_builder_new", status);
    } else if ((status = telenorid_config_builder_set(builder, TELENORID_CONFIG_ISSUER, argv[2])) != TELENORID_OK) {
        failed("issuer", status);
    } else if ((status = telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_ID, argv[3])) != TELENORID_OK) {
        failed("client_id", status);
    } else if (argc == 6 && (status = telenorid_config_builder_set(builder, TELENORID_CONFIG_REFRESH_MARGIN_S, argv[5]))
               != TELENORID_OK) {
        failed("refresh_margin_s", status);
    } else if ((status = telenorid_config_builder_build(builder, &config)) != TELENORID_OK) {
        failed("config", status);
    } else if ((status = telenorid_client_new(config, &client)) != TELENORID_OK) {
        failed("client_new", status);
    } else if ((status = telenorid_auth_state_open_store(client, store, argv[4], &state)) != TELENORID_OK) {
        failed("open_store", status);
    } else if ((status = telenorid_auth_state_fresh_access_token(state, &token)) != TELENORID_OK) {
        failed("fresh_access_token", status);
    } else {
        printf("access token: %.8s\n", token); /* its first characters only: it is a secret */
        exit_code = 0;
    }
    telenorid_string_free(token);
    telenorid_auth_state_free(state);
    telenorid_client_free(client);
    telenorid_config_free(config);
    telenorid_config_builder_free(builder);
    telenorid_store_free(store);
    return exit_code;
}
