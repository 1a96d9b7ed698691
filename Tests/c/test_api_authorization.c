/* Authorization: PKCE, the authorization request, the pending authorization and its serialization, callbacks
 * (redirect and app-to-app), and requests and callbacks shared between threads. Part of test_api. */
#include "api_support.h"

/* ------------------------------------------------------------------------------------------------
 * PKCE
 * --------------------------------------------------------------------------------------------- */

static char *pkce_string(telenorid_status (*getter)(const telenorid_pkce *, char **), const telenorid_pkce *pkce) {
    char *value = SENTINEL;
    if (!CHECK_STATUS(TELENORID_OK, getter(pkce, &value))) return NULL;
    return take(value);
}

static char *s256(const char *verifier) {
    telenorid_pkce *pkce = NULL;
    if (!CHECK_STATUS(TELENORID_OK, telenorid_pkce_from_verifier(verifier, &pkce))) return NULL;
    char *challenge = pkce_string(telenorid_pkce_challenge, pkce);
    telenorid_pkce_free(pkce);
    return challenge;
}

void test_pkce(void) {
    telenorid_pkce *pkce = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pkce_from_verifier(RFC7636_VERIFIER, &pkce));
    char *challenge = pkce_string(telenorid_pkce_challenge, pkce);
    char *verifier = pkce_string(telenorid_pkce_verifier, pkce);
    CHECK_STR(RFC7636_CHALLENGE, challenge);
    CHECK_STR(RFC7636_VERIFIER, verifier);
    free(challenge);
    free(verifier);
    telenorid_pkce_free(pkce);

    const size_t lengths[] = {0, 43, 64, 100, 128};
    const size_t expected[] = {64, 43, 64, 100, 128};
    char *previous = NULL;
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        pkce = NULL;
        if (!CHECK_STATUS(TELENORID_OK, telenorid_pkce_new(lengths[i], &pkce))) continue;
        verifier = pkce_string(telenorid_pkce_verifier, pkce);
        challenge = pkce_string(telenorid_pkce_challenge, pkce);
        CHECK(verifier && strlen(verifier) == expected[i]);
        CHECK(verifier && strspn(verifier, UNRESERVED) == expected[i]);
        /* The challenge is the S256 of the verifier: 43 base64url characters, no padding. */
        CHECK(challenge && strlen(challenge) == 43 && strspn(challenge, BASE64URL) == 43);
        char *recomputed = verifier ? s256(verifier) : NULL;
        CHECK(challenge && recomputed && strcmp(challenge, recomputed) == 0);
        CHECK(!previous || !verifier || strcmp(previous, verifier) != 0); /* fresh randomness each time */
        free(recomputed);
        free(challenge);
        free(previous);
        previous = verifier;
        telenorid_pkce_free(pkce);
    }
    free(previous);

    pkce = SENTINEL;
    const size_t refused[] = {1, 42, 129, 1000, SIZE_MAX, (size_t)INT_MAX + 1};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        prime_last_error();
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_new(refused[i], &pkce));
        CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, NULL);
    }
    char *v42 = big_string(42, 'a'), *v43 = big_string(43, 'a'), *v128 = big_string(128, '~'), *v129 = big_string(129, 'a');
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier(v42, &pkce));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier(v129, &pkce));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier("", &pkce));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier("short", &pkce));
    v43[10] = '+';
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier(v43, &pkce)); /* not unreserved */
    v43[10] = ' ';
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier(v43, &pkce));
    CHECK(pkce == SENTINEL);
    v43[10] = '.';
    telenorid_pkce *edge = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pkce_from_verifier(v43, &edge));
    telenorid_pkce_free(edge);
    edge = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pkce_from_verifier(v128, &edge));
    telenorid_pkce_free(edge);
    free(v42);
    free(v43);
    free(v128);
    free(v129);
}

/* ------------------------------------------------------------------------------------------------
 * Authorization request and pending authorization
 * --------------------------------------------------------------------------------------------- */

