/* Tests of the identity-provider app section of include/telenorid.h through the header only:
 * both roles in URL and key-value form, NULL in every pointer position, outputs untouched on error,
 * handles of the wrong kind, refused requests and responses with their status codes, unknown parameters
 * ignored and dropped, a redirect URI with its own query, the IdP-initiated message (made, read, looped
 * back into the SP's request, and its refusals). No network: the
 * provider's redirect is written by hand (the real provider runs in test_flows.c and Tests/python/test_idp_app.py).
 * Ends with "N passed, M failed"; leak-free under valgrind. */
#include <stdlib.h>
#include <telenorid.h>
#include "check.h"
#include "params.h"
#include "status_checks.h"

#define SP_REDIRECT "com.example.sp:/oauth2redirect"
#define IDP_APP_URI "idpapp://authorize"
#define S(expected, call) check_report((call) == (expected), __FILE__, __LINE__, #call)

static telenorid_pending_auth *sp_pending_at(const char *redirect_uri) {
    telenorid_config_builder *b = NULL;
    telenorid_config *config = NULL;
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    S(TELENORID_OK, telenorid_config_builder_new(&b));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, "https://login.example.com"));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, "sp-app"));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_REDIRECT_URI, redirect_uri));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_SCOPE, "openid profile"));
    S(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_AUTHORIZATION_ENDPOINT,
                                                 "https://login.example.com/authorize"));
    S(TELENORID_OK, telenorid_config_builder_build(b, &config));
    S(TELENORID_OK, telenorid_auth_request_new(config, &request));
    S(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
    telenorid_config_builder_free(b);
    return pending;
}

static telenorid_pending_auth *sp_pending(void) { return sp_pending_at(SP_REDIRECT); }

/* A copy of `params` with `name` replaced by `value` (NULL: dropped). */
static telenorid_params *with(const telenorid_params *params, const char *name, const char *value) {
    telenorid_params *out = NULL;
    size_t count = 0;
    telenorid_params_new(&out);
    telenorid_params_count(params, &count);
    for (size_t i = 0; i < count; i++) {
        char *key = NULL, *v = NULL;
        telenorid_params_name(params, i, &key);
        telenorid_params_value(params, i, &v);
        if (strcmp(key, name) != 0) telenorid_params_add(out, key, v);
        telenorid_string_free(key);
        telenorid_string_free(v);
    }
    if (value) telenorid_params_add(out, name, value);
    return out;
}

static void test_params(void) {
    telenorid_params *p = SENTINEL;
    size_t count = 7;
    char *s = SENTINEL;
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_params_new(NULL));
    S(TELENORID_OK, telenorid_params_new(&p));
    S(TELENORID_OK, telenorid_params_add(p, "a", "1"));
    S(TELENORID_E_MALFORMED, telenorid_params_add(p, "a", "2"));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_params_add(p, "", "2"));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_params_add(p, NULL, "2"));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_params_add(p, "b", NULL));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_params_add(NULL, "b", "2"));
    S(TELENORID_OK, telenorid_params_count(p, &count));
    CHECK(count == 1);
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_params_count(NULL, &count));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_params_count(p, NULL));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_params_name(p, 1, &s));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_params_value(p, (size_t)-1, &s));
    CHECK(s == SENTINEL);
    S(TELENORID_OK, telenorid_params_value(p, 0, &s));
    CHECK_STR("1", s);
    telenorid_string_free(s);
    /* A handle of another kind is refused, not misread. */
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_request_params((const telenorid_idp_request *)(void *)p, NULL));
    telenorid_idp_request *r = SENTINEL;
    telenorid_pending_auth *pending = sp_pending();
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_request_parse_params((const telenorid_params *)(void *)pending, NULL, 0, &r));
    CHECK(r == SENTINEL);
    telenorid_pending_auth_free(pending);
    telenorid_params_free(p);
    telenorid_params_free(NULL);
    telenorid_idp_request_free(NULL);
    telenorid_idp_response_free(NULL);
}

