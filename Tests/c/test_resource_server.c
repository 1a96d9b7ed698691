/* Resource servers and machines from C: token introspection (RFC 7662), JWT access tokens (RFC 9068) and
 * the client credentials grant (RFC 6749 §4.4). First the contract of each function (NULL in every pointer,
 * a handle of the wrong kind, outputs untouched on failure, unknown options and fields), then against the
 * real test providers started here: django-oauth-toolkit (Tests/support/provider/oidc_provider.py: opaque
 * tokens from its client credentials client, introspected at /o/introspect/, configured here (its RFC 8414
 * metadata names it too, its OpenID discovery document does not)) and glewlwyd 2.7.5 (Tests/support/glewlwyd_provider.py serve: JWT access
 * tokens of typ at+jwt, verified locally, and its discovered introspection endpoint). Ends with
 * "N passed, M failed"; leak-free under valgrind. */
#define _POSIX_C_SOURCE 200809L
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

static telenorid_config *config(const char *issuer, const char *client_id, const char *secret, const char *method,
                                const char *introspection_endpoint) {
    telenorid_config_builder *b = NULL;
    telenorid_config *out = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, issuer));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, client_id));
    if (secret) {
        CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_SECRET, secret));
        CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_TOKEN_ENDPOINT_AUTH_METHOD, method));
    }
    if (introspection_endpoint) {
        CHECK_STATUS(TELENORID_OK,
                     telenorid_config_builder_set(b, TELENORID_CONFIG_INTROSPECTION_ENDPOINT, introspection_endpoint));
    }
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &out));
    telenorid_config_builder_free(b);
    return out;
}

