/* Token exchange (RFC 8693) and the local checks of a Native SSO sign-in from C. First the contract of each function (NULL where it is not caught by the
 * generated test_null_contract, a handle of the wrong kind, outputs untouched on failure, an unknown field),
 * then against idpyoidc's OpenID provider (PyPI, written by someone else) in the FAPI 2.0 harness
 * (Tests/support/fapi_provider.py --token-exchange, started here): the user signs in (PAR, private_key_jwt, DPoP,
 * PKCE; the browser's part played by the harness's `login`), and the access token is exchanged for an access
 * token for an audience and for a refresh token; idpyoidc's refusals (an unknown resource: invalid_target; an
 * actor token, which it does not support: invalid_request) come with their OAuth error. Ends with
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

#define AUDIENCE "https://backend.example.com/" /* fapi_provider.py's TOKEN_EXCHANGE_AUDIENCES */

/* The request's own checks, with no network. */
static void test_contract(void) {
    telenorid_token_exchange *exchange = SENTINEL;
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_token_exchange_new("", TELENORID_TOKEN_TYPE_ACCESS_TOKEN, &exchange));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_token_exchange_new("token", "not a uri", &exchange));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "RFC 8693");
    CHECK(exchange == SENTINEL);
    exchange = NULL;
    if (!CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_new("token", TELENORID_TOKEN_TYPE_ACCESS_TOKEN, &exchange))) {
        return;
    }
    /* §2.1: actor_token_type with actor_token, and only then. */
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_token_exchange_set_actor(exchange, "actor", NULL));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "together");
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_token_exchange_set_actor(exchange, NULL, TELENORID_TOKEN_TYPE_JWT));
    CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_set_actor(exchange, "actor", TELENORID_TOKEN_TYPE_JWT));
    CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_set_actor(exchange, NULL, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_token_exchange_add_resource(exchange, "https://api.example/#f"));
    CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_add_resource(exchange, "https://api.example/"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_token_exchange_add_resource(exchange, "https://api.example/"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_token_exchange_add_audience(exchange, ""));
    CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_add_audience(exchange, "backend"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_token_exchange_set_scope(exchange, ""));
    CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_set_scope(exchange, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_token_exchange_set_requested_token_type(exchange, "jwt"));
    CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_set_requested_token_type(exchange, NULL));

    telenorid_config_builder *b = NULL;
    telenorid_config *cfg = NULL;
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, "https://id.example.com"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, "app"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &cfg));
    telenorid_config_builder_free(b);
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(cfg, &client));
    telenorid_issued_token *issued = SENTINEL;
    CHECK_WRONG_KIND(telenorid_token_exchange_set_scope(AS(telenorid_token_exchange, client), "read"));
    CHECK_WRONG_KIND(telenorid_client_exchange_token(AS(telenorid_client, exchange), exchange, &issued));
    CHECK_WRONG_KIND(telenorid_client_exchange_token(client, AS(telenorid_token_exchange, client), &issued));
    CHECK(issued == SENTINEL);
    char *text = SENTINEL;
    int64_t when = 7;
    telenorid_auth_state *state = SENTINEL;
    CHECK_WRONG_KIND(telenorid_issued_token_get(AS(telenorid_issued_token, exchange), TELENORID_ISSUED_TOKEN, &text));
    CHECK_WRONG_KIND(telenorid_issued_token_expires_at(AS(telenorid_issued_token, client), &when));
    CHECK_WRONG_KIND(telenorid_issued_token_auth_state(AS(telenorid_issued_token, exchange), &state));
    CHECK(text == SENTINEL && when == 7 && state == SENTINEL);

    /* Native SSO (OpenID Connect Native SSO for Mobile Apps 1.0 §4.2): the handed-over pair is checked before
     * any request. The ID token is unsigned here: only its claims are read before the exchange, and this one
     * never gets that far. Its ds_hash is that of "device-secret" (base64url of the left half of SHA-256). */
    static const char id_token[] =
        "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwic3ViIjoiYWxpY2UiLCJkc19oYXNoIjoiRTlfZ2Z3Mmw2STVPRWlzalF3QmNkdyJ9.c2ln";
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_native_sso(client, id_token, "another-secret", NULL, &state));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "ds_hash");
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_native_sso(client, id_token, "device-secret", "profile", &state));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "openid");
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_native_sso(client, "not-a-jwt", "device-secret", NULL, &state));
    CHECK_WRONG_KIND(telenorid_client_native_sso(AS(telenorid_client, exchange), id_token, "device-secret", NULL, &state));
    CHECK(state == SENTINEL);
    telenorid_client_free(client);
    telenorid_config_free(cfg);
    telenorid_token_exchange_free(exchange);
}

