/* The flows of the Vipps app-to-app, identity-provider app and 004 end to end from C, against the real provider (django-oauth-toolkit,
 * Tests/support/provider/oidc_provider.py, started here) with the user played by browser.py:
 *
 *  - TelenorID+ line authentication: the Aloha exchange against the stand-in (Tests/support/aloha_server.py,
 *    since Aloha is not public), then a sign-in at the real provider whose request carries the session as
 *    aloha_token (the provider ignores it; Telenor's would sign the line's subscriber in).
 *  - Vipps/MobilePay app-to-app, split as Vipps' documentation draws it: the merchant backend (a confidential client
 *    with the secret) builds the request; the app restores the serialized pending request without the
 *    secret, is called back by the provider's app (Vipps' documented callbacks, including the malformed
 *    `?error=` form), and passes the final redirect to the backend, which exchanges the code and checks
 *    the ID token again later. The provider has no Vipps app, so its part ends at the normal redirect.
 *  - The identity-provider app (Salesforce Mobile SDK identity provider), both roles, in URL and key-value form: the service provider's
 *    request, checked by the IdP app against the caller's redirect URIs; the IdP app's authorization at
 *    the provider on the SP's behalf; its answer; the SP's check and code exchange with its own verifier.
 *    Then a response naming another login host, and a user who refuses consent.
 *
 * The local halves (every refusal, NULLs, outputs untouched) are in test_api*.c, test_idp_app.c and
 * test_line_auth.c;
 * here the point is that the whole sequence works against a provider someone else wrote.
 * Ends with "N passed, M failed"; leak-free under valgrind. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <telenorid.h>
#include "child_process.h"
#include "check.h"
#include "params.h"

#define BACKEND_REDIRECT "merchantapp://redirect-uri" /* registered exactly so in oidc_provider.py */
#define APP_CALLBACK "merchantapp://app-callback"
#define SP_REDIRECT "com.example.app:/oauth2redirect" /* registered for the public client */
#define IDP_APP_URI "idpapp://authorize"
#define S(expected, call) check_report((call) == (expected), __FILE__, __LINE__, #call)

static struct {
    char base[256], ca_file[512];
    pid_t pid;
    int stdin_fd;
} aloha = {"", "", 0, -1};

static struct {
    char issuer[256], public_id[128], backend_id[128], backend_secret[128], username[64], password[64];
    char login_host[64]; /* host:port of the issuer */
    pid_t pid;
} provider;

static int start_provider(void) {
    char *argv[] = {"python3", "Tests/support/provider/oidc_provider.py", NULL};
    char line[2048];
    if (!first_line(argv, line, sizeof line, &provider.pid)) return 0;
    int ok = field(line, "\"issuer\": \"", provider.issuer, sizeof provider.issuer) &&
             field(line, "\"public\": {\"client_id\": \"", provider.public_id, sizeof provider.public_id) &&
             field(line, "\"confidential\": {\"client_id\": \"", provider.backend_id, sizeof provider.backend_id) &&
             field(line, "\"client_secret\": \"", provider.backend_secret, sizeof provider.backend_secret) &&
             field(line, "\"username\": \"", provider.username, sizeof provider.username) &&
             field(line, "\"password\": \"", provider.password, sizeof provider.password);
    /* http://127.0.0.1:PORT/o → 127.0.0.1:PORT */
    const char *host = ok ? strstr(provider.issuer, "://") : NULL;
    ok = ok && host && sscanf(host + 3, "%63[^/]", provider.login_host) == 1;
    return ok;
}

/* The Aloha stand-in serves until its stdin closes. */
static int start_aloha(void) {
    int in[2];
    if (pipe(in) != 0) return 0;
    /* Only the stand-in may hold the read end, and nobody else the write end: the stand-in sees EOF
     * (and stops) when this process closes it, whatever children the test starts meanwhile. */
    fcntl(in[0], F_SETFD, FD_CLOEXEC);
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    char *argv[] = {"python3", "Tests/support/aloha_server.py", NULL};
    char line[2048];
    /* The child takes the read end as its stdin: first_line's fork inherits this process's fd 0, so the
     * read end is put there for the moment of the fork (dup2 clears FD_CLOEXEC on the copy). */
    int saved = dup(0);
    dup2(in[0], 0);
    int ok = first_line(argv, line, sizeof line, &aloha.pid);
    if (saved >= 0) {
        dup2(saved, 0);
        close(saved);
    } else {
        close(0); /* this process had no stdin */
    }
    close(in[0]);
    aloha.stdin_fd = in[1];
    return ok && field(line, "\"base\": \"", aloha.base, sizeof aloha.base) &&
           field(line, "\"ca_file\": \"", aloha.ca_file, sizeof aloha.ca_file);
}