/* The claims request of the OIDC claims request for native apps (OIDC Core §5.5) (with the top-level purpose), plus a values list. */
static const char native_app_claims[] =
    "{\"purpose\":\"This is why RP is asking for your information\","
    "\"id_token\":{\"given_name\":{\"essential\":true,\"purpose\":\"This is why RP needs your name\"},"
    "\"phone_number\":{\"essential\":true,\"purpose\":\"This is why RP needs your phone number\"},"
    "\"birthdate\":{\"essential\":true,\"purpose\":\"This is why RP needs your DOB\"},"
    "\"acr\":{\"values\":[\"urn:a\",\"urn:b\"]}},"
    "\"userinfo\":{\"birthdate\":{\"essential\":true},\"email\":null}}";

void test_auth_request(void) {
    telenorid_config *config = make_config();
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));

    /* Every typed parameter. */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_SCOPE, "openid profile phone"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_PROMPT, "login consent"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_LOGIN_HINT, "\xc3\x85se+47@example.com"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_UI_LOCALES, "nb en"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_ACR_VALUES, "urn:a urn:b"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_MAX_AGE, "300"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_ALOHA_TOKEN, "aloha-uuid-1"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_CLAIMS_PURPOSE,
                                                          "This is why RP is asking for your information"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_RESPONSE_MODE, "query"));
    /* Typed values are checked. */
    const char *bad_max_age[] = {"5m", "-1", "", "12345678901", "1.5"};
    for (size_t i = 0; i < sizeof bad_max_age / sizeof bad_max_age[0]; i++) {
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set(request, TELENORID_AUTH_MAX_AGE, bad_max_age[i]));
    }
    telenorid_status mode = telenorid_auth_request_set(request, TELENORID_AUTH_RESPONSE_MODE, "form_post");
    CHECK(mode == TELENORID_E_UNSUPPORTED || mode == TELENORID_E_INVALID_ARGUMENT);
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set(request, TELENORID_AUTH_SCOPE, ""));

    /* Claims as in the OIDC claims request for native apps (OIDC Core §5.5). */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "given_name", 1, "This is why RP needs your name", NULL, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "phone_number", 1, "This is why RP needs your phone number", NULL, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "birthdate", 1, "This is why RP needs your DOB", NULL, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "acr", -1, NULL, NULL, "[\"urn:a\",\"urn:b\"]"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "birthdate", 1, NULL, NULL, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "email", -1, NULL, NULL, NULL));
    /* The same claim twice for one target conflicts; bad claim arguments are refused. */
    CHECK_STATUS(TELENORID_E_PARAMETER_CONFLICT, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "given_name", 0, NULL, NULL, NULL));
    CHECK_STATUS(TELENORID_E_PARAMETER_CONFLICT, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "email", 1, NULL, NULL, NULL));
    CHECK_STATUS(TELENORID_E_MALFORMED, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "x", -1, NULL, "{bad", NULL));
    CHECK_STATUS(TELENORID_E_MALFORMED, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "x", -1, NULL, NULL, "{}"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "x", -1, NULL, "1", "[1]"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "", -1, NULL, NULL, NULL));

    /* Extra parameters: the library's own names, and any name twice, conflict. */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_parameter(request, "resource", "https://api.example.com/"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_parameter(request, "x-empty", ""));
    const char *owned[] = {"response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
                           "code_challenge_method", "claims", "prompt", "login_hint", "ui_locales", "acr_values",
                           "max_age", "aloha_token", "response_mode", "requested_flow", "app_callback_uri", "resource"};
    for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++) {
        prime_last_error();
        if (!CHECK_STATUS(TELENORID_E_PARAMETER_CONFLICT, telenorid_auth_request_add_parameter(request, owned[i], "mine"))) {
            fprintf(stderr, "  name %s\n", owned[i]);
        }
        CHECK_LAST_ERROR(TELENORID_E_PARAMETER_CONFLICT, owned[i]);
    }
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_parameter(request, "", "v"));

    /* PKCE method: plain is refused by this configuration; unknown methods are refused. */
    CHECK_STATUS(TELENORID_E_UNSUPPORTED, telenorid_auth_request_set_pkce_method(request, TELENORID_PKCE_PLAIN));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set_pkce_method(request, TELENORID_PKCE_S256));

    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    char *url = pending_string(telenorid_pending_auth_url, pending);
    char *state = pending_string(telenorid_pending_auth_state, pending);
    char *nonce = pending_string(telenorid_pending_auth_nonce, pending);
    char *verifier = pending_string(telenorid_pending_auth_code_verifier, pending);
    char *challenge = verifier ? s256(verifier) : NULL;
    static const char prefix[] = "https://api.vipps.no/oauth2/auth?response_type=code&client_id=tnn-example&redirect_uri="
                                 "telenorid-example%3A%2F%2Fauthcallback%2F&scope=openid%20profile%20phone&state=";
    CHECK(url && strncmp(url, prefix, sizeof prefix - 1) == 0);
    /* 256-bit state and nonce: 43 base64url characters each; a 43-character base64url verifier (RFC 7636 §4.1). */
    CHECK(state && strlen(state) == 43 && strspn(state, BASE64URL) == 43);
    CHECK(nonce && strlen(nonce) == 43 && strspn(nonce, BASE64URL) == 43);
    CHECK(verifier && strlen(verifier) == 43 && strspn(verifier, BASE64URL) == 43);
    CHECK(state && nonce && strcmp(state, nonce) != 0);
    CHECK_PARAM(url, "response_type", "code");
    CHECK_PARAM(url, "client_id", "tnn-example");
    CHECK_PARAM(url, "redirect_uri", REDIRECT);
    CHECK_PARAM(url, "scope", "openid profile phone");
    CHECK_PARAM(url, "state", state);
    CHECK_PARAM(url, "nonce", nonce);
    CHECK_PARAM(url, "code_challenge", challenge);
    CHECK_PARAM(url, "code_challenge_method", "S256");
    CHECK_PARAM(url, "prompt", "login consent");
    CHECK_PARAM(url, "login_hint", "\xc3\x85se+47@example.com");
    CHECK_PARAM(url, "ui_locales", "nb en");
    CHECK_PARAM(url, "acr_values", "urn:a urn:b");
    CHECK_PARAM(url, "max_age", "300");
    CHECK_PARAM(url, "aloha_token", "aloha-uuid-1");
    CHECK_PARAM(url, "response_mode", "query");
    CHECK_PARAM(url, "claims", native_app_claims);
    CHECK_PARAM(url, "resource", "https://api.example.com/");
    CHECK_PARAM(url, "x-empty", "");
    CHECK_PARAM(url, "purpose", NULL);         /* the claims purpose lives inside claims */
    CHECK_PARAM(url, "requested_flow", NULL);  /* only with app-to-app */
    CHECK_PARAM(url, "code_verifier", NULL);   /* the secret never goes into the URL */
    CHECK(url && verifier && strstr(url, verifier) == NULL);
    CHECK(url && strstr(url, "+") == NULL);     /* spaces as %20, "+" as %2B */
    CHECK_CONTAINS(url, "login_hint=%C3%85se%2B47");

    /* The request stays usable: a second build draws fresh secrets; clearing a value drops it. */
    telenorid_pending_auth *again = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_PROMPT, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_SCOPE, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &again));
    char *url2 = pending_string(telenorid_pending_auth_url, again);
    char *state2 = pending_string(telenorid_pending_auth_state, again);
    char *nonce2 = pending_string(telenorid_pending_auth_nonce, again);
    char *verifier2 = pending_string(telenorid_pending_auth_code_verifier, again);
    CHECK(state && state2 && strcmp(state, state2) != 0);
    CHECK(nonce && nonce2 && strcmp(nonce, nonce2) != 0);
    CHECK(verifier && verifier2 && strcmp(verifier, verifier2) != 0);
    CHECK_PARAM(url2, "prompt", NULL);
    CHECK_PARAM(url2, "scope", "openid profile"); /* back to the configuration's */
    free(url2);
    free(state2);
    free(nonce2);
    free(verifier2);
    telenorid_pending_auth_free(again);
    free(url);
    free(state);
    free(nonce);
    free(verifier);
    free(challenge);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);

    /* A value_json claim; essential false. */
    pending = NULL;
    request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "nickname", 0, NULL, "\"x\"", NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    url = pending_string(telenorid_pending_auth_url, pending);
    CHECK_PARAM(url, "claims", "{\"userinfo\":{\"nickname\":{\"essential\":false,\"value\":\"x\"}}}");
    free(url);
    telenorid_pending_auth_free(pending);

    /* App-to-app (Vipps Login app-to-app): requested_flow together with app_callback_uri. */
    pending = NULL;
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set_app_to_app(request, "not a uri"));
    CHECK_STATUS(TELENORID_E_INSECURE, telenorid_auth_request_set_app_to_app(request, "http://merchant.example/cb"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set_app_to_app(request, "https://example.com/app-callback"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    url = pending_string(telenorid_pending_auth_url, pending);
    CHECK_PARAM(url, "requested_flow", "app_to_app");
    CHECK_PARAM(url, "app_callback_uri", "https://example.com/app-callback");
    CHECK_PARAM(url, "redirect_uri", REDIRECT);
    free(url);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_config_free(config);

    /* Plain PKCE when the configuration allows it: the challenge is the verifier. An endpoint with a query
     * keeps it. Without an authorization endpoint there is nothing to build. */
    telenorid_config_builder *b = builder_with("https://id.example.com", "c", "app://cb");
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ALLOW_PLAIN_PKCE, "true"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONFIGURATION, pending, telenorid_auth_request_build(request, &pending));
    CHECK_LAST_ERROR(TELENORID_E_CONFIGURATION, "authorization_endpoint");
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_AUTHORIZATION_ENDPOINT, "https://id.example.com/auth?tenant=t1"));
    config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    request = NULL;
    pending = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set_pkce_method(request, TELENORID_PKCE_PLAIN));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    url = pending_string(telenorid_pending_auth_url, pending);
    verifier = pending_string(telenorid_pending_auth_code_verifier, pending);
    CHECK(url && strncmp(url, "https://id.example.com/auth?tenant=t1&response_type=code&", 56) == 0);
    CHECK_PARAM(url, "code_challenge_method", "plain");
    CHECK_PARAM(url, "code_challenge", verifier);
    CHECK_PARAM(url, "scope", "openid"); /* the default scope */
    free(url);
    free(verifier);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
    telenorid_config_builder_free(b);
}

