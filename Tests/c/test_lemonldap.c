/* From C against LemonLDAP::NG 2.16 (Tests/support/lemonldap_provider.py serve, started here), an OpenID
 * provider nobody here wrote: the code flow with PKCE through the library's loopback listener on the one
 * redirect URI LemonLDAP::NG allows (http://127.0.0.1:53692/callback), the browser's part played by
 * `lemonldap_provider.py follow` in a child process (sign in as dwho, consent, follow the redirect to the
 * listener); then userinfo, refresh (no rotation, a refreshed ID token without nonce), ID token verification
 * (a key set whose key has no alg), the end-session URL, and revocation, which LemonLDAP::NG does not offer.
 * Skips (exit 0) when LemonLDAP::NG is not installed. Ends with "N passed, M failed". */
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

#define REDIRECT_PORT 53692
#define POST_LOGOUT_REDIRECT_URI "http://127.0.0.1:53692/signed-out"
#define HELPER "Tests/support/lemonldap_provider.py"

static pid_t provider_pid;
static char issuer[256], client_id[64], registered_redirect_uri[256];

static int start_provider(void) {
    char *argv[] = {"python3", HELPER, "serve", NULL};
    char line[2048];
    if (!first_line(argv, line, sizeof line, &provider_pid)) {
        fprintf(stderr, "%s serve printed nothing\n", HELPER);
        return 0;
    }
    return CHECK(field(line, "\"issuer\": \"", issuer, sizeof issuer)) &&
           CHECK(field(line, "\"client_id\": \"", client_id, sizeof client_id)) &&
           CHECK(field(line, "\"redirect_uri\": \"", registered_redirect_uri, sizeof registered_redirect_uri));
}

static void stop_provider(void) {
    if (provider_pid > 0) {
        kill(provider_pid, SIGTERM);
        waitpid(provider_pid, NULL, 0);
    }
}

