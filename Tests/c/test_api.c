/* Tests of the exports themselves, through the public header only: every documented rule (NULL,
 * ownership, outputs untouched on error, UTF-8, limits, thread-local errors) and the sign-in steps. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <telenorid.h>
#include "check.h"

#define SENTINEL ((void *)0x1)
#define VERIFIER "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
#define CHALLENGE "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

static telenorid_config *make_config(void) {
    telenorid_config_builder *b = NULL;
    telenorid_config *config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, "https://id.example.com"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, "tnn-example"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_REDIRECT_URI, "telenorid-example://authcallback/"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_SCOPE, "openid profile"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_AUTHORIZATION_ENDPOINT,
                                                            "https://api.vipps.no/oauth2/auth"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    telenorid_config_builder_free(b);
    return config;
}

/* The last error's status and, when `contains` is given, that its message mentions it. */
static void check_last_error(telenorid_status status, const char *contains, int line) {
    telenorid_error *e = telenorid_error_last();
    if (!e || telenorid_error_status(e) != status || (contains && !strstr(telenorid_error_message(e), contains))) {
        checks_failed++;
        fprintf(stderr, "test_api.c:%d: last error is %d \"%s\", expected %d mentioning \"%s\"\n", line,
                e ? telenorid_error_status(e) : -1, telenorid_error_message(e), status, contains ? contains : "");
    } else {
        checks_passed++;
    }
    telenorid_error_free(e);
}
#define CHECK_LAST_ERROR(status, contains) check_last_error((status), (contains), __LINE__)

static void test_versions_and_status_strings(void) {
    CHECK(telenorid_version() == TELENORID_VERSION_NUMBER);
    CHECK(TELENORID_VERSION_NUMBER == 0x000100);
    CHECK_STR(TELENORID_VERSION_STRING, telenorid_version_string());
    CHECK(TELENORID_VERSION_AT_LEAST(0, 1, 0));
    CHECK(TELENORID_VERSION_AT_LEAST(0, 0, 9));
    CHECK(!TELENORID_VERSION_AT_LEAST(0, 2, 0));
    CHECK(!TELENORID_VERSION_AT_LEAST(1, 0, 0));
    const char *unknown = telenorid_status_str(9999);
    CHECK(unknown != NULL);
    CHECK(telenorid_status_str(-1) == unknown || strcmp(telenorid_status_str(-1), unknown) == 0);
    for (telenorid_status s = 0; s <= TELENORID_E_NOT_SIGNED_IN; s++) {
        const char *name = telenorid_status_str(s);
        CHECK(name != NULL && strcmp(name, unknown) != 0);
        for (telenorid_status t = 0; t < s; t++) CHECK(strcmp(name, telenorid_status_str(t)) != 0);
    }
    CHECK(strcmp(telenorid_status_str(TELENORID_E_NOT_SIGNED_IN + 1), unknown) == 0);
}