void test_pending_serialization(void) {
    telenorid_config *config = make_config();
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL, *restored = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_MAX_AGE, "60"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set_app_to_app(request, APP_CALLBACK));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    char *json = pending_string(telenorid_pending_auth_serialize, pending);
    CHECK_CONTAINS(json, "\"version\":1");
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_restore(config, json ? json : "", &restored));
    telenorid_status (*const getters[])(const telenorid_pending_auth *, char **) = {
        telenorid_pending_auth_url, telenorid_pending_auth_state, telenorid_pending_auth_nonce,
        telenorid_pending_auth_code_verifier, telenorid_pending_auth_serialize};
    for (size_t i = 0; i < sizeof getters / sizeof getters[0]; i++) {
        char *a = pending_string(getters[i], pending), *b = pending_string(getters[i], restored);
        CHECK(a && b && strcmp(a, b) == 0);
        free(a);
        free(b);
    }
    /* The restored request checks callbacks like the original, the app callback included. */
    char *app = with_state(pending, APP_CALLBACK "?state=", "");
    telenorid_app_callback *app_callback = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_app_callback(restored, app, NULL, &app_callback));
    telenorid_app_callback_free(app_callback);
    free(app);
    telenorid_authorization_callback *callback = make_callback(restored, REDIRECT "?code=restored&state=");
    char *code = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_authorization_callback_code(callback, &code));
    CHECK_STR("restored", code);
    telenorid_string_free(code);
    telenorid_authorization_callback_free(callback);

    /* Refusals: another issuer, client or redirect URI, an unknown version, not JSON, missing members. */
    telenorid_pending_auth *bad = SENTINEL;
    telenorid_config_builder *b = builder_with("https://id.example.com", "someone-else", REDIRECT);
    telenorid_config *other = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &other));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONFIGURATION, bad, telenorid_pending_auth_restore(other, json ? json : "", &bad));
    telenorid_config_free(other);
    telenorid_config_builder_free(b);
    /* Another provider, same client id and redirect URI (as an auth state's restore refuses too). */
    b = builder_with("https://other.example.com", "tnn-example", REDIRECT);
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &other));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONFIGURATION, bad, telenorid_pending_auth_restore(other, json ? json : "", &bad));
    telenorid_config_free(other);
    telenorid_config_builder_free(b);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_VERSION, bad, telenorid_pending_auth_restore(config, "{\"version\":7}", &bad));
    CHECK_LAST_ERROR(TELENORID_E_VERSION, NULL);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_pending_auth_restore(config, "{\"version\":1}", &bad));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_pending_auth_restore(config, "{}", &bad));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_pending_auth_restore(config, "not json", &bad));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_pending_auth_restore(config, "[1]", &bad));
    free(json);
    telenorid_pending_auth_free(restored);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
}

