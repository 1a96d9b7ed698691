/* The device authorization grant (RFC 8628) from C against the two real test providers, started here:
 * django-oauth-toolkit (Tests/support/provider/oidc_provider.py; its device endpoint is configured, as its
 * discovery document leaves it out, and it sends no ID token for this grant) and glewlwyd 2.7.5
 * (Tests/support/glewlwyd_provider.py serve; the endpoint discovered, an ID token validated). The wait runs
 * on a thread while the user approves (or, at django-oauth-toolkit, denies) through the providers' command
 * lines in a child process. The contract of each function (NULLs, kinds, outputs untouched, cancel) is in
 * test_api_grants.c. Ends with "N passed, M failed"; leak-free under valgrind. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <telenorid.h>
#include "child_process.h"
#include "check.h"
#include "status_checks.h"

static void stop(pid_t pid) {
    if (pid > 0) {
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
    }
}

static telenorid_config *config(const char *issuer, const char *client_id, const char *secret,
                                const char *device_endpoint, const char *scope) {
    telenorid_config_builder *b = NULL;
    telenorid_config *out = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, issuer));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, client_id));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_SCOPE, scope));
    if (secret) {
        CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_SECRET, secret));
        CHECK_STATUS(TELENORID_OK,
                     telenorid_config_builder_set(b, TELENORID_CONFIG_TOKEN_ENDPOINT_AUTH_METHOD, "client_secret_basic"));
    }
    if (device_endpoint) {
        CHECK_STATUS(TELENORID_OK,
                     telenorid_config_builder_set(b, TELENORID_CONFIG_DEVICE_AUTHORIZATION_ENDPOINT, device_endpoint));
    }
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &out));
    telenorid_config_builder_free(b);
    return out;
}

struct wait_call {
    telenorid_device_authorization *device;
    telenorid_auth_state *state;
    telenorid_status status;
    char oauth_error[64];
};

static void *wait_for_approval(void *argument) {
    struct wait_call *call = argument;
    call->status = telenorid_device_authorization_wait(call->device, &call->state);
    telenorid_error *error = telenorid_error_last(); /* this thread's */
    const char *code = error && call->status != TELENORID_OK ? telenorid_error_oauth_error(error) : NULL;
    snprintf(call->oauth_error, sizeof call->oauth_error, "%s", code ? code : "");
    telenorid_error_free(error);
    return NULL;
}

static char *device_field(const telenorid_device_authorization *device, telenorid_device_field which) {
    char *value = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_device_authorization_get(device, which, &value));
    return value;
}

/* Starts a grant on `client`, waits on a thread while `approve` (its argv ending in NULLs the user code and
 * verification URI fill) plays the user, and returns the wait's outcome in *call. */
static void sign_in(telenorid_client *client, char *approve[], int code_at, int uri_at, struct wait_call *call) {
    memset(call, 0, sizeof *call);
    if (!CHECK_STATUS(TELENORID_OK, telenorid_client_start_device_authorization(client, NULL, &call->device))) return;
    char *code = device_field(call->device, TELENORID_DEVICE_USER_CODE);
    char *uri = device_field(call->device, TELENORID_DEVICE_VERIFICATION_URI);
    approve[code_at] = code;
    if (uri_at >= 0) approve[uri_at] = uri;
    pthread_t waiter;
    if (CHECK(pthread_create(&waiter, NULL, wait_for_approval, call) == 0)) {
        char shown[1024];
        CHECK(first_line(approve, shown, sizeof shown, NULL));
        pthread_join(waiter, NULL);
    }
    telenorid_string_free(code);
    telenorid_string_free(uri);
    telenorid_device_authorization_free(call->device);
}

