/* Resource servers and machines from C: token introspection (RFC 7662), JWT access tokens (RFC 9068), the
 * client credentials grant (RFC 6749 §4.4) with resources (RFC 8707) and a store shared by handles, and the JWT
 * bearer grant (RFC 7523 §2.1, at Authlib's server-side grant: Tests/support/jwt_bearer_provider.py). First the contract of each function (NULL in every pointer,
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
        /* Resource indicators (RFC 8707 §2). */
        CHECK_WRONG_KIND(telenorid_client_credentials_add_resource(AS(telenorid_client_credentials, rs),
                                                                   "https://api.example/"));
        CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_add_resource(machine, "https://api.example/"));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_credentials_add_resource(machine, "https://api.example/"));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_credentials_add_resource(machine, "https://a.example/#f"));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_credentials_add_resource(machine, "not a uri"));
        /* Request headers: the URL is checked before any token request; outputs untouched on failure. */
        char *authorization = SENTINEL, *dpop = SENTINEL;
        CHECK_WRONG_KIND(telenorid_client_credentials_request_headers(AS(telenorid_client_credentials, rs), "GET",
                                                                      "https://api.example/", NULL, &authorization, &dpop));
        CHECK_STATUS(TELENORID_E_INSECURE, telenorid_client_credentials_request_headers(
                                                 machine, "GET", "http://api.example/", NULL, &authorization, &dpop));
        CHECK(authorization == SENTINEL && dpop == SENTINEL);
        /* A resource's answer: the status is checked, the output written only on success. */
        int32_t retry = 7;
        CHECK_WRONG_KIND(telenorid_client_credentials_resource_answered(AS(telenorid_client_credentials, rs),
                                                                        "https://api.example/", 200, NULL, NULL,
                                                                        "Bearer t", &retry));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_credentials_resource_answered(
                                                       machine, "https://api.example/", 42, NULL, NULL, "Bearer t", &retry));
        CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "http_status 42");
        CHECK(retry == 7);
        /* No token held: a 401 refusing one is still a retry (its headers will carry a token). */
        CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_resource_answered(
                                       machine, "https://api.example/", 401, "Bearer error=\"invalid_token\"", NULL,
                                       "Bearer t", &retry));
        CHECK(retry == 1);
        /* A store: the key's rules. */
        telenorid_store *store = NULL;
        if (CHECK_STATUS(TELENORID_OK, telenorid_store_new_directory("/tmp", &store))) {
            CHECK_WRONG_KIND(telenorid_client_credentials_bind_store(machine, AS(telenorid_store, rs), "machine"));
            CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_credentials_bind_store(machine, store, "a/b"));
            telenorid_store_free(store);
        }
        telenorid_client_credentials_free(machine);
    }
    /* The JWT bearer grant (RFC 7523 §2.1): exactly one of subject and assertion; a subject needs the client's
     * key; a given assertion is a JWT, and is not shared through a store. */
    machine = SENTINEL;
    CHECK_NULL_ARG("client", telenorid_client_credentials_new_jwt_bearer(NULL, NULL, "alice", NULL, &machine));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_credentials_new_jwt_bearer(client, NULL, NULL, NULL, &machine));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_client_credentials_new_jwt_bearer(client, NULL, "alice", "a.b.c", &machine));
    CHECK_STATUS(TELENORID_E_CONFIGURATION, telenorid_client_credentials_new_jwt_bearer(client, NULL, "alice", NULL, &machine));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_credentials_new_jwt_bearer(client, NULL, NULL, "a b", &machine));
    CHECK(machine == SENTINEL);
    machine = NULL;
    if (CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_new_jwt_bearer(client, "read", NULL, "a.b.c", &machine))) {
        telenorid_store *store = NULL;
        if (CHECK_STATUS(TELENORID_OK, telenorid_store_new_directory("/tmp", &store))) {
            CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_credentials_bind_store(machine, store, "machine"));
            telenorid_store_free(store);
        }
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

/* Two handles bound to one record of a directory store share one token request: the second takes up the
 * first's token; a handle of another scope asks for its own. */