static void test_null_everywhere(void) {
    telenorid_config *config = make_config();
    char *s = SENTINEL;
    void *h = SENTINEL;
    int32_t flag = 7;
    (void)flag;
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_builder_new(NULL));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "NULL");
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_builder_set(NULL, TELENORID_CONFIG_ISSUER, "x"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_builder_build(NULL, (telenorid_config **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_from_json(NULL, NULL, (telenorid_config **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_from_json("{}", NULL, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_get(NULL, TELENORID_CONFIG_ISSUER, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_get(config, TELENORID_CONFIG_ISSUER, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_new(0, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier(NULL, (telenorid_pkce **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier(VERIFIER, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_verifier(NULL, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_challenge(NULL, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_new(NULL, (telenorid_auth_request **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_new(config, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set(NULL, TELENORID_AUTH_PROMPT, "login"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_parameter(NULL, "a", "b"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_claim(NULL, TELENORID_CLAIMS_ID_TOKEN, "x", -1, NULL, NULL, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set_app_to_app(NULL, "app://cb"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set_pkce_method(NULL, TELENORID_PKCE_S256));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_build(NULL, (telenorid_pending_auth **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_url(NULL, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_state(NULL, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_nonce(NULL, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_code_verifier(NULL, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_serialize(NULL, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_restore(NULL, "{}", (telenorid_pending_auth **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_restore(config, NULL, (telenorid_pending_auth **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_handle_callback(NULL, "x://y", (telenorid_callback **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_handle_app_callback(NULL, "x://y", NULL, (telenorid_app_callback **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_callback_code(NULL, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_callback_parameter(NULL, "scope", &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_app_callback_resume_uri(NULL, &s));
    CHECK(s == SENTINEL && h == SENTINEL);

    /* NULL in the remaining positions of functions that take a live handle. */
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_parameter(request, NULL, "b"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_parameter(request, "a", NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, NULL, -1, NULL, NULL, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set_app_to_app(request, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_build(request, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_url(pending, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_handle_callback(pending, NULL, (telenorid_callback **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_handle_callback(pending, "x://y", NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_handle_app_callback(pending, NULL, NULL, (telenorid_app_callback **)&h));
    CHECK(h == SENTINEL);

    /* Error accessors and frees take NULL. */
    CHECK(telenorid_error_status(NULL) == TELENORID_E_INVALID_ARGUMENT);
    CHECK(telenorid_error_message(NULL) != NULL);
    CHECK(telenorid_error_oauth_error(NULL) == NULL);
    CHECK(telenorid_error_oauth_description(NULL) == NULL);
    CHECK(telenorid_error_oauth_uri(NULL) == NULL);
    CHECK(telenorid_error_http_status(NULL) == 0);
    telenorid_error_free(NULL);
    telenorid_string_free(NULL);
    telenorid_config_builder_free(NULL);
    telenorid_config_free(NULL);
    telenorid_pkce_free(NULL);
    telenorid_auth_request_free(NULL);
    telenorid_pending_auth_free(NULL);
    telenorid_callback_free(NULL);
    telenorid_app_callback_free(NULL);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
}

/* The client and auth state functions: NULL in every pointer position, frees, and no network use for
 * argument errors. The network paths themselves are tested against real and stand-in providers from
 * Python (Tests/python/test_integration.py, test_faults.py). */
static void test_client_and_auth_state_arguments(void) {
    /* Port 9 on loopback refuses at once, so a call that does reach for the network fails fast. */
    telenorid_config *config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_from_json("{\"issuer\":\"http://127.0.0.1:9\",\"client_id\":\"c\","
                                                          "\"redirect_uri\":\"app://cb\"}", NULL, &config));
    telenorid_client *client = NULL;
    void *h = SENTINEL;
    char *s = SENTINEL;
    int32_t flag = 7;
    int64_t when = 7;
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_new(NULL, (telenorid_client **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_new(config, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_discover(NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_config(NULL, (telenorid_config **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_config(client, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_exchange_code(NULL, NULL, (telenorid_auth_state **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_exchange_code(client, NULL, (telenorid_auth_state **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_exchange_code(client, (telenorid_callback *)config,
                                                                              (telenorid_auth_state **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_fresh_access_token(NULL, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_refresh(NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_is_signed_in(NULL, &flag));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_get(NULL, TELENORID_TOKEN_ACCESS_TOKEN, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_expires_at(NULL, &when));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_userinfo(NULL, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_revoke(NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_end_session_url(NULL, NULL, NULL, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_serialize(NULL, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_restore(NULL, "{}", (telenorid_auth_state **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_restore(client, NULL, (telenorid_auth_state **)&h));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_set_change_callback(NULL, NULL, NULL));

    /* A restored state, used without any network call. */
    telenorid_auth_state *state = NULL;
    CHECK_STATUS(TELENORID_E_VERSION, telenorid_auth_state_restore(client, "{\"version\":2}", (telenorid_auth_state **)&h));
    CHECK_STATUS(TELENORID_E_MALFORMED, telenorid_auth_state_restore(client, "{\"version\":1,\"access_token\":1}",
                                                                     (telenorid_auth_state **)&h));
    CHECK(h == SENTINEL && s == SENTINEL && flag == 7 && when == 7);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client,
        "{\"version\":1,\"access_token\":\"at\",\"token_type\":\"Bearer\",\"expires_at\":4102444800,"
        "\"refresh_token\":\"rt\",\"scope\":\"openid\"}", &state));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_is_signed_in(state, &flag));
    CHECK(flag == 1);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_expires_at(state, &when));
    CHECK(when == 4102444800);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_fresh_access_token(state, &s));
    CHECK_STR("at", s);
    telenorid_string_free(s);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_get(state, TELENORID_TOKEN_ID_TOKEN, &s));
    CHECK(s == NULL);
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_get(state, 99, &s));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_get(state, TELENORID_TOKEN_SCOPE, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_serialize(state, &s));
    CHECK(strstr(s, "\"refresh_token\":\"rt\"") != NULL);
    telenorid_string_free(s);
    /* No end-session endpoint configured and discovery refused: a network error, outputs untouched. */
    s = SENTINEL;
    CHECK_STATUS(TELENORID_E_NETWORK, telenorid_auth_state_end_session_url(state, NULL, NULL, &s));
    CHECK(s == SENTINEL);
    telenorid_auth_state_free(state);
    telenorid_auth_state_free(NULL);
    telenorid_client_free(client);
    telenorid_client_free(NULL);
    telenorid_config_free(config);
}

static void test_bad_strings_and_keys(void) {
    telenorid_config_builder *b = NULL;
    telenorid_pkce *pkce = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, "\xff\xfe"));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "UTF-8");
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, "\xc0\xaf"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_builder_set(b, 0, "x"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_builder_set(b, 9999, "x"));
    size_t big = TELENORID_MAX_INPUT + 10;
    char *huge = malloc(big + 1);
    memset(huge, 'a', big);
    huge[big] = 0;
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, huge));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "longer");
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier(huge, &pkce));
    free(huge);
    CHECK(pkce == SENTINEL);
    /* A handle of another kind is refused, not misread. */
    char *s = SENTINEL;
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_verifier((telenorid_pkce *)b, &s));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "another kind");
    CHECK(s == SENTINEL);
    /* Building with settings missing leaves the builder usable. */
    telenorid_config *config = SENTINEL;
    CHECK_STATUS(TELENORID_E_CONFIGURATION, telenorid_config_builder_build(b, &config));
    CHECK(config == SENTINEL);
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, "http://id.example.com"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, "c"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_REDIRECT_URI, "app://cb"));
    CHECK_STATUS(TELENORID_E_INSECURE, telenorid_config_builder_build(b, &config));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, "http://127.0.0.1:8000/o"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    CHECK_STATUS(TELENORID_OK, telenorid_config_get(config, TELENORID_CONFIG_ISSUER, &s));
    CHECK_STR("http://127.0.0.1:8000/o", s);
    telenorid_string_free(s);
    CHECK_STATUS(TELENORID_OK, telenorid_config_get(config, TELENORID_CONFIG_TOKEN_ENDPOINT, &s));
    CHECK(s == NULL);
    telenorid_config_free(config);
    telenorid_config_builder_free(b);
}

static void test_pkce(void) {
    telenorid_pkce *pkce = NULL;
    char *verifier = NULL, *challenge = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pkce_from_verifier(VERIFIER, &pkce));
    CHECK_STATUS(TELENORID_OK, telenorid_pkce_challenge(pkce, &challenge));
    CHECK_STR(CHALLENGE, challenge);
    telenorid_string_free(challenge);
    telenorid_pkce_free(pkce);
    size_t lengths[] = {0, 43, 128};
    size_t expected[] = {64, 43, 128};
    for (int i = 0; i < 3; i++) {
        CHECK_STATUS(TELENORID_OK, telenorid_pkce_new(lengths[i], &pkce));
        CHECK_STATUS(TELENORID_OK, telenorid_pkce_verifier(pkce, &verifier));
        CHECK(verifier && strlen(verifier) == expected[i]);
        CHECK(verifier && strspn(verifier, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~") == expected[i]);
        telenorid_string_free(verifier);
        telenorid_pkce_free(pkce);
    }
    pkce = SENTINEL;
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_new(42, &pkce));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_new(129, &pkce));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier("short", &pkce));
    CHECK(pkce == SENTINEL);
}

static void test_config_json(void) {
    const char *json =
        "{\"default_environment\":\"production\",\"environments\":{"
        "\"staging\":{\"issuer\":\"https://s.example\",\"client_id\":\"app-staging\",\"redirect_uri\":\"app://cb\"},"
        "\"production\":{\"issuer\":\"https://p.example\",\"client_id\":\"app\",\"redirect_uri\":\"app://cb\","
        "\"scopes\":[\"openid\",\"profile\"]}}}";
    telenorid_config *config = NULL;
    char *s = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_from_json(json, NULL, &config));
    CHECK_STATUS(TELENORID_OK, telenorid_config_get(config, TELENORID_CONFIG_CLIENT_ID, &s));
    CHECK_STR("app", s);
    telenorid_string_free(s);
    CHECK_STATUS(TELENORID_OK, telenorid_config_get(config, TELENORID_CONFIG_SCOPE, &s));
    CHECK_STR("openid profile", s);
    telenorid_string_free(s);
    telenorid_config_free(config);
    CHECK_STATUS(TELENORID_OK, telenorid_config_from_json(json, "staging", &config));
    CHECK_STATUS(TELENORID_OK, telenorid_config_get(config, TELENORID_CONFIG_ENVIRONMENT, &s));
    CHECK_STR("staging", s);
    telenorid_string_free(s);
    telenorid_config_free(config);
    config = SENTINEL;
    CHECK_STATUS(TELENORID_E_CONFIGURATION, telenorid_config_from_json(json, "qa", &config));
    CHECK_STATUS(TELENORID_E_MALFORMED, telenorid_config_from_json("{\"issuer\":1,\"issuer\":2}", NULL, &config));
    CHECK_LAST_ERROR(TELENORID_E_MALFORMED, "duplicate");
    CHECK(config == SENTINEL);
}

static telenorid_pending_auth *make_pending(telenorid_config *config, int app_to_app) {
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    if (app_to_app) CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set_app_to_app(request, "merchantapp://app-callback"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    telenorid_auth_request_free(request); /* the pending request keeps what it needs */
    return pending;
}

static char *redirect_with(telenorid_pending_auth *pending, const char *prefix, const char *suffix) {
    char *state = NULL;
    telenorid_pending_auth_state(pending, &state);
    size_t size = strlen(prefix) + strlen(state) + strlen(suffix) + 1;
    char *url = malloc(size);
    snprintf(url, size, "%s%s%s", prefix, state, suffix);
    telenorid_string_free(state);
    return url;
}

static void test_authorization_request(void) {
    telenorid_config *config = make_config();
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    char *url = NULL, *json = NULL, *again = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_PROMPT, "login"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_LOGIN_HINT, "\xc3\x85se"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_MAX_AGE, "300"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set(request, TELENORID_AUTH_MAX_AGE, "5m"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_ALOHA_TOKEN, "aloha-uuid"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_CLAIMS_PURPOSE, "Why we ask"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "given_name", 1, "Your name", NULL, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "acr", -1, NULL, NULL, "[\"a\",\"b\"]"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "x", -1, NULL, "{bad", NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_claim(request, 7, "x", -1, NULL, NULL, NULL));
    CHECK_STATUS(TELENORID_E_PARAMETER_CONFLICT, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "given_name", 0, NULL, NULL, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_parameter(request, "resource", "https://api.example.com/"));
    CHECK_STATUS(TELENORID_E_PARAMETER_CONFLICT, telenorid_auth_request_add_parameter(request, "state", "mine"));
    CHECK_STATUS(TELENORID_E_PARAMETER_CONFLICT, telenorid_auth_request_add_parameter(request, "code_challenge", "mine"));
    CHECK_STATUS(TELENORID_E_UNSUPPORTED, telenorid_auth_request_set_pkce_method(request, TELENORID_PKCE_PLAIN));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set_pkce_method(request, 5));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_url(pending, &url));
    CHECK(strncmp(url, "https://api.vipps.no/oauth2/auth?response_type=code&client_id=tnn-example&redirect_uri="
                       "telenorid-example%3A%2F%2Fauthcallback%2F&scope=openid%20profile&state=", 139) == 0);
    CHECK(strstr(url, "&code_challenge_method=S256") != NULL);
    CHECK(strstr(url, "&login_hint=%C3%85se") != NULL);
    CHECK(strstr(url, "&max_age=300") != NULL);
    CHECK(strstr(url, "&aloha_token=aloha-uuid") != NULL);
    CHECK(strstr(url, "&claims=%7B%22purpose%22%3A%22Why%20we%20ask%22%2C%22id_token%22%3A%7B%22given_name%22%3A%7B%22essential%22%3Atrue") != NULL);
    CHECK(strstr(url, "&resource=https%3A%2F%2Fapi.example.com%2F") != NULL);

    /* Serialize and restore: same URL and state. */
    telenorid_pending_auth *restored = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_serialize(pending, &json));
    CHECK(strstr(json, "\"version\":1") != NULL);
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_restore(config, json, &restored));
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_url(restored, &again));
    CHECK_STR(url, again);
    telenorid_pending_auth *bad = SENTINEL;
    CHECK_STATUS(TELENORID_E_MALFORMED, telenorid_pending_auth_restore(config, "{\"version\":1}", &bad));
    CHECK_STATUS(TELENORID_E_VERSION, telenorid_pending_auth_restore(config, "{\"version\":7}", &bad));
    CHECK(bad == SENTINEL);
    telenorid_string_free(again);
    telenorid_string_free(json);
    telenorid_string_free(url);
    telenorid_pending_auth_free(restored);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
}

static void test_callbacks(void) {
    telenorid_config *config = make_config();
    telenorid_pending_auth *pending = make_pending(config, 0);
    telenorid_callback *callback = SENTINEL;
    char *url, *s = NULL;

    CHECK_STATUS(TELENORID_E_STATE_MISMATCH, telenorid_pending_auth_handle_callback(
        pending, "telenorid-example://authcallback/?code=c&state=forged", &callback));
    CHECK_STATUS(TELENORID_E_MALFORMED, telenorid_pending_auth_handle_callback(pending, "not a url", &callback));
    url = redirect_with(pending, "evil://authcallback/?code=c&state=", "");
    CHECK_STATUS(TELENORID_E_REDIRECT_MISMATCH, telenorid_pending_auth_handle_callback(pending, url, &callback));
    free(url);
    url = redirect_with(pending, "telenorid-example://authcallback/?error=access_denied&error_description=No+thanks&error_uri=https%3A%2F%2Fe.example&state=", "");
    CHECK_STATUS(TELENORID_E_AUTHORIZATION_ERROR, telenorid_pending_auth_handle_callback(pending, url, &callback));
    free(url);
    telenorid_error *e = telenorid_error_last();
    CHECK_STR("access_denied", telenorid_error_oauth_error(e));
    CHECK_STR("No thanks", telenorid_error_oauth_description(e));
    CHECK_STR("https://e.example", telenorid_error_oauth_uri(e));
    CHECK(telenorid_error_status(e) == TELENORID_E_AUTHORIZATION_ERROR);
    telenorid_error_free(e);
    url = redirect_with(pending, "telenorid-example://authcallback/?code=c&iss=https%3A%2F%2Fevil.example&state=", "");
    CHECK_STATUS(TELENORID_E_ISSUER_MISMATCH, telenorid_pending_auth_handle_callback(pending, url, &callback));
    free(url);
    url = redirect_with(pending, "telenorid-example://authcallback/?code=c&code=d&state=", "");
    CHECK_STATUS(TELENORID_E_MALFORMED, telenorid_pending_auth_handle_callback(pending, url, &callback));
    free(url);
    url = redirect_with(pending, "telenorid-example://authcallback/?code=c%00d&state=", "");
    telenorid_callback *with_nul = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_callback(pending, url, &with_nul));
    free(url);
    /* A code holding NUL can't be handed out as a C string: refused, not truncated. */
    CHECK_STATUS(TELENORID_E_MALFORMED, telenorid_callback_code(with_nul, &s));
    telenorid_callback_free(with_nul);
    CHECK(callback == SENTINEL);
    telenorid_pending_auth_free(pending);

    pending = make_pending(config, 0);
    url = redirect_with(pending, "telenorid-example://authcallback/?code=abc%2F1&scope=openid+profile&state=", "");
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_callback(pending, url, &callback));
    CHECK_STATUS(TELENORID_OK, telenorid_callback_code(callback, &s));
    CHECK_STR("abc/1", s);
    telenorid_string_free(s);
    CHECK_STATUS(TELENORID_OK, telenorid_callback_parameter(callback, "scope", &s));
    CHECK_STR("openid profile", s);
    telenorid_string_free(s);
    CHECK_STATUS(TELENORID_OK, telenorid_callback_parameter(callback, "session_state", &s));
    CHECK(s == NULL);
    telenorid_callback *second = SENTINEL;
    CHECK_STATUS(TELENORID_E_CONSUMED, telenorid_pending_auth_handle_callback(pending, url, &second));
    CHECK(second == SENTINEL);
    free(url);
    telenorid_callback_free(callback);
    telenorid_pending_auth_free(pending);
    telenorid_config_free(config);
}

static void test_app_callbacks(void) {
    telenorid_config *config = make_config();
    telenorid_pending_auth *pending = make_pending(config, 1);
    telenorid_app_callback *callback = NULL;
    char *url, *s = NULL;
    url = redirect_with(pending, "merchantapp://app-callback?state=", "&resume_uri=https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t");
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    free(url);
    CHECK_STATUS(TELENORID_OK, telenorid_app_callback_resume_uri(callback, &s));
    CHECK_STR("https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t", s);
    telenorid_string_free(s);
    telenorid_app_callback_free(callback);
    callback = SENTINEL;
    url = redirect_with(pending, "merchantapp://app-callback?state=", "?error=unknown_error");
    CHECK_STATUS(TELENORID_E_AUTHORIZATION_ERROR, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    free(url);
    telenorid_error *e = telenorid_error_last();
    CHECK_STR("unknown_error", telenorid_error_oauth_error(e));
    telenorid_error_free(e);
    url = redirect_with(pending, "merchantapp://app-callback?state=", "&resume_uri=https%3A%2F%2Fevil.example%2F");
    CHECK_STATUS(TELENORID_E_INSECURE, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    free(url);
    CHECK(callback == SENTINEL);
    telenorid_pending_auth_free(pending);
    telenorid_config_free(config);
}

static void *fail_on_other_thread(void *unused) {
    (void)unused;
    telenorid_pkce *pkce = NULL;
    telenorid_pkce_new(5, &pkce);
    telenorid_error *e = telenorid_error_last();
    int ok = e && strstr(telenorid_error_message(e), "length") != NULL;
    telenorid_error_free(e);
    return ok ? (void *)1 : NULL;
}

static void test_last_error_is_per_thread(void) {
    telenorid_config *config = SENTINEL;
    CHECK_STATUS(TELENORID_E_MALFORMED, telenorid_config_from_json("[", NULL, &config));
    pthread_t thread;
    void *result = NULL;
    pthread_create(&thread, NULL, fail_on_other_thread, NULL);
    pthread_join(thread, &result);
    CHECK(result == (void *)1);
    CHECK_LAST_ERROR(TELENORID_E_MALFORMED, "JSON");
}

struct race { telenorid_pending_auth *pending; const char *url; telenorid_status status; };

static void *race_callback(void *arg) {
    struct race *r = arg;
    telenorid_callback *callback = NULL;
    r->status = telenorid_pending_auth_handle_callback(r->pending, r->url, &callback);
    telenorid_callback_free(callback);
    return NULL;
}

/* Eight threads with the same redirect: exactly one gets the code. */
static void test_callback_race(void) {
    telenorid_config *config = make_config();
    telenorid_pending_auth *pending = make_pending(config, 0);
    char *url = redirect_with(pending, "telenorid-example://authcallback/?code=c&state=", "");
    pthread_t threads[8];
    struct race races[8];
    for (int i = 0; i < 8; i++) {
        races[i] = (struct race){pending, url, -1};
        pthread_create(&threads[i], NULL, race_callback, &races[i]);
    }
    int ok = 0, consumed = 0;
    for (int i = 0; i < 8; i++) {
        pthread_join(threads[i], NULL);
        ok += races[i].status == TELENORID_OK;
        consumed += races[i].status == TELENORID_E_CONSUMED;
    }
    CHECK(ok == 1 && consumed == 7);
    free(url);
    telenorid_pending_auth_free(pending);
    telenorid_config_free(config);
}

int main(void) {
    CHECK(telenorid_error_last() == NULL);
    test_versions_and_status_strings();
    test_null_everywhere();
    test_client_and_auth_state_arguments();
    test_bad_strings_and_keys();
    test_pkce();
    test_config_json();
    test_authorization_request();
    test_callbacks();
    test_app_callbacks();
    test_last_error_is_per_thread();
    test_callback_race();
    return finish_checks();
}