static void test_round_trip(int bundle_form) {
    telenorid_pending_auth *pending = sp_pending();
    telenorid_idp_request *sp = NULL, *idp = NULL;
    telenorid_idp_response *response = NULL;
    telenorid_params *pairs = NULL, *answer = NULL;
    telenorid_authorization_callback *callback = NULL;
    char *url = NULL, *authorize = NULL, *state = NULL, *code = NULL, *verifier = NULL;
    const char *callers[] = {"other.app:/cb", SP_REDIRECT};

    S(TELENORID_OK, telenorid_idp_request_new(pending, "login.example.com", "alice", &sp));
    S(TELENORID_OK, telenorid_pending_auth_state(pending, &state));
    S(TELENORID_OK, telenorid_pending_auth_code_verifier(pending, &verifier));
    if (bundle_form) {
        S(TELENORID_OK, telenorid_idp_request_params(sp, &pairs));
        char *scopes = param(pairs, "scopes");
        CHECK_STR("openid,profile", scopes);
        telenorid_string_free(scopes);
        S(TELENORID_OK, telenorid_idp_request_parse_params(pairs, callers, 2, &idp));
    } else {
        S(TELENORID_OK, telenorid_idp_request_url(sp, IDP_APP_URI, &url));
        CHECK(url && strncmp(url, IDP_APP_URI "?", strlen(IDP_APP_URI) + 1) == 0);
        CHECK(url && strstr(url, verifier) == NULL);
        S(TELENORID_OK, telenorid_idp_request_parse_url(url, IDP_APP_URI, callers, 2, &idp));
    }
    S(TELENORID_OK, telenorid_idp_request_authorization_url(idp, "https://login.example.com/authorize", &authorize));
    CHECK_CONTAINS(authorize, "client_id=sp-app");
    CHECK_CONTAINS(authorize, "code_challenge_method=S256");
    CHECK_CONTAINS(authorize, "login_hint=alice");
    CHECK_CONTAINS(authorize, "scope=openid%20profile");

    char redirect[512];
    snprintf(redirect, sizeof redirect, SP_REDIRECT "?code=the-code&state=%s", state);
    S(TELENORID_OK, telenorid_idp_request_respond(idp, redirect, "login.example.com", &response));
    if (bundle_form) {
        S(TELENORID_OK, telenorid_idp_response_params(response, &answer));
        S(TELENORID_E_ISSUER_MISMATCH,
          telenorid_pending_auth_handle_idp_response_params(pending, answer, (const char *[]){"evil.example"}, 1, &callback));
        S(TELENORID_OK, telenorid_pending_auth_handle_idp_response_params(pending, answer, NULL, 0, &callback));
    } else {
        telenorid_string_free(url);
        url = NULL;
        S(TELENORID_OK, telenorid_idp_response_url(response, &url));
        CHECK_CONTAINS(url, SP_REDIRECT "?code=the-code&login_host=login.example.com&state=");
        S(TELENORID_OK, telenorid_pending_auth_handle_idp_response_url(pending, url, NULL, 0, &callback));
    }
    S(TELENORID_OK, telenorid_authorization_callback_code(callback, &code));
    CHECK_STR("the-code", code);

    telenorid_string_free(url);
    telenorid_string_free(authorize);
    telenorid_string_free(state);
    telenorid_string_free(code);
    telenorid_string_free(verifier);
    telenorid_authorization_callback_free(callback);
    telenorid_params_free(pairs);
    telenorid_params_free(answer);
    /* Freed in creation order: the response keeps what it needs alive. */
    telenorid_idp_request_free(sp);
    telenorid_idp_request_free(idp);
    telenorid_pending_auth_free(pending);
    telenorid_idp_response_free(response);
}