static void test_django_store(telenorid_client *client) {
    char directory[] = "/tmp/telenorid-machine-XXXXXX", path[128];
    telenorid_store *store = NULL;
    telenorid_client_credentials *first = NULL, *second = NULL, *other = NULL;
    char *one = NULL, *two = NULL, *three = NULL;
    if (!CHECK(mkdtemp(directory) != NULL)) return;
    CHECK_STATUS(TELENORID_OK, telenorid_store_new_directory(directory, &store));
    CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_new(client, "profile", &first));
    CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_new(client, "profile", &second));
    CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_new(client, NULL, &other));
    CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_bind_store(first, store, "machine"));
    CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_bind_store(second, store, "machine"));
    CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_bind_store(other, store, "machine"));
    telenorid_store_free(store); /* the handles keep it */
    if (CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_access_token(first, &one)) &&
        CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_access_token(second, &two)) &&
        CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_access_token(other, &three))) {
        CHECK_STR(one, two);
        CHECK(strcmp(one, three) != 0);
    }
    telenorid_string_free(one);
    telenorid_string_free(two);
    telenorid_string_free(three);
    telenorid_client_credentials_free(first);
    telenorid_client_credentials_free(second);
    telenorid_client_credentials_free(other);
    const char *files[] = {"machine.json", "machine.json.lock", "machine.json.update.lock"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", directory, files[i]);
        unlink(path);
    }
    CHECK(rmdir(directory) == 0);
}

/* JSON's "\n" in a PEM copied out of a helper's line, made a newline again, in place. */
static void unescape_newlines(char *text) {
    char *to = text;
    for (const char *from = text; *from; from++) {
        if (from[0] == '\\' && from[1] == 'n') {
            *to++ = '\n';
            from++;
        } else {
            *to++ = *from;
        }
    }
    *to = '\0';
}

/* The JWT bearer grant (RFC 7523 §2.1) at Authlib's server-side grant (Tests/support/jwt_bearer_provider.py),
 * with assertions the library signs with the client's key; the token introspected there names the subject. */
static void test_jwt_bearer(void) {
    char *argv[] = {"python3", "Tests/support/jwt_bearer_provider.py", NULL};
    char line[4096], issuer[256], token_endpoint[300], introspection[300], client_id[64], secret[128], pem[1024];
    pid_t pid = 0;
    if (!CHECK(first_line(argv, line, sizeof line, &pid))) return;
    if (CHECK(field(line, "\"issuer\": \"", issuer, sizeof issuer) &&
              field(line, "\"token_endpoint\": \"", token_endpoint, sizeof token_endpoint) &&
              field(line, "\"introspection_endpoint\": \"", introspection, sizeof introspection) &&
              field_after(line, "\"client\"", "\"client_id\": \"", client_id, sizeof client_id) &&
              field_after(line, "\"client\"", "\"client_secret\": \"", secret, sizeof secret) &&
              field_after(line, "\"client\"", "\"private_key_pem\": \"", pem, sizeof pem))) {
        unescape_newlines(pem);
        telenorid_config_builder *b = NULL;
        telenorid_config *cfg = NULL;
        telenorid_client *client = NULL;
        telenorid_client_credentials *machine = NULL;
        char *token = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
        CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, issuer));
        CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_TOKEN_ENDPOINT, token_endpoint));
        CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_INTROSPECTION_ENDPOINT, introspection));
        CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, client_id));
        CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_SECRET, secret));
        /* The key signs the grant's assertions; the client authenticates with its secret (the harness's
         * introspection endpoint takes no private_key_jwt). */
        CHECK_STATUS(TELENORID_OK,
                     telenorid_config_builder_set(b, TELENORID_CONFIG_TOKEN_ENDPOINT_AUTH_METHOD, "client_secret_basic"));
        CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_PRIVATE_KEY, pem));
        CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &cfg));
        telenorid_config_builder_free(b);
        CHECK_STATUS(TELENORID_OK, telenorid_client_new(cfg, &client));
        CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_new_jwt_bearer(client, "read", "alice", NULL, &machine));
        if (CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_access_token(machine, &token))) {
            telenorid_resource_server *rs = NULL;
            telenorid_token_info *info = NULL;
            CHECK_STATUS(TELENORID_OK, telenorid_resource_server_new(client, client_id, &rs));
            if (CHECK_STATUS(TELENORID_OK, telenorid_resource_server_introspect(rs, token, NULL, &info))) {
                char *sub = info_field(info, TELENORID_INFO_SUB), *scope = info_field(info, TELENORID_INFO_SCOPE);
                CHECK_STR("alice", sub);
                CHECK_STR("read", scope);
                telenorid_string_free(sub);
                telenorid_string_free(scope);
                telenorid_token_info_free(info);
            }
            telenorid_resource_server_free(rs);
        }
        telenorid_string_free(token);
        telenorid_client_credentials_free(machine);
        /* A subject the server does not know: invalid_grant (RFC 7523 §3.1). */
        machine = NULL;
        token = SENTINEL;
        CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_new_jwt_bearer(client, NULL, "mallory", NULL, &machine));
        if (CHECK_STATUS(TELENORID_E_AUTHORIZATION_ERROR, telenorid_client_credentials_access_token(machine, &token))) {
            CHECK_LAST_ERROR(TELENORID_E_AUTHORIZATION_ERROR, "invalid_grant");
        }
        CHECK(token == SENTINEL);
        telenorid_client_credentials_free(machine);
        telenorid_client_free(client);
        telenorid_config_free(cfg);
    }
    stop(pid);
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
        /* A bearer token's headers: "Bearer <token>" and no proof. */
        char *authorization = NULL, *dpop = SENTINEL;
        if (CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_request_headers(
                                           machine, "GET", "https://api.example/items", NULL, &authorization, &dpop))) {
            CHECK(dpop == NULL && token != NULL);
            if (token && authorization) CHECK(strncmp(authorization, "Bearer ", 7) == 0 && strcmp(authorization + 7, token) == 0);
            telenorid_string_free(authorization);
        }
        telenorid_string_free(token);
        telenorid_string_free(again);
        telenorid_client_credentials_free(machine);
        test_django_store(machine_client);
        telenorid_client_free(machine_client);
        telenorid_config_free(machine_cfg);
    }
    stop(pid);
}

