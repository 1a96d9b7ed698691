/* Accounts from C, against the real provider (django-oauth-toolkit, Tests/support/provider/oidc_provider.py,
 * started here, with two users): a registry in a directory store, the same user signing in twice (one
 * account), two users, select, remove (the grant revoked, the account gone), two threads adding at once
 * (nothing lost), a registry record that is not one, and the contract (NULLs, a handle of the wrong kind,
 * names, an unknown account, outputs untouched on error). Ends with "N passed, M failed". */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <telenorid.h>
#include "check.h"
#include "sign_in.h"

#define S(expected, call) check_report((call) == (expected), __FILE__, __LINE__, #call)

static struct {
    char issuer[256], public_id[128], alice[64], alice_password[64], bob[64], bob_password[64];
    pid_t pid;
} provider;

static int start_provider(void) {
    char *argv[] = {"python3", "Tests/support/provider/oidc_provider.py", NULL};
    char line[2048];
    if (!first_line(argv, line, sizeof line, &provider.pid)) return 0;
    return field(line, "\"issuer\": \"", provider.issuer, sizeof provider.issuer) &&
           field(line, "\"public\": {\"client_id\": \"", provider.public_id, sizeof provider.public_id) &&
           field_after(line, "\"user\"", "\"username\": \"", provider.alice, sizeof provider.alice) &&
           field_after(line, "\"user\"", "\"password\": \"", provider.alice_password, sizeof provider.alice_password) &&
           field_after(line, "\"second_user\"", "\"username\": \"", provider.bob, sizeof provider.bob) &&
           field_after(line, "\"second_user\"", "\"password\": \"", provider.bob_password, sizeof provider.bob_password);
}

static void stop_provider(void) {
    if (provider.pid > 0) {
        kill(provider.pid, SIGTERM);
        waitpid(provider.pid, NULL, 0);
    }
}

static telenorid_client *new_client(void) {
    return public_client(provider.issuer, provider.public_id, "http://127.0.0.1:53682/callback", "openid profile email");
}

static telenorid_auth_state *sign_in(telenorid_client *client, char *username, char *password) {
    char *browser[] = {"python3", "Tests/support/provider/browser.py", NULL, username, password, NULL};
    return sign_in_through(client, browser, 2);
}

/* The number of accounts in a list, and whether `text` occurs in it. */
static int count_of(const char *list, const char *text) {
    int n = 0;
    for (const char *p = list; p && (p = strstr(p, text)) != NULL; p += strlen(text)) n++;
    return n;
}

static void test_the_contract(telenorid_client *client, telenorid_store *store, const char *directory) {
    telenorid_accounts *accounts = (telenorid_accounts *)1;
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_accounts_open(NULL, store, "app", &accounts));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_accounts_open(client, NULL, "app", &accounts));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_accounts_open(client, store, NULL, &accounts));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_accounts_open(client, store, "app", NULL));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_accounts_open(client, (telenorid_store *)client, "app", &accounts));
    char long_name[117];
    memset(long_name, 'a', 116);
    long_name[116] = '\0';
    const char *bad_names[] = {"", "a/b", "../x", "sp ace", "app.update", long_name};
    for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
        S(TELENORID_E_INVALID_ARGUMENT, telenorid_accounts_open(client, store, bad_names[i], &accounts));
    }
    /* A registry record that is not one. */
    char path[512];
    snprintf(path, sizeof path, "%s/bad.accounts.json", directory);
    FILE *file = fopen(path, "w");
    if (CHECK(file != NULL)) {
        fputs("{\"version\":1,\"accounts\":[{\"id\":\"forged\",\"issuer\":\"x\",\"subject\":\"y\",\"last_used\":1}]}", file);
        fclose(file);
    }
    S(TELENORID_E_MALFORMED, telenorid_accounts_open(client, store, "bad", &accounts));
    CHECK(accounts == (telenorid_accounts *)1);

    S(TELENORID_OK, telenorid_accounts_open(client, store, "empty", &accounts));
    char *text = (char *)1, *list = NULL;
    telenorid_auth_state *state = (telenorid_auth_state *)1;
    S(TELENORID_OK, telenorid_accounts_list(accounts, &list));
    CHECK(list && strcmp(list, "[]") == 0);
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_accounts_list(NULL, &text));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_accounts_list(accounts, NULL));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_accounts_list((telenorid_accounts *)client, &text));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_accounts_add(accounts, NULL, &text));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_accounts_add(accounts, (telenorid_auth_state *)client, &text));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_accounts_select(accounts, NULL, &state));
    S(TELENORID_E_NOT_SIGNED_IN, telenorid_accounts_select(accounts, "AAAAAAAAAAAA", &state));
    S(TELENORID_E_NOT_SIGNED_IN, telenorid_accounts_remove(accounts, "../../etc"));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_accounts_remove(NULL, "AAAAAAAAAAAA"));
    CHECK(text == (char *)1 && state == (telenorid_auth_state *)1);
    telenorid_string_free(list);
    telenorid_accounts_free(accounts);
    telenorid_accounts_free(NULL);
}

struct adder {
    telenorid_accounts *accounts;
    telenorid_auth_state *state;
    pthread_barrier_t *start;
    telenorid_status status;
    char *id;
};

static void *add_one(void *argument) {
    struct adder *a = argument;
    pthread_barrier_wait(a->start);
    a->status = telenorid_accounts_add(a->accounts, a->state, &a->id);
    return NULL;
}