static char *issued_field(const telenorid_issued_token *issued, telenorid_issued_token_field which) {
    char *value = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_issued_token_get(issued, which, &value));
    return value;
}

/* The provider's refusal of `exchange`: TELENORID_E_AUTHORIZATION_ERROR with `oauth_error`, *out untouched. */
static void check_refused(telenorid_client *client, const telenorid_token_exchange *exchange, const char *oauth_error) {
    telenorid_issued_token *issued = SENTINEL;
    if (CHECK_STATUS(TELENORID_E_AUTHORIZATION_ERROR, telenorid_client_exchange_token(client, exchange, &issued))) {
        telenorid_error *error = telenorid_error_last();
        CHECK(error != NULL);
        if (error) {
            CHECK_STR(oauth_error, telenorid_error_oauth_error(error));
            CHECK(telenorid_error_http_status(error) == 400);
        }
        telenorid_error_free(error);
    }
    CHECK(issued == SENTINEL);
}

/* The user's access token from a FAPI 2.0 sign-in at the harness; NULL (a failed check) when it failed. */
static char *sign_in(telenorid_client *client, const telenorid_config *cfg, const char *issuer) {
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    telenorid_authorization_callback *callback = NULL;
    telenorid_auth_state *state = NULL;
    char *url = NULL, *token = NULL, redirect[2048];
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(cfg, &request));
    /* offline_access with the consent OpenID Connect Core §11 asks for it: the subject token may then be
     * exchanged for a refresh token (idpyoidc's policy). */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_PROMPT, "consent"));
    if (CHECK_STATUS(TELENORID_OK, telenorid_client_build_auth_request(client, request, &pending)) &&
        CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_url(pending, &url))) {
        char *argv[] = {"python3", "Tests/support/fapi_provider.py", "login", (char *)issuer, url, NULL};
        if (CHECK(first_line(argv, redirect, sizeof redirect, NULL)) &&
            CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_callback(pending, redirect, &callback)) &&
            CHECK_STATUS(TELENORID_OK, telenorid_client_exchange_code(client, callback, &state))) {
            CHECK_STATUS(TELENORID_OK, telenorid_auth_state_get(state, TELENORID_TOKEN_ACCESS_TOKEN, &token));
        }
    }
    telenorid_string_free(url);
    telenorid_auth_state_free(state);
    telenorid_authorization_callback_free(callback);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    return token;
}