/* ------------------------------------------------------------------------------------------------
 * Callbacks
 * --------------------------------------------------------------------------------------------- */

void test_callbacks(void) {
    telenorid_config *config = make_config();
    telenorid_pending_auth *pending = make_pending(config, 0);
    telenorid_authorization_callback *callback = SENTINEL;
    char *url, *s = NULL;

    static const struct { const char *prefix; const char *suffix; telenorid_status expected; } refused[] = {
        {REDIRECT "?code=c&state=forged", NULL, TELENORID_E_STATE_MISMATCH},
        {REDIRECT "?code=c", NULL, TELENORID_E_STATE_MISMATCH},                        /* no state */
        {"evil://authcallback/?code=c&state=", "", TELENORID_E_REDIRECT_MISMATCH},
        {"telenorid-example://other/?code=c&state=", "", TELENORID_E_REDIRECT_MISMATCH},
        {"telenorid-example://authcallback/x?code=c&state=", "", TELENORID_E_REDIRECT_MISMATCH},
        {"telenorid-example://authcallback:99/?code=c&state=", "", TELENORID_E_REDIRECT_MISMATCH},
        {"not a url", NULL, TELENORID_E_MALFORMED},
        {"", NULL, TELENORID_E_MALFORMED},
        {REDIRECT "?code=c&code=d&state=", "", TELENORID_E_MALFORMED},                 /* repeated */
        {REDIRECT "?state=", "", TELENORID_E_MALFORMED},                                /* neither code nor error */
        {REDIRECT "?code=&state=", "", TELENORID_E_MALFORMED},                          /* empty code */
        {REDIRECT "?code=c&iss=https%3A%2F%2Fevil.example&state=", "", TELENORID_E_ISSUER_MISMATCH},
        {REDIRECT "?code=c&state=", "&state=again", TELENORID_E_MALFORMED},
        {REDIRECT "#code=c&state=", "", TELENORID_E_STATE_MISMATCH},                   /* query mode: fragment ignored */
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        url = refused[i].suffix ? with_state(pending, refused[i].prefix, refused[i].suffix) : xstrdup(refused[i].prefix);
        prime_last_error();
        if (!CHECK_STATUS(refused[i].expected, telenorid_pending_auth_handle_callback(pending, url, &callback))) {
            fprintf(stderr, "  url %s\n", url);
        }
        CHECK_LAST_ERROR(refused[i].expected, NULL);
        free(url);
    }
    CHECK(callback == SENTINEL);

    /* The provider's error answer: AUTHORIZATION_ERROR with the OAuth fields in the last error. */
    url = with_state(pending, REDIRECT "?error=access_denied&error_description=No+thanks%2C+%C3%85se"
                              "&error_uri=https%3A%2F%2Fe.example%2Fwhy&state=", "");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_AUTHORIZATION_ERROR, callback, telenorid_pending_auth_handle_callback(pending, url, &callback));
    free(url);
    telenorid_error *e = telenorid_error_last();
    CHECK(telenorid_error_status(e) == TELENORID_E_AUTHORIZATION_ERROR);
    CHECK_STR("access_denied", telenorid_error_oauth_error(e));
    CHECK_STR("No thanks, \xc3\x85se", telenorid_error_oauth_description(e));
    CHECK_STR("https://e.example/why", telenorid_error_oauth_uri(e));
    CHECK_CONTAINS(telenorid_error_message(e), "access_denied");
    CHECK(telenorid_error_http_status(e) == 0);
    telenorid_error_free(e);
    /* Without description and uri, those read NULL; a NUL in a hostile description cuts it there. */
    url = with_state(pending, REDIRECT "?error=server_error&state=", "");
    CHECK_STATUS(TELENORID_E_AUTHORIZATION_ERROR, telenorid_pending_auth_handle_callback(pending, url, &callback));
    free(url);
    e = telenorid_error_last();
    CHECK_STR("server_error", telenorid_error_oauth_error(e));
    CHECK(telenorid_error_oauth_description(e) == NULL);
    CHECK(telenorid_error_oauth_uri(e) == NULL);
    telenorid_error_free(e);
    url = with_state(pending, REDIRECT "?error=x&error_description=before%00after&state=", "");
    CHECK_STATUS(TELENORID_E_AUTHORIZATION_ERROR, telenorid_pending_auth_handle_callback(pending, url, &callback));
    free(url);
    e = telenorid_error_last();
    CHECK_STR("before", telenorid_error_oauth_description(e));
    telenorid_error_free(e);
    /* An error with a forged state is a state mismatch first. */
    CHECK_STATUS(TELENORID_E_STATE_MISMATCH, telenorid_pending_auth_handle_callback(pending, REDIRECT "?error=access_denied&error_description=Call%20us&state=forged", &callback));
    /* ... and what a forged callback says is not passed on as the provider's word. */
    e = telenorid_error_last();
    CHECK(telenorid_error_oauth_error(e) == NULL && telenorid_error_oauth_description(e) == NULL);
    telenorid_error_free(e);

    /* A code holding NUL could never be handed out whole as a C string: refused when the callback is
     * parsed, before the request is used up. */
    url = with_state(pending, REDIRECT "?code=c%00d&state=", "");
    telenorid_authorization_callback *with_nul = SENTINEL;
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, with_nul, telenorid_pending_auth_handle_callback(pending, url, &with_nul));
    free(url);
    telenorid_pending_auth_free(pending);

    /* Success, then the request is consumed. None of the failures above consumed it. */
    pending = make_pending(config, 0);
    url = with_state(pending, REDIRECT "?code=abc%2F1&scope=openid+profile&iss=https%3A%2F%2Fid.example.com&state=", "");
    callback = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_callback(pending, url, &callback));
    s = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_authorization_callback_code(callback, &s));
    CHECK_STR("abc/1", s);
    telenorid_string_free(s);
    s = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_authorization_callback_parameter(callback, "scope", &s));
    CHECK_STR("openid profile", s);
    telenorid_string_free(s);
    s = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_authorization_callback_parameter(callback, "iss", &s));
    CHECK_STR("https://id.example.com", s);
    telenorid_string_free(s);
    s = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_authorization_callback_parameter(callback, "session_state", &s));
    CHECK(s == NULL); /* absent: OK with *out = NULL */
    s = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_authorization_callback_parameter(callback, "", &s));
    CHECK(s == NULL);
    telenorid_authorization_callback *second = SENTINEL;
    prime_last_error();
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONSUMED, second, telenorid_pending_auth_handle_callback(pending, url, &second));
    CHECK_LAST_ERROR(TELENORID_E_CONSUMED, NULL);
    free(url);
    telenorid_authorization_callback_free(callback);
    telenorid_pending_auth_free(pending);

    /* response_mode=fragment: the answer is in the fragment, not the query. */
    telenorid_auth_request *request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_RESPONSE_MODE, "fragment"));
    pending = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    telenorid_auth_request_free(request);
    url = with_state(pending, REDIRECT "?code=q&state=", "");
    CHECK_STATUS(TELENORID_E_STATE_MISMATCH, telenorid_pending_auth_handle_callback(pending, url, &second));
    free(url);
    callback = make_callback(pending, REDIRECT "#code=frag&state=");
    s = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_authorization_callback_code(callback, &s));
    CHECK_STR("frag", s);
    telenorid_string_free(s);
    telenorid_authorization_callback_free(callback);
    telenorid_pending_auth_free(pending);
    telenorid_config_free(config);
}