static void test_django(void) {
    char *argv[] = {"python3", "Tests/support/provider/oidc_provider.py", NULL};
    char line[2048], issuer[256], endpoint[256], public_id[64], confidential_id[64], secret[128], user[64], password[64];
    pid_t pid = 0;
    if (!CHECK(first_line(argv, line, sizeof line, &pid))) return;
    if (CHECK(field_after(line, "", "\"issuer\": \"", issuer, sizeof issuer) &&
              field_after(line, "", "\"device_authorization_endpoint\": \"", endpoint, sizeof endpoint) &&
              field_after(line, "\"device_public\"", "\"client_id\": \"", public_id, sizeof public_id) &&
              field_after(line, "\"device_confidential\"", "\"client_id\": \"", confidential_id, sizeof confidential_id) &&
              field_after(line, "\"device_confidential\"", "\"client_secret\": \"", secret, sizeof secret) &&
              field_after(line, "\"user\"", "\"username\": \"", user, sizeof user) &&
              field_after(line, "\"user\"", "\"password\": \"", password, sizeof password))) {
        struct wait_call call;
        char *approve[] = {"python3", "Tests/support/provider/browser.py", "--device", NULL, NULL, user, password,
                           NULL, NULL};
        telenorid_config *cfg = config(issuer, public_id, NULL, endpoint, "openid profile");
        telenorid_client *client = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_client_new(cfg, &client));
        sign_in(client, approve, 4, 3, &call);
        if (CHECK_STATUS(TELENORID_OK, call.status)) {
            char mark[1], *scope = NULL, *claims = mark; /* written NULL when absent */
            CHECK_STATUS(TELENORID_OK, telenorid_auth_state_get(call.state, TELENORID_TOKEN_SCOPE, &scope));
            CHECK_STR("openid profile", scope);
            /* No ID token from django-oauth-toolkit's device grant, though openid was asked for. */
            CHECK_STATUS(TELENORID_OK, telenorid_auth_state_get(call.state, TELENORID_TOKEN_ID_TOKEN_CLAIMS, &claims));
            CHECK(claims == NULL);
            CHECK_STATUS(TELENORID_OK, telenorid_auth_state_refresh(call.state));
            telenorid_string_free(scope);
            telenorid_auth_state_free(call.state);
        }
        telenorid_client_free(client);
        telenorid_config_free(cfg);

        /* The confidential client (HTTP Basic and client_id in the body); the user says no. */
        cfg = config(issuer, confidential_id, secret, endpoint, "openid");
        client = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_client_new(cfg, &client));
        approve[7] = "--deny";
        sign_in(client, approve, 4, 3, &call);
        CHECK_STATUS(TELENORID_E_AUTHORIZATION_ERROR, call.status);
        CHECK_STR("access_denied", call.oauth_error);
        telenorid_client_free(client);
        telenorid_config_free(cfg);
    }
    stop(pid);
}

static void test_glewlwyd(void) {
    if (access("/usr/bin/glewlwyd", X_OK) != 0) {
        printf("glewlwyd is not installed: its part skipped\n");
        return;
    }
    char *argv[] = {"python3", "Tests/support/glewlwyd_provider.py", "serve", NULL};
    char line[8192], issuer[256], client_id[64];
    pid_t pid = 0;
    if (!CHECK(first_line(argv, line, sizeof line, &pid))) return;
    if (CHECK(field_after(line, "", "\"issuer\": \"", issuer, sizeof issuer) &&
              field_after(line, "", "\"device_client_id\": \"", client_id, sizeof client_id))) {
        struct wait_call call;
        char *approve[] = {"python3", "Tests/support/glewlwyd_provider.py", "approve-device", issuer, NULL, NULL};
        telenorid_config *cfg = config(issuer, client_id, NULL, NULL, "openid"); /* the endpoint discovered */
        telenorid_client *client = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_client_new(cfg, &client));
        sign_in(client, approve, 4, -1, &call);
        if (CHECK_STATUS(TELENORID_OK, call.status)) {
            char *claims = NULL;
            CHECK_STATUS(TELENORID_OK, telenorid_auth_state_get(call.state, TELENORID_TOKEN_ID_TOKEN_CLAIMS, &claims));
            CHECK(claims && strstr(claims, issuer)); /* validated: signature, iss, aud, exp */
            telenorid_string_free(claims);
            telenorid_auth_state_free(call.state);
        }
        telenorid_client_free(client);
        telenorid_config_free(cfg);
    }
    stop(pid);
}

int main(void) {
    test_django();
    test_glewlwyd();
    return finish_checks();
}