static void stop_aloha(void) {
    if (aloha.stdin_fd >= 0) close(aloha.stdin_fd);
    if (aloha.pid > 0) waitpid(aloha.pid, NULL, 0);
}

static void stop_provider(void) {
    if (provider.pid > 0) {
        kill(provider.pid, SIGTERM);
        waitpid(provider.pid, NULL, 0);
    }
}

/* The user signs in at `url` (and consents, or refuses with `deny`); the redirect the browser ends on,
 * malloc'd, or NULL. */
static char *login(const char *url, int deny) {
    char *argv[] = {"python3", "Tests/support/provider/browser.py", (char *)url, provider.username,
                    provider.password, deny ? "--deny" : NULL, NULL};
    char line[4096];
    if (!first_line(argv, line, sizeof line, NULL)) return NULL;
    char *copy = malloc(strlen(line) + 1);
    if (copy) strcpy(copy, line);
    return copy;
}

/* The OAuth error of the last failed call, copied into `out` ("" when none). */
static void last_oauth_error(char *out, size_t size) {
    telenorid_error *error = telenorid_error_last();
    const char *value = error ? telenorid_error_oauth_error(error) : NULL;
    snprintf(out, size, "%s", value ? value : "");
    telenorid_error_free(error);
}

static telenorid_config *config(const char *client_id, const char *secret, const char *redirect,
                                const char *authorization_endpoint) {
    telenorid_config_builder *b = NULL;
    telenorid_config *out = NULL;
    S(TELENORID_OK, telenorid_config_builder_new(&b));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, provider.issuer));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, client_id));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_REDIRECT_URI, redirect));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_SCOPE, "openid profile email"));
    if (secret) S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_SECRET, secret));
    if (authorization_endpoint)
        S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_AUTHORIZATION_ENDPOINT, authorization_endpoint));
    S(TELENORID_OK, telenorid_config_builder_build(b, &out));
    telenorid_config_builder_free(b);
    return out;
}

/* A signed-in state's claims contain `aud` and the nonce of `pending`, and its userinfo answers. */
static void check_tokens(telenorid_auth_state *state, const char *audience, const telenorid_pending_auth *pending) {
    char *claims = NULL, *nonce = NULL, *userinfo = NULL, *aud = NULL, *nonce_claim = NULL;
    S(TELENORID_OK, telenorid_auth_state_get(state, TELENORID_TOKEN_ID_TOKEN_CLAIMS, &claims));
    S(TELENORID_OK, telenorid_pending_auth_nonce(pending, &nonce));
    aud = malloc(strlen(audience) + 16);
    nonce_claim = malloc((nonce ? strlen(nonce) : 0) + 16);
    if (aud && nonce_claim && nonce) {
        sprintf(aud, "\"aud\":\"%s\"", audience);
        sprintf(nonce_claim, "\"nonce\":\"%s\"", nonce);
        CHECK_CONTAINS(claims, aud);
        CHECK_CONTAINS(claims, nonce_claim);
    }
    S(TELENORID_OK, telenorid_auth_state_userinfo(state, &userinfo));
    CHECK_CONTAINS(userinfo, "\"sub\":");
    free(aud);
    free(nonce_claim);
    telenorid_string_free(claims);
    telenorid_string_free(nonce);
    telenorid_string_free(userinfo);
}

/* ------------------------------------------------------------------------------------------------
 * Vipps/MobilePay app-to-app (Vipps Login app-to-app)
 * --------------------------------------------------------------------------------------------- */

/* An app callback for `state` with `rest` appended; the status of handling it, and its resume_uri. */
static telenorid_status app_callback(const telenorid_pending_auth *pending, const char *state, const char *rest,
                                     char **resume) {
    char url[1024];
    snprintf(url, sizeof url, APP_CALLBACK "?state=%s%s", state, rest);
    telenorid_app_callback *callback = NULL;
    telenorid_status status = telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback);
    if (status == TELENORID_OK && resume) telenorid_app_callback_resume_uri(callback, resume);
    telenorid_app_callback_free(callback);
    return status;
}