void test_app_callbacks(void) {
    /* Vipps Login app-to-app's callbacks; the authorization endpoint's host is api.vipps.no. */
    telenorid_config *config = make_config();
    telenorid_pending_auth *pending = make_pending(config, 1);
    telenorid_app_callback *callback = NULL;
    char *url, *s = NULL;

    url = with_state(pending, APP_CALLBACK "?state=", "&resume_uri=https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t");
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    free(url);
    CHECK_STATUS(TELENORID_OK, telenorid_app_callback_resume_uri(callback, &s));
    CHECK_STR("https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t", s);
    telenorid_string_free(s);
    telenorid_app_callback_free(callback);

    /* Encoded, with the trailing slash Vipps' documented example adds. */
    callback = NULL;
    url = with_state(pending, APP_CALLBACK "/?state=", "&resume_uri=https%3A%2F%2Fapi.vipps.no%2Fvipps-login-idp%2Findex.html%3FtabId%3D7607f7f0");
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    free(url);
    s = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_app_callback_resume_uri(callback, &s));
    CHECK_STR("https://api.vipps.no/vipps-login-idp/index.html?tabId=7607f7f0", s);
    telenorid_string_free(s);
    telenorid_app_callback_free(callback);

    /* No resume_uri: OK, *out = NULL (the open browser carries on). */
    callback = NULL;
    url = with_state(pending, APP_CALLBACK "?state=", "");
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    free(url);
    s = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_app_callback_resume_uri(callback, &s));
    CHECK(s == NULL);
    telenorid_app_callback_free(callback);

    /* Vipps' documented malformed error form "state=...?error=unknown_error", and the well-formed one. */
    const char *error_suffixes[] = {"?error=unknown_error", "&error=unknown_error"};
    for (size_t i = 0; i < 2; i++) {
        callback = SENTINEL;
        url = with_state(pending, APP_CALLBACK "?state=", error_suffixes[i]);
        prime_last_error();
        CHECK_FAILS_UNTOUCHED(TELENORID_E_AUTHORIZATION_ERROR, callback,
                              telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
        free(url);
        telenorid_error *e = telenorid_error_last();
        CHECK(telenorid_error_status(e) == TELENORID_E_AUTHORIZATION_ERROR);
        CHECK_STR("unknown_error", telenorid_error_oauth_error(e));
        telenorid_error_free(e);
    }

    /* resume_uri must be https on the allowed host: the authorization endpoint's unless one is given. */
    const char *refused_resume[] = {"https%3A%2F%2Fevil.example%2F", "http%3A%2F%2Fapi.vipps.no%2Fx",
                                    "https%3A%2F%2Fapi.vipps.no.evil.example%2Fx", "https%3A%2F%2Fuser%40api.vipps.no%2Fx",
                                    "javascript%3Aalert(1)"};
    for (size_t i = 0; i < sizeof refused_resume / sizeof refused_resume[0]; i++) {
        char *suffix = concat("&resume_uri=", refused_resume[i], NULL, NULL);
        url = with_state(pending, APP_CALLBACK "?state=", suffix);
        telenorid_status status = telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback);
        if (!CHECK(status == TELENORID_E_INSECURE || (i == 4 && status == TELENORID_E_MALFORMED))) {
            fprintf(stderr, "  resume_uri %s gave %d\n", refused_resume[i], status);
        }
        free(suffix);
        free(url);
    }
    url = with_state(pending, APP_CALLBACK "?state=", "&resume_uri=https%3A%2F%2Fevil.example%2F");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INSECURE, callback, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    CHECK_LAST_ERROR(TELENORID_E_INSECURE, "api.vipps.no");
    free(url);
    url = with_state(pending, APP_CALLBACK "?state=", "&resume_uri=https%3A%2F%2Flogin.example%2Fr");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INSECURE, callback, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    callback = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_app_callback(pending, url, "login.example", &callback));
    free(url);
    s = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_app_callback_resume_uri(callback, &s));
    CHECK_STR("https://login.example/r", s);
    telenorid_string_free(s);
    telenorid_app_callback_free(callback);

    /* State and target are checked. */
    CHECK_FAILS_UNTOUCHED(TELENORID_E_STATE_MISMATCH, callback,
                          telenorid_pending_auth_handle_app_callback(pending, APP_CALLBACK "?state=nope", NULL, &callback));
    url = with_state(pending, "otherapp://app-callback?state=", "");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_REDIRECT_MISMATCH, callback, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    free(url);

    /* The app callback does not consume the request: the code still arrives at the redirect URI. */
    telenorid_authorization_callback *code_callback = make_callback(pending, REDIRECT "?code=after-app&state=");
    CHECK(code_callback != NULL);
    telenorid_authorization_callback_free(code_callback);
    telenorid_pending_auth_free(pending);

    /* A request that did not ask for app-to-app has no app callback. */
    pending = make_pending(config, 0);
    url = with_state(pending, APP_CALLBACK "?state=", "");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONFIGURATION, callback, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    free(url);
    telenorid_pending_auth_free(pending);
    telenorid_config_free(config);
}