static void test_refusals(void) {
    telenorid_pending_auth *pending = sp_pending();
    telenorid_idp_request *sp = NULL, *out = SENTINEL;
    telenorid_idp_response *response = SENTINEL;
    telenorid_params *good = NULL;
    telenorid_authorization_callback *callback = SENTINEL;
    char *text = SENTINEL;
    const char *callers[] = {SP_REDIRECT};

    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_request_new(NULL, NULL, NULL, &out));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_request_new(pending, NULL, NULL, NULL));
    S(TELENORID_OK, telenorid_idp_request_new(pending, NULL, NULL, &sp));
    S(TELENORID_OK, telenorid_idp_request_params(sp, &good));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_request_parse_params(good, NULL, 1, &out));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_request_parse_params(good, (const char *[]){NULL}, 1, &out));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_request_parse_url(NULL, IDP_APP_URI, callers, 1, &out));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_request_url(sp, NULL, &text));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_request_url(sp, "idpapp://x?query", &text));
    S(TELENORID_E_INSECURE, telenorid_idp_request_authorization_url(sp, "http://login.example.com/authorize", &text));
    S(TELENORID_E_REDIRECT_MISMATCH, telenorid_idp_request_parse_params(good, NULL, 0, &out));

    struct { const char *name, *value; telenorid_status status; } hostile[] = {
        {"code_challenge", "short", TELENORID_E_MALFORMED},
        {"code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-c=", TELENORID_E_MALFORMED},
        {"oauth_redirect_uri", "evil.app:/steal", TELENORID_E_REDIRECT_MISMATCH},
        {"oauth_redirect_uri", SP_REDIRECT "/", TELENORID_E_REDIRECT_MISMATCH},
        {"oauth_redirect_uri", "relative", TELENORID_E_MALFORMED},
        {"state", NULL, TELENORID_E_MALFORMED},
        {"oauth_client_id", NULL, TELENORID_E_MALFORMED},
        {"scopes", "openid,,x", TELENORID_E_MALFORMED},
        {"login_host", "a.example/path", TELENORID_E_MALFORMED},
    };
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        telenorid_params *bad = with(good, hostile[i].name, hostile[i].value);
        S(hostile[i].status, telenorid_idp_request_parse_params(bad, callers, 1, &out));
        telenorid_params_free(bad);
    }
    char *url = NULL;
    S(TELENORID_OK, telenorid_idp_request_url(sp, IDP_APP_URI, &url));
    char repeated[1024];
    snprintf(repeated, sizeof repeated, "%s&state=again", url);
    S(TELENORID_E_MALFORMED, telenorid_idp_request_parse_url(repeated, IDP_APP_URI, callers, 1, &out));
    S(TELENORID_E_REDIRECT_MISMATCH, telenorid_idp_request_parse_url(url, "otheridp://authorize", callers, 1, &out));
    CHECK(out == SENTINEL);

    /* The IdP side refuses a provider redirect with another state or to another app. */
    S(TELENORID_E_STATE_MISMATCH, telenorid_idp_request_respond(sp, SP_REDIRECT "?code=c&state=forged", "h", &response));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_request_respond(sp, SP_REDIRECT "?code=c", NULL, &response));
    CHECK(response == SENTINEL);

    /* The SP side refuses forged responses and stays open for the genuine one. */
    S(TELENORID_E_STATE_MISMATCH, telenorid_pending_auth_handle_idp_response_url(
        pending, SP_REDIRECT "?code=c&login_host=login.example.com&state=forged", NULL, 0, &callback));
    S(TELENORID_E_REDIRECT_MISMATCH, telenorid_pending_auth_handle_idp_response_url(
        pending, "evil.app:/cb?code=c&login_host=login.example.com", NULL, 0, &callback));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_handle_idp_response_params(pending, NULL, NULL, 0, &callback));
    CHECK(callback == SENTINEL && text == SENTINEL);

    telenorid_string_free(url);
    telenorid_params_free(good);
    telenorid_idp_request_free(sp);
    telenorid_pending_auth_free(pending);
}

/* RFC 6749 §3.1: parameters neither side knows (the Salesforce Mobile SDK's SP sends app_name) are
 * ignored, and nothing the library writes afterwards carries them. */