static void test_idpyoidc(void) {
    char *argv[] = {"python3", "Tests/support/fapi_provider.py", "--token-exchange", NULL};
    char line[4096], issuer[256], client_id[64], redirect_uri[256], x[128], y[128], d[128], kid[128], jwk[800];
    pid_t pid = 0;
    if (!CHECK(first_line(argv, line, sizeof line, &pid))) return;
    if (!CHECK(field(line, "\"issuer\": \"", issuer, sizeof issuer) &&
               field_after(line, "\"fapi\"", "\"client_id\": \"", client_id, sizeof client_id) &&
               field_after(line, "\"fapi\"", "\"redirect_uri\": \"", redirect_uri, sizeof redirect_uri) &&
               field_after(line, "\"client_private_jwk\"", "\"x\": \"", x, sizeof x) &&
               field_after(line, "\"client_private_jwk\"", "\"y\": \"", y, sizeof y) &&
               field_after(line, "\"client_private_jwk\"", "\"d\": \"", d, sizeof d) &&
               field_after(line, "\"client_private_jwk\"", "\"kid\": \"", kid, sizeof kid))) {
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
        return;
    }
    snprintf(jwk, sizeof jwk, "{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"%s\",\"y\":\"%s\",\"d\":\"%s\",\"kid\":\"%s\"}", x,
             y, d, kid);
    telenorid_config_builder *b = NULL;
    telenorid_config *cfg = NULL;
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, issuer));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, client_id));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_REDIRECT_URI, redirect_uri));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_SCOPE, "openid profile email offline_access"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_SECURITY_PROFILE, "fapi2"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_TOKEN_ENDPOINT_AUTH_METHOD, "private_key_jwt"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_PRIVATE_KEY, jwk));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_DPOP_SIGNING_ALG, "ES256"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &cfg));
    telenorid_config_builder_free(b);
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(cfg, &client));
    char *subject = client ? sign_in(client, cfg, issuer) : NULL;
    if (CHECK(subject != NULL)) {
        /* An access token for the backend audience (§2.1 audience), DPoP-bound to the key that asked. */
        telenorid_token_exchange *exchange = NULL;
        telenorid_issued_token *issued = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_new(subject, TELENORID_TOKEN_TYPE_ACCESS_TOKEN, &exchange));
        CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_add_audience(exchange, AUDIENCE));
        CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_set_scope(exchange, "openid profile"));
        if (CHECK_STATUS(TELENORID_OK, telenorid_client_exchange_token(client, exchange, &issued))) {
            char *token = issued_field(issued, TELENORID_ISSUED_TOKEN);
            char *type = issued_field(issued, TELENORID_ISSUED_TOKEN_TYPE);
            char *token_type = issued_field(issued, TELENORID_ISSUED_ACCESS_TOKEN_TYPE);
            char *scope = issued_field(issued, TELENORID_ISSUED_SCOPE);
            char *refresh = SENTINEL, *unknown = SENTINEL;
            int64_t expires_at = 0;
            telenorid_auth_state *state = SENTINEL;
            CHECK(token != NULL && strlen(token) > 20 && strcmp(token, subject) != 0);
            CHECK_STR(TELENORID_TOKEN_TYPE_ACCESS_TOKEN, type);
            CHECK_STR("DPoP", token_type);
            CHECK(scope != NULL && strstr(scope, "openid") != NULL && strstr(scope, "email") == NULL);
            CHECK_STATUS(TELENORID_OK, telenorid_issued_token_get(issued, TELENORID_ISSUED_REFRESH_TOKEN, &refresh));
            CHECK(refresh == NULL);
            CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_issued_token_get(issued, 99, &unknown));
            CHECK(unknown == SENTINEL);
            CHECK_STATUS(TELENORID_OK, telenorid_issued_token_expires_at(issued, &expires_at));
            CHECK(expires_at >= 0); /* idpyoidc gives the subject token's expiry, when its session has one */
            /* No refresh token came with it: no auth state (it could only expire). */
            CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_issued_token_auth_state(issued, &state));
            CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "refresh token");
            CHECK(state == SENTINEL);
            telenorid_string_free(token);
            telenorid_string_free(type);
            telenorid_string_free(token_type);
            telenorid_string_free(scope);
            telenorid_issued_token_free(issued);
        }
        telenorid_token_exchange_free(exchange);

        /* A refresh token (§2.1 requested_token_type): not an access token, token_type N_A or the provider's. */
        exchange = NULL;
        issued = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_new(subject, TELENORID_TOKEN_TYPE_ACCESS_TOKEN, &exchange));
        CHECK_STATUS(TELENORID_OK,
                     telenorid_token_exchange_set_requested_token_type(exchange, TELENORID_TOKEN_TYPE_REFRESH_TOKEN));
        if (CHECK_STATUS(TELENORID_OK, telenorid_client_exchange_token(client, exchange, &issued))) {
            char *type = issued_field(issued, TELENORID_ISSUED_TOKEN_TYPE);
            telenorid_auth_state *state = SENTINEL;
            CHECK_STR(TELENORID_TOKEN_TYPE_REFRESH_TOKEN, type);
            CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_issued_token_auth_state(issued, &state));
            CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "not an access token");
            telenorid_string_free(type);
            telenorid_issued_token_free(issued);
        }
        /* The same request for a resource idpyoidc's policy does not know: invalid_target (§2.2.2). */
        CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_add_resource(exchange, "https://elsewhere.example/"));
        check_refused(client, exchange, "invalid_target");
        telenorid_token_exchange_free(exchange);

        /* An actor token: idpyoidc supports none and says invalid_request. */
        exchange = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_new(subject, TELENORID_TOKEN_TYPE_ACCESS_TOKEN, &exchange));
        CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_set_actor(exchange, subject, TELENORID_TOKEN_TYPE_ACCESS_TOKEN));
        check_refused(client, exchange, "invalid_request");
        telenorid_token_exchange_free(exchange);

        /* A subject token the provider never issued: invalid_request ("Subject token invalid"). */
        exchange = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_token_exchange_new("not-a-token-of-theirs", TELENORID_TOKEN_TYPE_ACCESS_TOKEN,
                                                                &exchange));
        check_refused(client, exchange, "invalid_request");
        telenorid_token_exchange_free(exchange);
    }
    telenorid_string_free(subject);
    telenorid_client_free(client);
    telenorid_config_free(cfg);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
}

int main(void) {
    test_contract();
    test_idpyoidc();
    return finish_checks();
}