/* ------------------------------------------------------------------------------------------------
 * Threads
 * --------------------------------------------------------------------------------------------- */

#define RACE_ROUNDS 10

struct race {
    pthread_barrier_t *start;
    const telenorid_pending_auth *pending;
    const char *url;
    telenorid_status status;
    char *code;
};

static void *race_callback(void *arg) {
    struct race *r = arg;
    telenorid_authorization_callback *callback = NULL;
    pthread_barrier_wait(r->start);
    r->status = telenorid_pending_auth_handle_callback(r->pending, r->url, &callback);
    if (r->status == TELENORID_OK) {
        char *code = NULL;
        if (telenorid_authorization_callback_code(callback, &code) == TELENORID_OK) r->code = take(code);
    }
    telenorid_authorization_callback_free(callback);
    return NULL;
}

/* Eight threads share one configuration and one pending request and race the same correct redirect:
 * exactly one gets the code, the others TELENORID_E_CONSUMED. */
void test_callback_race(void) {
    telenorid_config *config = make_config();
    for (int round = 0; round < RACE_ROUNDS; round++) {
        telenorid_pending_auth *pending = make_pending(config, 0);
        char *url = with_state(pending, REDIRECT "?code=race&state=", "");
        pthread_barrier_t start;
        pthread_barrier_init(&start, NULL, RACERS);
        pthread_t threads[RACERS];
        struct race races[RACERS];
        for (int i = 0; i < RACERS; i++) {
            races[i] = (struct race){&start, pending, url, -1, NULL};
            CHECK(pthread_create(&threads[i], NULL, race_callback, &races[i]) == 0);
        }
        int ok = 0, consumed = 0;
        for (int i = 0; i < RACERS; i++) {
            pthread_join(threads[i], NULL);
            ok += races[i].status == TELENORID_OK;
            consumed += races[i].status == TELENORID_E_CONSUMED;
            if (races[i].status == TELENORID_OK) CHECK_STR("race", races[i].code);
            free(races[i].code);
        }
        if (!CHECK(ok == 1 && consumed == RACERS - 1)) fprintf(stderr, "  round %d: %d OK, %d consumed\n", round, ok, consumed);
        pthread_barrier_destroy(&start);
        free(url);
        telenorid_pending_auth_free(pending);
    }
    telenorid_config_free(config);
}