static void test_accounts(telenorid_client *client, telenorid_store *store) {
    telenorid_accounts *accounts = NULL, *other = NULL, *again = NULL;
    char *alice_id = NULL, *alice_again_id = NULL, *bob_id = NULL, *list = NULL;
    S(TELENORID_OK, telenorid_accounts_open(client, store, "app", &accounts));
    telenorid_auth_state *alice = sign_in(client, provider.alice, provider.alice_password);
    telenorid_auth_state *alice_again = sign_in(client, provider.alice, provider.alice_password);
    telenorid_auth_state *bob = sign_in(client, provider.bob, provider.bob_password);
    if (!CHECK(alice && alice_again && bob)) goto done;

    S(TELENORID_OK, telenorid_accounts_add(accounts, alice, &alice_id));
    CHECK(alice_id && strlen(alice_id) == 12);
    /* The same user again: the same account, replaced. */
    S(TELENORID_OK, telenorid_accounts_add(accounts, alice_again, &alice_again_id));
    CHECK(alice_id && alice_again_id && strcmp(alice_id, alice_again_id) == 0);
    S(TELENORID_OK, telenorid_accounts_add(accounts, bob, &bob_id));
    CHECK(bob_id && alice_id && strcmp(bob_id, alice_id) != 0);
    /* Another handle on the same registry sees both, bob (most recent) first. */
    S(TELENORID_OK, telenorid_accounts_open(client, store, "app", &again));
    S(TELENORID_OK, telenorid_accounts_list(again, &list));
    CHECK(count_of(list, "\"id\"") == 2);
    CHECK(list && strstr(list, "\"preferred_username\":\"bob\"") &&
          strstr(list, "\"preferred_username\":\"bob\"") < strstr(list, "\"preferred_username\":\"alice\""));
    CHECK(count_of(list, "\"email\":\"alice@example.com\"") == 1 && count_of(list, "\"last_used\":") == 2);
    telenorid_string_free(list);
    list = NULL;

    /* Select: alice's signed-in state from the store, and alice first. */
    telenorid_auth_state *selected = NULL;
    char *token = NULL;
    int32_t signed_in = 0;
    S(TELENORID_OK, telenorid_accounts_select(again, alice_id, &selected));
    S(TELENORID_OK, telenorid_auth_state_fresh_access_token(selected, &token));
    S(TELENORID_OK, telenorid_auth_state_refresh(selected));
    S(TELENORID_OK, telenorid_accounts_list(accounts, &list));
    CHECK(list && strstr(list, "\"preferred_username\":\"alice\"") < strstr(list, "\"preferred_username\":\"bob\""));
    telenorid_string_free(list);
    list = NULL;

    /* Remove: revoked at the provider, signed out in the store, gone from the registry. */
    S(TELENORID_OK, telenorid_accounts_remove(accounts, alice_id));
    S(TELENORID_OK, telenorid_auth_state_is_signed_in(alice_again, &signed_in));
    CHECK(signed_in == 1);  /* not yet: it learns of the sign-out at its next refresh */
    S(TELENORID_E_NOT_SIGNED_IN, telenorid_auth_state_refresh(alice_again));
    S(TELENORID_E_NOT_SIGNED_IN, telenorid_auth_state_refresh(selected));
    S(TELENORID_E_NOT_SIGNED_IN, telenorid_accounts_select(accounts, alice_id, &selected));
    S(TELENORID_E_NOT_SIGNED_IN, telenorid_accounts_remove(accounts, alice_id));
    S(TELENORID_OK, telenorid_accounts_list(again, &list));
    CHECK(count_of(list, "\"id\"") == 1 && list && strstr(list, bob_id));
    telenorid_string_free(list);
    list = NULL;
    telenorid_string_free(token);
    telenorid_auth_state_free(selected);

    /* Two threads adding to one registry through two handles at once: both accounts are kept. */
    telenorid_auth_state *alice_third = sign_in(client, provider.alice, provider.alice_password);
    telenorid_accounts_free(again);
    again = NULL;
    S(TELENORID_OK, telenorid_accounts_open(client, store, "other", &other));
    S(TELENORID_OK, telenorid_accounts_open(client, store, "other", &again));
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    struct adder adders[2] = {{other, alice_third, &start, -1, NULL}, {again, bob, &start, -1, NULL}};
    pthread_t threads[2];
    for (int i = 0; i < 2; i++) pthread_create(&threads[i], NULL, add_one, &adders[i]);
    for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&start);
    S(TELENORID_OK, adders[0].status);
    S(TELENORID_OK, adders[1].status);
    S(TELENORID_OK, telenorid_accounts_list(other, &list));
    CHECK(count_of(list, "\"id\"") == 2);
    for (int i = 0; i < 2; i++) telenorid_string_free(adders[i].id);
    telenorid_auth_state_free(alice_third);

done:
    telenorid_string_free(list);
    telenorid_string_free(alice_id);
    telenorid_string_free(alice_again_id);
    telenorid_string_free(bob_id);
    telenorid_auth_state_free(alice);
    telenorid_auth_state_free(alice_again);
    telenorid_auth_state_free(bob);
    telenorid_accounts_free(accounts);
    telenorid_accounts_free(again);
    telenorid_accounts_free(other);
}

int main(void) {
    char directory[] = "/tmp/telenorid-accounts-XXXXXX";
    if (!CHECK(mkdtemp(directory) != NULL) || !CHECK(start_provider())) {
        stop_provider();
        return finish_checks();
    }
    telenorid_client *client = new_client();
    telenorid_store *store = NULL;
    S(TELENORID_OK, telenorid_store_new_directory(directory, &store));
    test_the_contract(client, store, directory);
    test_accounts(client, store);
    telenorid_store_free(store);
    telenorid_client_free(client);
    stop_provider();
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", directory);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", directory);
    return finish_checks();
}