static void test_unknown_parameters(void) {
    telenorid_pending_auth *pending = sp_pending();
    telenorid_idp_request *sp = NULL, *idp = NULL, *via_url = NULL;
    telenorid_idp_response *response = NULL;
    telenorid_params *good = NULL, *extended = NULL, *again = NULL, *answer = NULL, *smuggled = NULL;
    telenorid_authorization_callback *callback = NULL;
    char *url = NULL, *authorize = NULL, *state = NULL, *value = SENTINEL;
    const char *callers[] = {SP_REDIRECT};

    S(TELENORID_OK, telenorid_idp_request_new(pending, NULL, NULL, &sp));
    S(TELENORID_OK, telenorid_pending_auth_state(pending, &state));
    S(TELENORID_OK, telenorid_idp_request_params(sp, &good));
    extended = with(good, "app_name", "Example SP");
    S(TELENORID_OK, telenorid_idp_request_parse_params(extended, callers, 1, &idp));
    S(TELENORID_OK, telenorid_idp_request_params(idp, &again));
    value = param(again, "app_name");
    CHECK(value == NULL);
    S(TELENORID_OK, telenorid_idp_request_authorization_url(idp, "https://login.example.com/authorize", &authorize));
    CHECK(authorize && strstr(authorize, "app_name") == NULL);
    S(TELENORID_OK, telenorid_idp_request_url(sp, IDP_APP_URI, &url));
    char longer[1024];
    snprintf(longer, sizeof longer, "%s&app_name=x", url ? url : "");
    S(TELENORID_OK, telenorid_idp_request_parse_url(longer, IDP_APP_URI, callers, 1, &via_url));

    char redirect[512];
    snprintf(redirect, sizeof redirect, SP_REDIRECT "?code=c&state=%s&session_state=s", state);
    S(TELENORID_OK, telenorid_idp_request_respond(idp, redirect, "login.example.com", &response));
    S(TELENORID_OK, telenorid_idp_response_params(response, &answer));
    value = param(answer, "session_state");
    CHECK(value == NULL);
    smuggled = with(answer, "access_token", "smuggled");
    S(TELENORID_OK, telenorid_pending_auth_handle_idp_response_params(pending, smuggled, NULL, 0, &callback));
    value = SENTINEL;
    S(TELENORID_OK, telenorid_authorization_callback_parameter(callback, "access_token", &value));
    CHECK(value == NULL);

    telenorid_string_free(url);
    telenorid_string_free(authorize);
    telenorid_string_free(state);
    telenorid_authorization_callback_free(callback);
    telenorid_params_free(good);
    telenorid_params_free(extended);
    telenorid_params_free(again);
    telenorid_params_free(answer);
    telenorid_params_free(smuggled);
    telenorid_idp_response_free(response);
    telenorid_idp_request_free(sp);
    telenorid_idp_request_free(idp);
    telenorid_idp_request_free(via_url);
    telenorid_pending_auth_free(pending);
}

/* RFC 6749 §3.1.2: an SP's redirect URI may have a query, which the response keeps; the redirect URI's
 * own pairs are part of the match, not of the response. */
static void test_redirect_uri_with_query(void) {
#define SP_QUERY_REDIRECT "com.example.sp:/cb?app=x"
    telenorid_pending_auth *pending = sp_pending_at(SP_QUERY_REDIRECT);
    telenorid_idp_request *sp = NULL, *idp = NULL;
    telenorid_idp_response *response = NULL;
    telenorid_authorization_callback *callback = SENTINEL;
    char *url = NULL, *state = NULL, *code = NULL, *app = SENTINEL;
    const char *callers[] = {SP_QUERY_REDIRECT};
    char redirect[512];

    S(TELENORID_OK, telenorid_idp_request_new(pending, NULL, NULL, &sp));
    S(TELENORID_OK, telenorid_pending_auth_state(pending, &state));
    S(TELENORID_OK, telenorid_idp_request_url(sp, IDP_APP_URI, &url));
    S(TELENORID_OK, telenorid_idp_request_parse_url(url, IDP_APP_URI, callers, 1, &idp));
    telenorid_string_free(url);
    url = NULL;
    /* The provider's redirect must keep app=x too. */
    snprintf(redirect, sizeof redirect, "com.example.sp:/cb?code=c&state=%s", state);
    S(TELENORID_E_REDIRECT_MISMATCH, telenorid_idp_request_respond(idp, redirect, "login.example.com", &response));
    snprintf(redirect, sizeof redirect, SP_QUERY_REDIRECT "&code=c&state=%s", state);
    S(TELENORID_OK, telenorid_idp_request_respond(idp, redirect, "login.example.com", &response));
    S(TELENORID_OK, telenorid_idp_response_url(response, &url));
    CHECK_CONTAINS(url, SP_QUERY_REDIRECT "&code=c&login_host=login.example.com&state=");
    snprintf(redirect, sizeof redirect, "com.example.sp:/cb?app=y&code=c&login_host=login.example.com&state=%s", state);
    S(TELENORID_E_REDIRECT_MISMATCH, telenorid_pending_auth_handle_idp_response_url(pending, redirect, NULL, 0, &callback));
    CHECK(callback == SENTINEL);
    S(TELENORID_OK, telenorid_pending_auth_handle_idp_response_url(pending, url, NULL, 0, &callback));
    S(TELENORID_OK, telenorid_authorization_callback_code(callback, &code));
    CHECK_STR("c", code);
    S(TELENORID_OK, telenorid_authorization_callback_parameter(callback, "app", &app));
    CHECK(app == NULL);

    telenorid_string_free(url);
    telenorid_string_free(state);
    telenorid_string_free(code);
    telenorid_authorization_callback_free(callback);
    telenorid_idp_response_free(response);
    telenorid_idp_request_free(sp);
    telenorid_idp_request_free(idp);
    telenorid_pending_auth_free(pending);
#undef SP_QUERY_REDIRECT
}