#define SHARED_ADDS 50

struct shared_request {
    pthread_barrier_t *start;
    telenorid_auth_request *request;
    int thread;
    int failures;
};

static void *add_and_build(void *arg) {
    struct shared_request *r = arg;
    pthread_barrier_wait(r->start);
    for (int i = 0; i < SHARED_ADDS; i++) {
        char name[32];
        snprintf(name, sizeof name, "x%d_%d", r->thread, i);
        r->failures += telenorid_auth_request_add_parameter(r->request, name, "v") != TELENORID_OK;
        telenorid_pending_auth *pending = NULL;
        r->failures += telenorid_auth_request_build(r->request, &pending) != TELENORID_OK;
        telenorid_pending_auth_free(pending);
    }
    return NULL;
}

/* One request shared by eight threads that add parameters and build at once: the library serializes
 * the calls, so every parameter lands once and no build sees a torn request. */
void test_shared_request(void) {
    telenorid_config *config = make_config();
    telenorid_auth_request *request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, RACERS);
    pthread_t threads[RACERS];
    struct shared_request shared[RACERS];
    for (int i = 0; i < RACERS; i++) {
        shared[i] = (struct shared_request){&start, request, i, 0};
        CHECK(pthread_create(&threads[i], NULL, add_and_build, &shared[i]) == 0);
    }
    int failures = 0;
    for (int i = 0; i < RACERS; i++) {
        pthread_join(threads[i], NULL);
        failures += shared[i].failures;
    }
    CHECK(failures == 0);
    telenorid_pending_auth *pending = NULL;
    char *url = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_url(pending, &url));
    int found = 0;
    for (int t = 0; url && t < RACERS; t++) {
        for (int i = 0; i < SHARED_ADDS; i++) {
            char needle[40];
            snprintf(needle, sizeof needle, "&x%d_%d=v", t, i);
            found += strstr(url, needle) != NULL;
        }
    }
    CHECK(found == RACERS * SHARED_ADDS);
    telenorid_string_free(url);
    telenorid_pending_auth_free(pending);
    pthread_barrier_destroy(&start);
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
}