/* The contract, with no network: nothing here reaches a provider. */
static void test_contract(void) {
    telenorid_config *cfg = config("https://id.example.com", "rs", "secret", "client_secret_basic", NULL);
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(cfg, &client));
    telenorid_resource_server *rs = SENTINEL;
    telenorid_token_info *info = SENTINEL;
    telenorid_client_credentials *machine = SENTINEL;
    char *text = SENTINEL;
    int64_t when = 7;
    int32_t active = 7;

    CHECK_NULL_ARG("client", telenorid_resource_server_new(NULL, "https://rs.example/", &rs));
    CHECK_NULL_ARG("audience", telenorid_resource_server_new(client, NULL, &rs));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_resource_server_new(client, "https://rs.example/", NULL));
    CHECK_WRONG_KIND(telenorid_resource_server_new(AS(telenorid_client, cfg), "https://rs.example/", &rs));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_resource_server_new(client, "", &rs));
    CHECK(rs == SENTINEL);
    rs = NULL;
    if (!CHECK_STATUS(TELENORID_OK, telenorid_resource_server_new(client, "https://rs.example/", &rs))) return;

    CHECK_NULL_ARG("server", telenorid_resource_server_set(NULL, TELENORID_RESOURCE_SERVER_ACCEPT_TYP_JWT, "true"));
    CHECK_WRONG_KIND(telenorid_resource_server_set(AS(telenorid_resource_server, client),
                                                   TELENORID_RESOURCE_SERVER_ACCEPT_TYP_JWT, "true"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_resource_server_set(rs, 99, "1"));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "unknown resource server option");
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_resource_server_set(rs, TELENORID_RESOURCE_SERVER_INTROSPECTION_CACHE_MAX_AGE_S, "-5"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_resource_server_set(rs, TELENORID_RESOURCE_SERVER_ACCESS_TOKEN_SIGNING_ALGS, "HS256"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_resource_server_set(rs, TELENORID_RESOURCE_SERVER_ACCEPT_TYP_JWT, "maybe"));
    CHECK_STATUS(TELENORID_OK,
                 telenorid_resource_server_set(rs, TELENORID_RESOURCE_SERVER_INTROSPECTION_CACHE_MAX_AGE_S, "30"));
    CHECK_STATUS(TELENORID_OK,
                 telenorid_resource_server_set(rs, TELENORID_RESOURCE_SERVER_INTROSPECTION_CACHE_MAX_AGE_S, NULL));
    CHECK_STATUS(TELENORID_OK,
                 telenorid_resource_server_set(rs, TELENORID_RESOURCE_SERVER_ACCESS_TOKEN_SIGNING_ALGS, "ES256 PS256"));

    CHECK_NULL_ARG("server", telenorid_resource_server_introspect(NULL, "t", NULL, &info));
    CHECK_NULL_ARG("token", telenorid_resource_server_introspect(rs, NULL, NULL, &info));
    CHECK_WRONG_KIND(telenorid_resource_server_introspect(AS(telenorid_resource_server, cfg), "t", NULL, &info));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_resource_server_introspect(rs, "t", NULL, NULL));
    CHECK_NULL_ARG("server", telenorid_resource_server_verify_access_token(NULL, "t", &info));
    CHECK_NULL_ARG("token", telenorid_resource_server_verify_access_token(rs, NULL, &info));
    CHECK_WRONG_KIND(telenorid_resource_server_verify_access_token(AS(telenorid_resource_server, client), "t", &info));
    /* Not a JWT: refused before any request, saying so, and the output untouched. */
    CHECK_STATUS(TELENORID_E_TOKEN_INVALID, telenorid_resource_server_verify_access_token(rs, "2YotnFZFEjr1zCsicMWpAA", &info));
    CHECK_LAST_ERROR(TELENORID_E_TOKEN_INVALID, "not a JWT");
    CHECK(info == SENTINEL);
    /* The token is never in a message. */
    CHECK_STATUS(TELENORID_E_TOKEN_INVALID,
                 telenorid_resource_server_verify_access_token(rs, "eyJzZWNyZXQiOnRydWV9.c2VjcmV0LXBheWxvYWQ.sig", &info));
    telenorid_error *error = telenorid_error_last();
    CHECK(error && !strstr(telenorid_error_message(error), "c2VjcmV0") && !strstr(telenorid_error_message(error), "secret"));
    telenorid_error_free(error);

    CHECK_NULL_ARG("info", telenorid_token_info_active(NULL, &active));
    CHECK_WRONG_KIND(telenorid_token_info_active(AS(telenorid_token_info, rs), &active));
    CHECK_NULL_ARG("info", telenorid_token_info_get(NULL, TELENORID_INFO_SUB, &text));
    CHECK_WRONG_KIND(telenorid_token_info_get(AS(telenorid_token_info, rs), TELENORID_INFO_SUB, &text));
    CHECK_NULL_ARG("info", telenorid_token_info_time(NULL, TELENORID_INFO_EXP, &when));
    CHECK_NULL_ARG("info", telenorid_token_info_member(NULL, "sub", &text));
    CHECK_NULL_ARG("info", telenorid_token_info_json(NULL, &text));
    CHECK(text == SENTINEL && when == 7 && active == 7);
    telenorid_token_info_free(NULL);
    telenorid_resource_server_free(NULL);

    CHECK_NULL_ARG("client", telenorid_client_credentials_new(NULL, NULL, &machine));
    CHECK_WRONG_KIND(telenorid_client_credentials_new(AS(telenorid_client, rs), NULL, &machine));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_credentials_new(client, "", &machine));
    CHECK(machine == SENTINEL);
    machine = NULL;
    if (CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_new(client, "read", &machine))) {
        CHECK_NULL_ARG("credentials", telenorid_client_credentials_access_token(NULL, &text));
        CHECK_WRONG_KIND(telenorid_client_credentials_access_token(AS(telenorid_client_credentials, rs), &text));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_credentials_access_token(machine, NULL));
        CHECK_NULL_ARG("credentials", telenorid_client_credentials_expires_at(NULL, &when));
        CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_expires_at(machine, &when));
        CHECK(when == 0);
        CHECK_NULL_ARG("credentials", telenorid_client_credentials_rejected(NULL, NULL));
        CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_rejected(machine, NULL));
        telenorid_client_credentials_free(machine);
    }
    telenorid_client_credentials_free(NULL);
    telenorid_resource_server_free(rs);
    telenorid_client_free(client);
    telenorid_config_free(cfg);

    /* A public client can't use the grant. */
    cfg = config("https://id.example.com", "native-app", NULL, NULL, NULL);
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(cfg, &client));
    machine = SENTINEL;
    CHECK_STATUS(TELENORID_E_CONFIGURATION, telenorid_client_credentials_new(client, NULL, &machine));
    CHECK(machine == SENTINEL);
    telenorid_client_free(client);
    telenorid_config_free(cfg);
}