static void test_app_to_app(void) {
    /* 1: the backend builds the request and hands the app the serialized pending request. */
    telenorid_config *settings = config(provider.backend_id, provider.backend_secret, BACKEND_REDIRECT, NULL);
    telenorid_client *backend = NULL;
    telenorid_config *backend_config = NULL;
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    char *shipped = NULL, *endpoint = NULL;
    S(TELENORID_OK, telenorid_client_new(settings, &backend));
    S(TELENORID_OK, telenorid_client_config(backend, &backend_config));
    S(TELENORID_OK, telenorid_auth_request_new(backend_config, &request));
    S(TELENORID_OK, telenorid_auth_request_set_app_to_app(request, APP_CALLBACK));
    S(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    S(TELENORID_OK, telenorid_pending_auth_serialize(pending, &shipped));
    CHECK(shipped && strstr(shipped, provider.backend_secret) == NULL);
    S(TELENORID_OK, telenorid_config_get(backend_config, TELENORID_CONFIG_AUTHORIZATION_ENDPOINT, &endpoint));

    /* The app knows the client id and redirect URI, never the secret. */
    telenorid_config *app_config = config(provider.backend_id, NULL, BACKEND_REDIRECT, endpoint);
    telenorid_pending_auth *app_pending = NULL;
    char *url = NULL, *state = NULL, *redirect = NULL, *resume = NULL;
    S(TELENORID_OK, telenorid_pending_auth_restore(app_config, shipped, &app_pending));
    S(TELENORID_OK, telenorid_pending_auth_url(app_pending, &url));
    CHECK_CONTAINS(url, "requested_flow=app_to_app");
    CHECK_CONTAINS(url, "app_callback_uri=merchantapp%3A%2F%2Fapp-callback");
    S(TELENORID_OK, telenorid_pending_auth_state(app_pending, &state));

    /* 2-3: the user signs in (the provider's pages stand in for the Vipps app's screens). */
    redirect = url ? login(url, 0) : NULL;
    CHECK(redirect && strncmp(redirect, BACKEND_REDIRECT "?", strlen(BACKEND_REDIRECT) + 1) == 0);

    /* 4-5: the provider's app opens app_callback_uri, with a resume_uri on the provider's host or without. */
    if (state) {
        S(TELENORID_OK, app_callback(app_pending, state,
                                     "&resume_uri=https%3A%2F%2F127.0.0.1%2Fvipps-login-idp%2Findex.html%3FtabId%3D7607", &resume));
        CHECK_STR("https://127.0.0.1/vipps-login-idp/index.html?tabId=7607", resume);
        telenorid_string_free(resume);
        resume = NULL;
        S(TELENORID_OK, app_callback(app_pending, state, "", &resume));
        CHECK(resume == NULL);
        /* Vipps' documented error form, "state=...?error=..." */
        char error[64];
        S(TELENORID_E_AUTHORIZATION_ERROR, app_callback(app_pending, state, "?error=unknown_error", NULL));
        last_oauth_error(error, sizeof error);
        CHECK_STR("unknown_error", error);
        S(TELENORID_E_AUTHORIZATION_ERROR, app_callback(app_pending, state, "&error=unknown_error", NULL));
        S(TELENORID_E_STATE_MISMATCH, app_callback(app_pending, "218gz18yveu1ybajwh2g1h3g", "", NULL));
        /* Vipps' other documented form, with a "/" before the query; and another app's URI. */
        char url2[512];
        telenorid_app_callback *other = NULL;
        snprintf(url2, sizeof url2, APP_CALLBACK "/?state=%s", state);
        S(TELENORID_OK, telenorid_pending_auth_handle_app_callback(app_pending, url2, NULL, &other));
        telenorid_app_callback_free(other);
        other = NULL;
        snprintf(url2, sizeof url2, "otherapp://app-callback?state=%s", state);
        S(TELENORID_E_REDIRECT_MISMATCH, telenorid_pending_auth_handle_app_callback(app_pending, url2, NULL, &other));
        CHECK(other == NULL);
        S(TELENORID_E_INSECURE, app_callback(app_pending, state, "&resume_uri=http%3A%2F%2F127.0.0.1%2Fx", NULL));
    }

    /* 6-8: the backend checks the redirect the app passed on and exchanges the code with its secret. */
    telenorid_authorization_callback *callback = NULL;
    telenorid_auth_state *tokens = NULL;
    if (redirect) {
        S(TELENORID_OK, telenorid_pending_auth_handle_callback(pending, redirect, &callback));
        S(TELENORID_OK, telenorid_client_exchange_code(backend, callback, &tokens));
        telenorid_authorization_callback *again = NULL;
        S(TELENORID_E_CONSUMED, telenorid_pending_auth_handle_callback(pending, redirect, &again));
        telenorid_authorization_callback_free(again);
    }
    if (tokens) {
        check_tokens(tokens, provider.backend_id, pending);
        /* Later the backend checks the ID token it is handed again; another nonce is refused. */
        char *id_token = NULL, *nonce = NULL, *verified = NULL, *untouched = (char *)"untouched";
        S(TELENORID_OK, telenorid_auth_state_get(tokens, TELENORID_TOKEN_ID_TOKEN, &id_token));
        S(TELENORID_OK, telenorid_pending_auth_nonce(pending, &nonce));
        S(TELENORID_OK, telenorid_client_verify_id_token(backend, id_token, nonce, &verified));
        CHECK_CONTAINS(verified, "\"claims\":");
        S(TELENORID_E_TOKEN_INVALID, telenorid_client_verify_id_token(backend, id_token, "another-nonce", &untouched));
        CHECK_STR("untouched", untouched);
        telenorid_string_free(id_token);
        telenorid_string_free(nonce);
        telenorid_string_free(verified);
    }

    telenorid_auth_state_free(tokens);
    telenorid_authorization_callback_free(callback);
    telenorid_string_free(url);
    telenorid_string_free(state);
    telenorid_string_free(shipped);
    telenorid_string_free(endpoint);
    free(redirect);
    telenorid_pending_auth_free(app_pending);
    telenorid_config_free(app_config);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_config_free(backend_config);
    telenorid_client_free(backend);
    telenorid_config_free(settings);
}

/* ------------------------------------------------------------------------------------------------
 * The identity-provider app (Salesforce Mobile SDK identity provider)
 * --------------------------------------------------------------------------------------------- */

/* The IdP app's half: parse the SP's request (URL or pairs form), authorize at the provider on the SP's
 * behalf (the user consents or, with `deny`, refuses), and answer. NULL when a step failed. */
static telenorid_idp_response *idp_app(const telenorid_idp_request *sp_request, int pairs, int deny,
                                       const char *authorization_endpoint) {
    const char *callers[] = {SP_REDIRECT};
    telenorid_idp_request *incoming = NULL;
    telenorid_idp_response *response = NULL;
    if (pairs) {
        telenorid_params *bundle = NULL;
        S(TELENORID_OK, telenorid_idp_request_params(sp_request, &bundle));
        char *scopes = param(bundle, "scopes");
        CHECK_STR("openid,profile,email", scopes);
        telenorid_string_free(scopes);
        S(TELENORID_OK, telenorid_idp_request_parse_params(bundle, callers, 1, &incoming));
        telenorid_params_free(bundle);
    } else {
        char *url = NULL;
        S(TELENORID_OK, telenorid_idp_request_url(sp_request, IDP_APP_URI, &url));
        S(TELENORID_OK, telenorid_idp_request_parse_url(url, IDP_APP_URI, callers, 1, &incoming));
        telenorid_string_free(url);
    }
    char *authorize = NULL, *redirect = NULL;
    if (incoming) S(TELENORID_OK, telenorid_idp_request_authorization_url(incoming, authorization_endpoint, &authorize));
    if (authorize) {
        CHECK_CONTAINS(authorize, "redirect_uri=com.example.app%3A%2Foauth2redirect");
        CHECK_CONTAINS(authorize, "code_challenge_method=S256");
        CHECK(strstr(authorize, "code_verifier") == NULL);
        redirect = login(authorize, deny);
        CHECK(redirect != NULL);
    }
    if (redirect) S(TELENORID_OK, telenorid_idp_request_respond(incoming, redirect, provider.login_host, &response));
    free(redirect);
    telenorid_string_free(authorize);
    telenorid_idp_request_free(incoming);
    return response;
}

/* The service provider's side up to its request for the IdP app: a client for the public client (after
 * discovery), a pending request, and the IdP-app request made from it. */
struct sp {
    telenorid_config *settings, *config;
    telenorid_client *client;
    char *endpoint; /* the provider's authorization endpoint, which the IdP app knows */
    telenorid_auth_request *authorization;
    telenorid_pending_auth *pending;
    telenorid_idp_request *request;
};

static struct sp sp_start(const char *login_host, const char *user_hint) {
    struct sp sp = {config(provider.public_id, NULL, SP_REDIRECT, NULL), NULL, NULL, NULL, NULL, NULL, NULL};
    S(TELENORID_OK, telenorid_client_new(sp.settings, &sp.client));
    S(TELENORID_OK, telenorid_client_config(sp.client, &sp.config));
    S(TELENORID_OK, telenorid_config_get(sp.config, TELENORID_CONFIG_AUTHORIZATION_ENDPOINT, &sp.endpoint));
    S(TELENORID_OK, telenorid_auth_request_new(sp.config, &sp.authorization));
    S(TELENORID_OK, telenorid_auth_request_build(sp.authorization, &sp.pending));
    S(TELENORID_OK, telenorid_idp_request_new(sp.pending, login_host, user_hint, &sp.request));
    return sp;
}

static void sp_finish(struct sp *sp) {
    telenorid_idp_request_free(sp->request);
    telenorid_string_free(sp->endpoint);
    telenorid_pending_auth_free(sp->pending);
    telenorid_auth_request_free(sp->authorization);
    telenorid_config_free(sp->config);
    telenorid_client_free(sp->client);
    telenorid_config_free(sp->settings);
}

static void test_idp_app_form(int pairs) {
    struct sp sp = sp_start(provider.login_host, "alice");
    telenorid_client *client = sp.client;
    telenorid_pending_auth *pending = sp.pending;

    telenorid_idp_response *response = sp.request && sp.endpoint ? idp_app(sp.request, pairs, 0, sp.endpoint) : NULL;
    CHECK(response != NULL);
    telenorid_authorization_callback *callback = NULL;
    telenorid_auth_state *tokens = NULL;
    if (response && pairs) {
        telenorid_params *answer = NULL;
        size_t count = 0;
        S(TELENORID_OK, telenorid_idp_response_params(response, &answer));
        S(TELENORID_OK, telenorid_params_count(answer, &count));
        CHECK(count == 3); /* code, login_host, state: never a token */
        char *code = param(answer, "code"), *host = param(answer, "login_host"), *state = param(answer, "state");
        CHECK(code != NULL && state != NULL);
        CHECK_STR(provider.login_host, host);
        /* Naming another login host is refused, and the request stays open for the genuine answer. */
        telenorid_params *forged = NULL;
        S(TELENORID_OK, telenorid_params_new(&forged));
        S(TELENORID_OK, telenorid_params_add(forged, "code", code ? code : ""));
        S(TELENORID_OK, telenorid_params_add(forged, "login_host", "evil.example"));
        S(TELENORID_OK, telenorid_params_add(forged, "state", state ? state : ""));
        S(TELENORID_E_ISSUER_MISMATCH, telenorid_pending_auth_handle_idp_response_params(pending, forged, NULL, 0, &callback));
        telenorid_params_free(forged);
        S(TELENORID_OK, telenorid_pending_auth_handle_idp_response_params(pending, answer, NULL, 0, &callback));
        telenorid_string_free(code);
        telenorid_string_free(host);
        telenorid_string_free(state);
        telenorid_params_free(answer);
    } else if (response) {
        char *answer = NULL;
        S(TELENORID_OK, telenorid_idp_response_url(response, &answer));
        CHECK(answer && strncmp(answer, SP_REDIRECT "?", strlen(SP_REDIRECT) + 1) == 0);
        S(TELENORID_OK, telenorid_pending_auth_handle_idp_response_url(pending, answer, NULL, 0, &callback));
        telenorid_string_free(answer);
    }
    /* The SP redeems the code with its own verifier. */
    if (callback) S(TELENORID_OK, telenorid_client_exchange_code(client, callback, &tokens));
    if (tokens) check_tokens(tokens, provider.public_id, pending);
    CHECK(tokens != NULL);

    telenorid_auth_state_free(tokens);
    telenorid_authorization_callback_free(callback);
    telenorid_idp_response_free(response);
    sp_finish(&sp);
}

/* The user refuses consent at the provider: the IdP app answers with the error, which the SP receives
 * as the provider's own words. */
static void test_idp_app_refusal(void) {
    struct sp sp = sp_start(NULL, NULL);
    telenorid_pending_auth *pending = sp.pending;
    char *answer = NULL, error[64] = "";
    telenorid_idp_response *response = sp.request && sp.endpoint ? idp_app(sp.request, 0, 1, sp.endpoint) : NULL;
    if (response) S(TELENORID_OK, telenorid_idp_response_url(response, &answer));
    telenorid_authorization_callback *callback = NULL;
    if (answer) {
        S(TELENORID_E_AUTHORIZATION_ERROR, telenorid_pending_auth_handle_idp_response_url(pending, answer, NULL, 0, &callback));
        last_oauth_error(error, sizeof error);
    }
    CHECK_STR("access_denied", error);
    CHECK(callback == NULL);
    telenorid_string_free(answer);
    telenorid_idp_response_free(response);
    sp_finish(&sp);
}

/* ------------------------------------------------------------------------------------------------
 * TelenorID+ line authentication (TelenorID+ line authentication)
 * --------------------------------------------------------------------------------------------- */

static void test_line_auth_sign_in(void) {
    char aloha_url[300];
    snprintf(aloha_url, sizeof aloha_url, "%s/c-signin", aloha.base);
    telenorid_config_builder *b = NULL;
    telenorid_config *settings = NULL, *discovered = NULL;
    telenorid_client *client = NULL;
    telenorid_line_authenticator *line_auth = NULL;
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    telenorid_authorization_callback *callback = NULL;
    telenorid_auth_state *tokens = NULL;
    char *url = NULL, *redirect = NULL;
    int64_t valid_for = 0;
    S(TELENORID_OK, telenorid_config_builder_new(&b));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, provider.issuer));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, provider.public_id));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_REDIRECT_URI, "http://127.0.0.1:53682/callback"));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_SCOPE, "openid profile"));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ALOHA_URL, aloha_url));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CA_FILE, aloha.ca_file));
    S(TELENORID_OK, telenorid_config_builder_build(b, &settings));
    S(TELENORID_OK, telenorid_client_new(settings, &client));
    S(TELENORID_OK, telenorid_client_config(client, &discovered));
    S(TELENORID_OK, telenorid_line_authenticator_new(discovered, &line_auth));
    /* As a host does when the login screen appears; at sign-in the kept session is used. */
    S(TELENORID_OK, telenorid_line_authenticator_run(line_auth));
    S(TELENORID_OK, telenorid_line_authenticator_valid_for(line_auth, &valid_for));
    CHECK(valid_for > 250 && valid_for <= 300);
    S(TELENORID_OK, telenorid_auth_request_new(discovered, &request));
    S(TELENORID_OK, telenorid_line_authenticator_apply(line_auth, request));
    S(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    S(TELENORID_OK, telenorid_pending_auth_url(pending, &url));
    CHECK_CONTAINS(url, "&aloha_token=");
    redirect = url ? login(url, 0) : NULL;
    if (redirect) S(TELENORID_OK, telenorid_pending_auth_handle_callback(pending, redirect, &callback));
    if (callback) S(TELENORID_OK, telenorid_client_exchange_code(client, callback, &tokens));
    CHECK(tokens != NULL);
    if (tokens) check_tokens(tokens, provider.public_id, pending);
    telenorid_auth_state_free(tokens);
    telenorid_authorization_callback_free(callback);
    free(redirect);
    telenorid_string_free(url);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_line_authenticator_free(line_auth);
    telenorid_config_free(discovered);
    telenorid_client_free(client);
    telenorid_config_free(settings);
    telenorid_config_builder_free(b);
}

int main(void) {
    if (!CHECK(start_provider()) || !CHECK(start_aloha())) {
        stop_aloha();
        stop_provider();
        return finish_checks();
    }
    test_line_auth_sign_in();
    test_app_to_app();
    test_idp_app_form(0);
    test_idp_app_form(1);
    test_idp_app_refusal();
    stop_aloha();
    stop_provider();
    return finish_checks();
}