/* The answer of a resource server checking one request with `rs` (the token, then its proof): the status, and for
 * a 401 the WWW-Authenticate challenge it sends, with the error the library's refusal names (RFC 9449 §7.1,
 * RFC 6750 §3.1). A server that asks for nonces sends its DPoP-Nonce (`*nonce`, freed by the caller). */
static int32_t resource_answer(telenorid_resource_server *rs, int asks_nonces, const char *authorization,
                               const char *dpop, const char *api, char *challenge, size_t size, char **nonce) {
    telenorid_token_info *info = NULL;
    telenorid_status status = telenorid_resource_server_verify_access_token(rs, authorization + 5, &info);
    if (status == TELENORID_OK) {
        status = telenorid_resource_server_verify_dpop(rs, dpop, "GET", api, authorization + 5, NULL, info);
        telenorid_token_info_free(info);
    }
    telenorid_error *error = status == TELENORID_OK ? NULL : telenorid_error_last();
    const char *code = error != NULL ? telenorid_error_oauth_error(error) : NULL;
    snprintf(challenge, size, "DPoP error=\"%s\"", code != NULL ? code : "invalid_token");
    telenorid_error_free(error);
    *nonce = NULL;
    if (asks_nonces) {
        CHECK_STATUS(TELENORID_OK, telenorid_resource_server_dpop_nonce(rs, nonce));
    }
    return status == TELENORID_OK ? 200 : 401;
}

/* One request of the machine's own to `api` at `rs`: its headers (the caller frees *authorization), the answer,
 * and whether the library says to send it once more (the answer's status in *status). */
static int32_t request(telenorid_client_credentials *machine, telenorid_resource_server *rs, int asks_nonces,
                       const char *api, char **authorization, int32_t *status) {
    char challenge[128], *nonce = NULL, *dpop = NULL;
    int32_t retry = 7;
    *authorization = NULL;
    *status = 0;
    if (!CHECK_STATUS(TELENORID_OK,
                      telenorid_client_credentials_request_headers(machine, "GET", api, NULL, authorization, &dpop))) {
        return retry;
    }
    *status = resource_answer(rs, asks_nonces, *authorization, dpop, api, challenge, sizeof challenge, &nonce);
    CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_resource_answered(
                                   machine, api, *status, *status == 401 ? challenge : NULL, nonce, *authorization,
                                   &retry));
    telenorid_string_free(nonce);
    telenorid_string_free(dpop);
    return retry;
}