static char *info_field(const telenorid_token_info *info, telenorid_token_info_field which) {
    char *value = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_token_info_get(info, which, &value));
    return value;
}

static void test_django(void) {
    char *argv[] = {"python3", "Tests/support/provider/oidc_provider.py", NULL};
    char line[2048], issuer[256], introspection[300], machine_id[64], machine_secret[128], backend_id[64],
        backend_secret[128];
    pid_t pid = 0;
    if (!CHECK(first_line(argv, line, sizeof line, &pid))) return;
    if (CHECK(field_after(line, "", "\"issuer\": \"", issuer, sizeof issuer) &&
              field_after(line, "\"machine\"", "\"client_id\": \"", machine_id, sizeof machine_id) &&
              field_after(line, "\"machine\"", "\"client_secret\": \"", machine_secret, sizeof machine_secret) &&
              field_after(line, "\"confidential\"", "\"client_id\": \"", backend_id, sizeof backend_id) &&
              field_after(line, "\"confidential\"", "\"client_secret\": \"", backend_secret, sizeof backend_secret))) {
        snprintf(introspection, sizeof introspection, "%s/introspect/", issuer);
        telenorid_config *machine_cfg = config(issuer, machine_id, machine_secret, "client_secret_basic", NULL);
        telenorid_client *machine_client = NULL;
        telenorid_client_credentials *machine = NULL;
        char *token = NULL, *again = NULL;
        int64_t expires_at = 0;
        CHECK_STATUS(TELENORID_OK, telenorid_client_new(machine_cfg, &machine_client));
        CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_new(machine_client, NULL, &machine));
        if (CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_access_token(machine, &token))) {
            CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_access_token(machine, &again));
            CHECK_STR(token, again); /* kept */
            CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_expires_at(machine, &expires_at));
            CHECK(expires_at > 0);

            telenorid_config *rs_cfg = config(issuer, backend_id, backend_secret, "client_secret_post", introspection);
            telenorid_client *rs_client = NULL;
            telenorid_resource_server *rs = NULL;
            telenorid_token_info *info = NULL;
            CHECK_STATUS(TELENORID_OK, telenorid_client_new(rs_cfg, &rs_client));
            CHECK_STATUS(TELENORID_OK, telenorid_resource_server_new(rs_client, "api", &rs));
            if (CHECK_STATUS(TELENORID_OK, telenorid_resource_server_introspect(rs, token, "access_token", &info))) {
                int32_t active = 0;
                int64_t exp = 0;
                char *client_id = info_field(info, TELENORID_INFO_CLIENT_ID);
                char *sub = info_field(info, TELENORID_INFO_SUB), *member = NULL, *json = NULL;
                CHECK_STATUS(TELENORID_OK, telenorid_token_info_active(info, &active));
                CHECK(active == 1);
                CHECK_STR(machine_id, client_id);
                CHECK(sub == NULL); /* django-oauth-toolkit names no subject for a machine's token */
                CHECK_STATUS(TELENORID_OK, telenorid_token_info_time(info, TELENORID_INFO_EXP, &exp));
                CHECK((exp > expires_at ? exp - expires_at : expires_at - exp) <= 2);
                CHECK_STATUS(TELENORID_OK, telenorid_token_info_member(info, "client_id", &member));
                if (CHECK(member != NULL)) CHECK(strstr(member, machine_id) != NULL && member[0] == '"');
                CHECK_STATUS(TELENORID_OK, telenorid_token_info_json(info, &json));
                /* A time is no string and a string no time; the outputs stay untouched. */
                char *untouched = SENTINEL;
                int64_t unchanged = 7;
                CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_token_info_get(info, TELENORID_INFO_EXP, &untouched));
                CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_token_info_get(info, 0, &untouched));
                CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_token_info_time(info, TELENORID_INFO_SUB, &unchanged));
                CHECK(untouched == SENTINEL && unchanged == 7);
                CHECK_CONTAINS(json, "\"active\":true");
                telenorid_string_free(client_id);
                telenorid_string_free(member);
                telenorid_string_free(json);
                telenorid_token_info_free(info);
            }
            info = NULL;
            if (CHECK_STATUS(TELENORID_OK, telenorid_resource_server_introspect(rs, "no-such-token", NULL, &info))) {
                int32_t active = 7;
                CHECK_STATUS(TELENORID_OK, telenorid_token_info_active(info, &active));
                CHECK(active == 0); /* an answer, not an error */
                telenorid_token_info_free(info);
            }
            telenorid_resource_server_free(rs);
            telenorid_client_free(rs_client);
            telenorid_config_free(rs_cfg);
        }
        telenorid_string_free(token);
        telenorid_string_free(again);
        telenorid_client_credentials_free(machine);
        telenorid_client_free(machine_client);
        telenorid_config_free(machine_cfg);
    }
    stop(pid);
}