/* The browser: `lemonldap_provider.py follow URL`, running while the listener waits. */
static pid_t open_browser(const char *url) {
    pid_t pid = fork();
    if (pid == 0) {
        execlp("python3", "python3", HELPER, "follow", url, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static int browser_finished(pid_t pid) {
    int status = 0;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static char *token_field(const telenorid_auth_state *state, telenorid_token_field which) {
    char *value = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_get(state, which, &value));
    return value;
}

static int same(const char *a, const char *b) {
    return a && b && strcmp(a, b) == 0;
}

static void test_code_flow(void) {
    telenorid_loopback_listener *listener = NULL;
    if (!CHECK_STATUS(TELENORID_OK, telenorid_loopback_listener_new(REDIRECT_PORT, "/callback", &listener))) return;
    char *redirect_uri = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_loopback_listener_redirect_uri(listener, &redirect_uri));
    CHECK_STR(registered_redirect_uri, redirect_uri);

    telenorid_config_builder *builder = NULL;
    telenorid_config *config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&builder));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_ISSUER, issuer));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_ID, client_id));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_REDIRECT_URI, redirect_uri));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_SCOPE, "openid profile email"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(builder, &config));
    telenorid_config_builder_free(builder);

    telenorid_client *client = NULL;
    telenorid_config *discovered = NULL;
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    char *url = NULL, *request_state = NULL, *nonce = NULL, *received = NULL;
    telenorid_authorization_callback *callback = NULL;
    telenorid_auth_state *state = NULL;
    if (!(CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client)) &&
          CHECK_STATUS(TELENORID_OK, telenorid_client_discover(client)) &&
          CHECK_STATUS(TELENORID_OK, telenorid_client_config(client, &discovered)) &&
          CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(discovered, &request)) &&
          CHECK_STATUS(TELENORID_OK, telenorid_client_build_auth_request(client, request, &pending)) &&
          CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_url(pending, &url)) &&
          CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_state(pending, &request_state)) &&
          CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_nonce(pending, &nonce))))
        goto done;
    /* PKCE with S256: LemonLDAP::NG requires a challenge from this client and accepts plain too; the library
     * never sends plain. */
    CHECK_CONTAINS(url, "code_challenge_method=S256");
    CHECK_CONTAINS(url, "code_challenge=");
    CHECK(strstr(url, "code_challenge_method=plain") == NULL);
    CHECK_CONTAINS(url, "oauth2/authorize?");

    CHECK_STATUS(TELENORID_OK, telenorid_loopback_listener_expect_state(listener, request_state));
    pid_t browser = open_browser(url);
    CHECK(browser > 0);
    int waited = CHECK_STATUS(TELENORID_OK, telenorid_loopback_listener_wait(listener, 60000, &received));
    CHECK(browser_finished(browser)); /* the listener answered the browser 200 */
    if (!waited) goto done;
    CHECK(strncmp(received, registered_redirect_uri, strlen(registered_redirect_uri)) == 0);
    if (!(CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_callback(pending, received, &callback)) &&
          CHECK_STATUS(TELENORID_OK, telenorid_client_exchange_code(client, callback, &state))))
        goto done;

    int32_t signed_in = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_is_signed_in(state, &signed_in));
    CHECK(signed_in == 1);
    char *token_type = token_field(state, TELENORID_TOKEN_TYPE);
    CHECK_STR("Bearer", token_type);
    telenorid_string_free(token_type);
    char *claims = token_field(state, TELENORID_TOKEN_ID_TOKEN_CLAIMS);
    CHECK_CONTAINS(claims, "\"dwho\"");
    CHECK_CONTAINS(claims, nonce);
    CHECK_CONTAINS(claims, issuer);
    telenorid_string_free(claims);
    char *scope = token_field(state, TELENORID_TOKEN_SCOPE);
    CHECK(scope == NULL); /* LemonLDAP::NG's token response names no scope, and the library invents none */
    telenorid_string_free(scope);

    char *userinfo = NULL;
    if (CHECK_STATUS(TELENORID_OK, telenorid_auth_state_userinfo(state, &userinfo))) {
        CHECK_CONTAINS(userinfo, "\"dwho\"");
        CHECK_CONTAINS(userinfo, "dwho@badwolf.org");
        CHECK_CONTAINS(userinfo, "Doctor Who");
    }
    telenorid_string_free(userinfo);

    /* The first ID token verifies with its nonce; the key set's one key has no alg, the header's RS256 is used. */
    char *first_access = token_field(state, TELENORID_TOKEN_ACCESS_TOKEN);
    char *first_refresh = token_field(state, TELENORID_TOKEN_REFRESH_TOKEN);
    char *first_id_token = token_field(state, TELENORID_TOKEN_ID_TOKEN);
    CHECK(first_refresh != NULL);
    char *verified = NULL;
    if (CHECK_STATUS(TELENORID_OK, telenorid_client_verify_id_token(client, first_id_token, nonce, &verified))) {
        CHECK_CONTAINS(verified, "RS256");
        CHECK_CONTAINS(verified, "test-key-1");
        CHECK_CONTAINS(verified, nonce);
    }
    telenorid_string_free(verified);
    verified = NULL;
    CHECK_STATUS(TELENORID_E_TOKEN_INVALID, telenorid_client_verify_id_token(client, first_id_token, "another-nonce",
                                                                             &verified));
    CHECK(verified == NULL);

    /* Refresh twice: a new access token and ID token each time; no refresh_token in the answer (no rotation),
     * so the first one stays. */
    for (int round = 0; round < 2; round++) {
        if (!CHECK_STATUS(TELENORID_OK, telenorid_auth_state_refresh(state))) break;
        char *access = token_field(state, TELENORID_TOKEN_ACCESS_TOKEN);
        char *refresh = token_field(state, TELENORID_TOKEN_REFRESH_TOKEN);
        char *id_token = token_field(state, TELENORID_TOKEN_ID_TOKEN);
        CHECK(access && !same(access, first_access));
        CHECK(same(refresh, first_refresh));
        CHECK(id_token && !same(id_token, first_id_token));
        /* Without a nonce (OIDC Core §12.2), verified without one; the same user. */
        char *refreshed = NULL;
        if (CHECK_STATUS(TELENORID_OK, telenorid_client_verify_id_token(client, id_token, NULL, &refreshed))) {
            CHECK_CONTAINS(refreshed, "\"dwho\"");
            CHECK(strstr(refreshed, "nonce") == NULL);
        }
        telenorid_string_free(refreshed);
        char *fresh = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_auth_state_fresh_access_token(state, &fresh));
        CHECK(same(fresh, access));
        telenorid_string_free(fresh);
        telenorid_string_free(access);
        telenorid_string_free(refresh);
        telenorid_string_free(id_token);
    }
    userinfo = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_userinfo(state, &userinfo));
    CHECK_CONTAINS(userinfo, "\"dwho\"");
    telenorid_string_free(userinfo);

    /* The end-session URL: LemonLDAP::NG's end_session_endpoint with the hint, the client, where to go and the
     * state. Building it signs nothing out. */
    char *id_token = token_field(state, TELENORID_TOKEN_ID_TOKEN);
    char *end_session = NULL;
    if (CHECK_STATUS(TELENORID_OK, telenorid_auth_state_end_session_url(state, POST_LOGOUT_REDIRECT_URI,
                                                                        "after-logout", &end_session))) {
        char endpoint[300];
        snprintf(endpoint, sizeof endpoint, "%soauth2/logout?", issuer);
        if (!CHECK(strncmp(end_session, endpoint, strlen(endpoint)) == 0))
            fprintf(stderr, "end-session URL %s does not start with %s\n", end_session, endpoint);
        CHECK_CONTAINS(end_session, id_token);
        CHECK_CONTAINS(end_session, "client_id=native-app");
        CHECK_CONTAINS(end_session, "post_logout_redirect_uri=http%3A%2F%2F127.0.0.1%3A53692%2Fsigned-out");
        CHECK_CONTAINS(end_session, "state=after-logout");
    }
    telenorid_string_free(end_session);
    signed_in = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_is_signed_in(state, &signed_in));
    CHECK(signed_in == 1);

    /* No revocation endpoint (RFC 7009) at LemonLDAP::NG 2.16: signed out here, and the error says why. */
    CHECK_STATUS(TELENORID_E_CONFIGURATION, telenorid_auth_state_revoke(state));
    CHECK_LAST_ERROR(TELENORID_E_CONFIGURATION, "revocation_endpoint");
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_is_signed_in(state, &signed_in));
    CHECK(signed_in == 0);
    CHECK_STATUS(TELENORID_E_NOT_SIGNED_IN, telenorid_auth_state_refresh(state));

    telenorid_string_free(id_token);
    telenorid_string_free(first_access);
    telenorid_string_free(first_refresh);
    telenorid_string_free(first_id_token);
done:
    telenorid_auth_state_free(state);
    telenorid_authorization_callback_free(callback);
    telenorid_string_free(received);
    telenorid_string_free(nonce);
    telenorid_string_free(request_state);
    telenorid_string_free(url);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_config_free(discovered);
    telenorid_client_free(client);
    telenorid_config_free(config);
    telenorid_string_free(redirect_uri);
    telenorid_loopback_listener_free(listener);
}

int main(void) {
    if (access("/usr/sbin/llng-fastcgi-server", X_OK) != 0 || access("/usr/sbin/nginx", X_OK) != 0) {
        printf("LemonLDAP::NG or nginx is not installed (scripts/setup.sh installs them): skipped\n");
        return 0;
    }
    if (start_provider()) test_code_flow();
    stop_provider();
    return finish_checks();
}