/* IdP-initiated sign-in: the IdP app's message for a chosen user, read by the SP, whose own request then
 * carries the hint back; and what the SP refuses to read. */
#define SP_APP_URI "com.example.sp://idp-initiated"
#define HINT "00D000000000001:005000000000001"

static void check_initiation_refused(telenorid_status expected, const char *url) {
    char *hint = SENTINEL, *host = SENTINEL;
    S(expected, telenorid_idp_initiation_parse_url(url, SP_APP_URI, &hint, &host));
    CHECK(hint == SENTINEL && host == SENTINEL);
}

static void check_bundle_refused(const char *user_hint, const char *login_host) {
    telenorid_params *pairs = NULL;
    char *hint = SENTINEL, *host = SENTINEL;
    telenorid_params_new(&pairs);
    if (user_hint) telenorid_params_add(pairs, "user_hint", user_hint);
    if (login_host) telenorid_params_add(pairs, "login_host", login_host);
    S(TELENORID_E_MALFORMED, telenorid_idp_initiation_parse_params(pairs, &hint, &host));
    CHECK(hint == SENTINEL && host == SENTINEL);
    telenorid_params_free(pairs);
}

static void test_idp_initiated(void) {
    telenorid_params *pairs = NULL, *looped = NULL;
    telenorid_pending_auth *pending = sp_pending();
    telenorid_idp_request *sp = NULL, *idp = NULL;
    char *url = NULL, *hint = NULL, *host = NULL, *authorize = NULL, *out = SENTINEL;
    const char *callers[] = {SP_REDIRECT};

    /* IdP side: URL and bundle. */
    S(TELENORID_OK, telenorid_idp_initiation_url(SP_APP_URI, HINT, "login.example.com:8443", &url));
    CHECK_STR(SP_APP_URI "?user_hint=00D000000000001%3A005000000000001&login_host=login.example.com%3A8443", url);
    S(TELENORID_OK, telenorid_idp_initiation_params(HINT, "login.example.com", &pairs));
    char *value = param(pairs, "user_hint");
    CHECK_STR(HINT, value);
    telenorid_string_free(value);

    /* SP side: reads it, then loops the hint back in its own request. */
    S(TELENORID_OK, telenorid_idp_initiation_parse_url(url, SP_APP_URI, &hint, &host));
    CHECK_STR(HINT, hint);
    CHECK_STR("login.example.com:8443", host);
    telenorid_string_free(hint);
    telenorid_string_free(host);
    S(TELENORID_OK, telenorid_idp_initiation_parse_params(pairs, &hint, &host));
    CHECK_STR(HINT, hint);
    CHECK_STR("login.example.com", host);
    S(TELENORID_OK, telenorid_idp_request_new(pending, host, hint, &sp));
    S(TELENORID_OK, telenorid_idp_request_params(sp, &looped));
    S(TELENORID_OK, telenorid_idp_request_parse_params(looped, callers, 1, &idp));
    S(TELENORID_OK, telenorid_idp_request_authorization_url(idp, "https://login.example.com/authorize", &authorize));
    CHECK_CONTAINS(authorize, "login_hint=00D000000000001%3A005000000000001");

    /* NULL in every pointer; the IdP side refuses a message it must not make. */
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_url(NULL, HINT, "h", &out));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_url(SP_APP_URI, NULL, "h", &out));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_url(SP_APP_URI, HINT, NULL, &out));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_url(SP_APP_URI, HINT, "h", NULL));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_url(SP_APP_URI "?q=1", HINT, "h", &out));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_url(SP_APP_URI, "a\nb", "h", &out));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_url(SP_APP_URI, HINT, "h/path", &out));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_params(NULL, "h", (telenorid_params **)&out));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_params(HINT, NULL, (telenorid_params **)&out));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_params(HINT, "h", NULL));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_params("", "h", (telenorid_params **)&out));
    CHECK(out == SENTINEL);
    char *h2 = SENTINEL, *l2 = SENTINEL;
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_parse_url(NULL, SP_APP_URI, &h2, &l2));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_parse_url(url, NULL, &h2, &l2));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_parse_url(url, SP_APP_URI, NULL, &l2));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_parse_url(url, SP_APP_URI, &h2, NULL));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_parse_params(NULL, &h2, &l2));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_parse_params(pairs, NULL, &l2));
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_idp_initiation_parse_params(pairs, &h2, NULL));
    S(TELENORID_E_INVALID_ARGUMENT,
      telenorid_idp_initiation_parse_params((const telenorid_params *)pending, &h2, &l2));
    CHECK(h2 == SENTINEL && l2 == SENTINEL);

    /* Unknown members are ignored and not kept. */
    telenorid_string_free(hint);
    telenorid_string_free(host);
    S(TELENORID_OK, telenorid_idp_initiation_parse_url(SP_APP_URI "?app_name=x&user_hint=u&code=c&login_host=h",
                                                       SP_APP_URI, &hint, &host));
    CHECK_STR("u", hint);
    CHECK_STR("h", host);

    /* Refused: another app's URI, a repeated, missing, oversized or hostile member, a login host that is
     * more than host[:port]. */
    check_initiation_refused(TELENORID_E_REDIRECT_MISMATCH, "evil.app://idp-initiated?user_hint=u&login_host=h");
    check_initiation_refused(TELENORID_E_MALFORMED, SP_APP_URI "?user_hint=u&user_hint=v&login_host=h");
    check_initiation_refused(TELENORID_E_MALFORMED, SP_APP_URI "?user_hint=u");
    check_initiation_refused(TELENORID_E_MALFORMED, SP_APP_URI "?login_host=h");
    check_initiation_refused(TELENORID_E_MALFORMED, SP_APP_URI "?user_hint=&login_host=h");
    check_initiation_refused(TELENORID_E_MALFORMED, SP_APP_URI "?user_hint=a%0D%0Ab&login_host=h");
    check_initiation_refused(TELENORID_E_MALFORMED, SP_APP_URI "?user_hint=a%00b&login_host=h");
    check_initiation_refused(TELENORID_E_MALFORMED, SP_APP_URI "?user_hint=%C3%A5&login_host=h");
    check_initiation_refused(TELENORID_E_MALFORMED, SP_APP_URI "?user_hint=u&login_host=evil.example%2Fpath");
    check_initiation_refused(TELENORID_E_MALFORMED, SP_APP_URI "?user_hint=u&login_host=me%40evil.example");
    check_initiation_refused(TELENORID_E_MALFORMED, SP_APP_URI "?user_hint=u&login_host=");
    char long_hint[300];
    memset(long_hint, 'a', sizeof long_hint - 1);
    long_hint[sizeof long_hint - 1] = 0;
    check_bundle_refused(long_hint, "h");
    long_hint[255] = 0;
    telenorid_params *max = NULL;
    telenorid_params_new(&max);
    telenorid_params_add(max, "user_hint", long_hint);
    telenorid_params_add(max, "login_host", "h");
    telenorid_string_free(hint);
    S(TELENORID_OK, telenorid_idp_initiation_parse_params(max, &hint, &out));
    CHECK_STR(long_hint, hint);
    telenorid_string_free(out);
    telenorid_params_free(max);
    check_bundle_refused("a\tb", "h");
    check_bundle_refused(NULL, "h");
    check_bundle_refused("u", NULL);
    check_bundle_refused("u", "h:port");

    telenorid_string_free(url);
    telenorid_string_free(hint);
    telenorid_string_free(host);
    telenorid_string_free(authorize);
    telenorid_params_free(pairs);
    telenorid_params_free(looped);
    telenorid_idp_request_free(sp);
    telenorid_idp_request_free(idp);
    telenorid_pending_auth_free(pending);
}
#undef HINT
#undef SP_APP_URI

int main(void) {
    test_params();
    test_round_trip(0);
    test_round_trip(1);
    test_refusals();
    test_unknown_parameters();
    test_redirect_uri_with_query();
    test_idp_initiated();
    return finish_checks();
}