/* A machine's resource calls read real resource servers' answers: one asking for its nonce (RFC 9449 §9), then
 * one the token is not meant for (RFC 9068 §4: invalid_token), whose refusal brings a new token. */
static void test_glewlwyd_answers(telenorid_client *client, telenorid_client_credentials *machine, const char *scope,
                                  const char *api) {
    telenorid_resource_server *nonces = NULL, *elsewhere = NULL;
    char *first = NULL, *again = NULL, *refused = NULL, *renewed = NULL;
    int32_t status = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_new(client, scope, &nonces));
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_set(nonces, TELENORID_RESOURCE_SERVER_DPOP_REQUIRE_NONCE, "true"));
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_new(client, "https://elsewhere.example/", &elsewhere));
    CHECK(request(machine, nonces, 1, api, &first, &status) == 1 && status == 401); /* use_dpop_nonce, its nonce */
    CHECK(request(machine, nonces, 1, api, &again, &status) == 0 && status == 200); /* the nonce kept */
    CHECK(first != NULL && again != NULL && strcmp(first, again) == 0);
    CHECK(request(machine, elsewhere, 0, api, &refused, &status) == 1 && status == 401); /* invalid_token */
    CHECK(request(machine, nonces, 1, api, &renewed, &status) == 0 && status == 200);
    CHECK(refused != NULL && renewed != NULL && strcmp(refused, renewed) != 0); /* a new token */
    telenorid_string_free(first);
    telenorid_string_free(again);
    telenorid_string_free(refused);
    telenorid_string_free(renewed);
    telenorid_resource_server_free(nonces);
    telenorid_resource_server_free(elsewhere);
}

/* A client configured for DPoP (RFC 9449) gets a token glewlwyd binds to the handle's key: the JWT's cnf.jkt
 * (§6.1) is the key the request headers' proof is made with, which `rs` accepts for that request (§7). */
static void test_glewlwyd_dpop(const char *issuer, const char *machine_id, const char *machine_secret,
                               const char *scope, telenorid_resource_server *rs) {
    telenorid_config_builder *b = NULL;
    telenorid_config *cfg = NULL;
    telenorid_client *client = NULL;
    telenorid_client_credentials *machine = NULL;
    char *authorization = NULL, *dpop = NULL;
    const char *api = "https://api.example/items";
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, issuer));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, machine_id));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_SECRET, machine_secret));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_DPOP_SIGNING_ALG, "ES256"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &cfg));
    telenorid_config_builder_free(b);
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(cfg, &client));
    CHECK_STATUS(TELENORID_OK, telenorid_client_credentials_new(client, scope, &machine));
    if (CHECK_STATUS(TELENORID_OK,
                     telenorid_client_credentials_request_headers(machine, "GET", api, NULL, &authorization, &dpop)) &&
        CHECK(authorization != NULL && strncmp(authorization, "DPoP ", 5) == 0 && dpop != NULL)) {
        telenorid_token_info *info = NULL;
        if (CHECK_STATUS(TELENORID_OK, telenorid_resource_server_verify_access_token(rs, authorization + 5, &info))) {
            char *jkt = info_field(info, TELENORID_INFO_CNF_JKT);
            CHECK(jkt != NULL && strlen(jkt) == 43); /* a base64url SHA-256 thumbprint (RFC 7638) */
            CHECK_STATUS(TELENORID_OK,
                         telenorid_resource_server_verify_dpop(rs, dpop, "GET", api, authorization + 5, NULL, info));
            telenorid_string_free(jkt);
            telenorid_token_info_free(info);
        }
        test_glewlwyd_answers(client, machine, scope, api);
    }
    telenorid_string_free(authorization);
    telenorid_string_free(dpop);
    telenorid_client_credentials_free(machine);
    telenorid_client_free(client);
    telenorid_config_free(cfg);
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
        telenorid_client_credentials_free(machine);
        telenorid_client_free(client);
        telenorid_config_free(cfg);
        test_glewlwyd_dpop(issuer, machine_id, machine_secret, scope, rs);
        telenorid_resource_server_free(rs);
    }
    stop(pid);
}

int main(void) {
    test_contract();
    test_django();
    test_glewlwyd();
    test_jwt_bearer();
    return finish_checks();
}