static void test_glewlwyd(void) {
    char *argv[] = {"python3", "Tests/support/glewlwyd_provider.py", "serve", NULL};
    char line[8192], issuer[256], machine_id[64], machine_secret[128], scope[64];
    pid_t pid = 0;
    if (access("/usr/bin/glewlwyd", X_OK) != 0) {
        fprintf(stderr, "test_resource_server: glewlwyd is not installed; skipped\n");
        return;
    }
    if (!CHECK(first_line(argv, line, sizeof line, &pid))) return;
    if (CHECK(field(line, "\"issuer\": \"", issuer, sizeof issuer) &&
              field(line, "\"machine_client_id\": \"", machine_id, sizeof machine_id) &&
              field(line, "\"machine_client_secret\": \"", machine_secret, sizeof machine_secret) &&
              field(line, "\"machine_scope\": \"", scope, sizeof scope))) {
        telenorid_config *cfg = config(issuer, machine_id, machine_secret, "client_secret_basic", NULL);
        telenorid_client *client = NULL;
        telenorid_client_credentials *machine = NULL;
        telenorid_resource_server *rs = NULL, *elsewhere = NULL;
        telenorid_token_info *info = NULL;
        char *token = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_client_new(cfg, &client));
        CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_new(client, scope, &machine));
        /* glewlwyd's aud is the scope list when no resource was asked for. */
        CHECK_STATUS(TELENORID_OK, telenorid_resource_server_new(client, scope, &rs));
        CHECK_STATUS(TELENORID_OK, telenorid_resource_server_new(client, "https://elsewhere.example/", &elsewhere));
        if (CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_access_token(machine, &token))) {
            if (CHECK_STATUS(TELENORID_OK, telenorid_resource_server_verify_access_token(rs, token, &info))) {
                char *client_id = info_field(info, TELENORID_INFO_CLIENT_ID);
                char *aud = info_field(info, TELENORID_INFO_AUD), *iss = info_field(info, TELENORID_INFO_ISS);
                int64_t iat = 0;
                CHECK_STR(machine_id, client_id);
                CHECK_STR(scope, aud);
                CHECK_STR(issuer, iss);
                CHECK_STATUS(TELENORID_OK, telenorid_token_info_time(info, TELENORID_INFO_IAT, &iat));
                CHECK(iat > 0);
                telenorid_string_free(client_id);
                telenorid_string_free(aud);
                telenorid_string_free(iss);
                telenorid_token_info_free(info);
            }
            info = SENTINEL;
            CHECK_STATUS(TELENORID_E_TOKEN_INVALID, telenorid_resource_server_verify_access_token(elsewhere, token, &info));
            CHECK_LAST_ERROR(TELENORID_E_TOKEN_INVALID, "is not meant for");
            CHECK(info == SENTINEL);
            info = NULL;
            if (CHECK_STATUS(TELENORID_OK, telenorid_resource_server_introspect(rs, token, NULL, &info))) {
                int32_t active = 0;
                char *type = info_field(info, TELENORID_INFO_TOKEN_TYPE);
                CHECK_STATUS(TELENORID_OK, telenorid_token_info_active(info, &active));
                CHECK(active == 1);
                CHECK_STR("bearer", type);
                telenorid_string_free(type);
                telenorid_token_info_free(info);
            }
        }
        telenorid_string_free(token);
        telenorid_resource_server_free(elsewhere);
        telenorid_resource_server_free(rs);
        telenorid_client_credentials_free(machine);
        telenorid_client_free(client);
        telenorid_config_free(cfg);
    }
    stop(pid);
}

int main(void) {
    test_contract();
    test_django();
    test_glewlwyd();
    return finish_checks();
}
