/* The header's rules for every function: NULL in every pointer position, *_free(NULL), handles of the wrong kind,
 * UTF-8 and the length limit, unknown enum values, and children keeping their parents alive. Part of test_api. */
#include "api_support.h"

/* ------------------------------------------------------------------------------------------------
 * NULL everywhere, *_free(NULL), wrong kinds
 * --------------------------------------------------------------------------------------------- */

void test_free_null(void) {
    telenorid_error_free(NULL);
    telenorid_string_free(NULL);
    telenorid_config_builder_free(NULL);
    telenorid_config_free(NULL);
    telenorid_pkce_free(NULL);
    telenorid_auth_request_free(NULL);
    telenorid_pending_auth_free(NULL);
    telenorid_authorization_callback_free(NULL);
    telenorid_app_callback_free(NULL);
    telenorid_client_free(NULL);
    telenorid_auth_state_free(NULL);
    CHECK(1); /* got here */
}

/* One live handle of every kind, none needing the network. */
struct handles {
    telenorid_config_builder *builder;
    telenorid_config *config;
    telenorid_pkce *pkce;
    telenorid_auth_request *request;
    telenorid_pending_auth *pending;
    telenorid_authorization_callback *callback;
    telenorid_pending_auth *app_pending;
    telenorid_app_callback *app_callback;
    telenorid_client *client;
    telenorid_auth_state *state;
};

static void handles_make(struct handles *h) {
    memset(h, 0, sizeof *h);
    h->builder = builder_with("https://id.example.com", "tnn-example", REDIRECT);
    h->config = make_config();
    CHECK_STATUS(TELENORID_OK, telenorid_pkce_from_verifier(RFC7636_VERIFIER, &h->pkce));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(h->config, &h->request));
    h->pending = make_pending(h->config, 0);
    h->callback = make_callback(h->pending, REDIRECT "?code=c&state=");
    h->app_pending = make_pending(h->config, 1);
    char *url = with_state(h->app_pending, APP_CALLBACK "?state=", "");
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_app_callback(h->app_pending, url, NULL, &h->app_callback));
    free(url);
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(h->config, &h->client)); /* no network */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(h->client,
        "{\"version\":1,\"access_token\":\"at\",\"token_type\":\"Bearer\",\"refresh_token\":\"rt\"}", &h->state));
    CHECK(h->builder && h->config && h->pkce && h->request && h->pending && h->callback && h->app_pending &&
          h->app_callback && h->client && h->state);
}

static void handles_free(struct handles *h) {
    telenorid_auth_state_free(h->state);
    telenorid_client_free(h->client);
    telenorid_app_callback_free(h->app_callback);
    telenorid_pending_auth_free(h->app_pending);
    telenorid_authorization_callback_free(h->callback);
    telenorid_pending_auth_free(h->pending);
    telenorid_auth_request_free(h->request);
    telenorid_pkce_free(h->pkce);
    telenorid_config_free(h->config);
    telenorid_config_builder_free(h->builder);
}

/* NULL in every pointer position of every function that takes one; outputs stay untouched. Positions the
 * header allows to be NULL are checked to work. */
/* A host signer that always fails: the NULL checks must refuse before it could be called. */
static int32_t refusing_signer(void *user_data, const uint8_t *input, size_t input_len, uint8_t *signature,
                               size_t *signature_len) {
    (void)user_data; (void)input; (void)input_len; (void)signature; (void)signature_len;
    return 1;
}

void test_null_arguments(void) {
    struct handles h;
    handles_make(&h);
    char *s = SENTINEL;
    telenorid_config_builder *builder = SENTINEL;
    telenorid_config *config = SENTINEL;
    telenorid_pkce *pkce = SENTINEL;
    telenorid_auth_request *request = SENTINEL;
    telenorid_pending_auth *pending = SENTINEL;
    telenorid_authorization_callback *callback = SENTINEL;
    telenorid_app_callback *app_callback = SENTINEL;
    telenorid_client *client = SENTINEL;
    telenorid_auth_state *state = SENTINEL;
    int32_t flag = 77;
    int64_t expiry = 77;

    CHECK_NULL_ARG("out", telenorid_config_builder_new(NULL));
    CHECK_NULL_ARG("builder", telenorid_config_builder_set(NULL, TELENORID_CONFIG_ISSUER, "https://x.example"));
    CHECK_NULL_ARG("builder", telenorid_config_builder_build(NULL, &config));
    CHECK_NULL_ARG("out", telenorid_config_builder_build(h.builder, NULL));
    CHECK_NULL_ARG("json", telenorid_config_from_json(NULL, NULL, &config));
    CHECK_NULL_ARG("out", telenorid_config_from_json("{}", NULL, NULL));
    CHECK_NULL_ARG("config", telenorid_config_get(NULL, TELENORID_CONFIG_ISSUER, &s));
    CHECK_NULL_ARG("out", telenorid_config_get(h.config, TELENORID_CONFIG_ISSUER, NULL));

    CHECK_NULL_ARG("out", telenorid_pkce_new(0, NULL));
    CHECK_NULL_ARG("out", telenorid_pkce_new(43, NULL));
    CHECK_NULL_ARG("verifier", telenorid_pkce_from_verifier(NULL, &pkce));
    CHECK_NULL_ARG("out", telenorid_pkce_from_verifier(RFC7636_VERIFIER, NULL));
    CHECK_NULL_ARG("pkce", telenorid_pkce_verifier(NULL, &s));
    CHECK_NULL_ARG("out", telenorid_pkce_verifier(h.pkce, NULL));
    CHECK_NULL_ARG("pkce", telenorid_pkce_challenge(NULL, &s));
    CHECK_NULL_ARG("out", telenorid_pkce_challenge(h.pkce, NULL));

    CHECK_NULL_ARG("config", telenorid_auth_request_new(NULL, &request));
    CHECK_NULL_ARG("out", telenorid_auth_request_new(h.config, NULL));
    CHECK_NULL_ARG("request", telenorid_auth_request_set(NULL, TELENORID_AUTH_PROMPT, "login"));
    CHECK_NULL_ARG("request", telenorid_auth_request_add_parameter(NULL, "audience", "a"));
    CHECK_NULL_ARG("name", telenorid_auth_request_add_parameter(h.request, NULL, "a"));
    CHECK_NULL_ARG("value", telenorid_auth_request_add_parameter(h.request, "audience", NULL));
    CHECK_NULL_ARG("request", telenorid_auth_request_add_claim(NULL, TELENORID_CLAIMS_ID_TOKEN, "email", -1, NULL, NULL, NULL));
    CHECK_NULL_ARG("name", telenorid_auth_request_add_claim(h.request, TELENORID_CLAIMS_ID_TOKEN, NULL, -1, NULL, NULL, NULL));
    CHECK_NULL_ARG("request", telenorid_auth_request_set_app_to_app(NULL, APP_CALLBACK));
    CHECK_NULL_ARG("app_callback_uri", telenorid_auth_request_set_app_to_app(h.request, NULL));
    CHECK_NULL_ARG("request", telenorid_auth_request_set_pkce_method(NULL, TELENORID_PKCE_S256));
    CHECK_NULL_ARG("request", telenorid_auth_request_build(NULL, &pending));
    CHECK_NULL_ARG("out", telenorid_auth_request_build(h.request, NULL));

    CHECK_NULL_ARG("pending", telenorid_pending_auth_url(NULL, &s));
    CHECK_NULL_ARG("out", telenorid_pending_auth_url(h.pending, NULL));
    CHECK_NULL_ARG("pending", telenorid_pending_auth_state(NULL, &s));
    CHECK_NULL_ARG("out", telenorid_pending_auth_state(h.pending, NULL));
    CHECK_NULL_ARG("pending", telenorid_pending_auth_nonce(NULL, &s));
    CHECK_NULL_ARG("out", telenorid_pending_auth_nonce(h.pending, NULL));
    CHECK_NULL_ARG("pending", telenorid_pending_auth_code_verifier(NULL, &s));
    CHECK_NULL_ARG("out", telenorid_pending_auth_code_verifier(h.pending, NULL));
    CHECK_NULL_ARG("pending", telenorid_pending_auth_serialize(NULL, &s));
    CHECK_NULL_ARG("out", telenorid_pending_auth_serialize(h.pending, NULL));
    CHECK_NULL_ARG("config", telenorid_pending_auth_restore(NULL, "{\"version\":1}", &pending));
    CHECK_NULL_ARG("json", telenorid_pending_auth_restore(h.config, NULL, &pending));
    CHECK_NULL_ARG("out", telenorid_pending_auth_restore(h.config, "{\"version\":1}", NULL));

    CHECK_NULL_ARG("pending", telenorid_pending_auth_handle_callback(NULL, REDIRECT "?code=c&state=s", &callback));
    CHECK_NULL_ARG("redirect_url", telenorid_pending_auth_handle_callback(h.pending, NULL, &callback));
    CHECK_NULL_ARG("out", telenorid_pending_auth_handle_callback(h.pending, REDIRECT "?code=c&state=s", NULL));
    CHECK_NULL_ARG("callback", telenorid_authorization_callback_code(NULL, &s));
    CHECK_NULL_ARG("out", telenorid_authorization_callback_code(h.callback, NULL));
    CHECK_NULL_ARG("callback", telenorid_authorization_callback_parameter(NULL, "scope", &s));
    CHECK_NULL_ARG("name", telenorid_authorization_callback_parameter(h.callback, NULL, &s));
    CHECK_NULL_ARG("out", telenorid_authorization_callback_parameter(h.callback, "scope", NULL));

    CHECK_NULL_ARG("pending", telenorid_pending_auth_handle_app_callback(NULL, APP_CALLBACK "?state=s", NULL, &app_callback));
    CHECK_NULL_ARG("callback_url", telenorid_pending_auth_handle_app_callback(h.app_pending, NULL, NULL, &app_callback));
    CHECK_NULL_ARG("out", telenorid_pending_auth_handle_app_callback(h.app_pending, APP_CALLBACK "?state=s", NULL, NULL));
    CHECK_NULL_ARG("callback", telenorid_app_callback_resume_uri(NULL, &s));
    CHECK_NULL_ARG("out", telenorid_app_callback_resume_uri(h.app_callback, NULL));

    CHECK_NULL_ARG("config", telenorid_client_new(NULL, &client));
    CHECK_NULL_ARG("out", telenorid_client_new(h.config, NULL));
    CHECK_NULL_ARG("client", telenorid_client_discover(NULL));
    CHECK_NULL_ARG("client", telenorid_client_verify_id_token(NULL, "a.b.c", NULL, &s));
    CHECK_NULL_ARG("id_token", telenorid_client_verify_id_token(h.client, NULL, NULL, &s));
    CHECK_NULL_ARG("out", telenorid_client_verify_id_token(h.client, "a.b.c", NULL, NULL));
    CHECK_NULL_ARG("client", telenorid_client_config(NULL, &config));
    CHECK_NULL_ARG("out", telenorid_client_config(h.client, NULL));
    CHECK_NULL_ARG("client", telenorid_client_build_auth_request(NULL, h.request, &pending));
    CHECK_NULL_ARG("request", telenorid_client_build_auth_request(h.client, NULL, &pending));
    CHECK_NULL_ARG("out", telenorid_client_build_auth_request(h.client, h.request, NULL));
    CHECK_NULL_ARG("client", telenorid_client_exchange_code(NULL, h.callback, &state));
    CHECK_NULL_ARG("callback", telenorid_client_exchange_code(h.client, NULL, &state));
    CHECK_NULL_ARG("out", telenorid_client_exchange_code(h.client, h.callback, NULL));

    CHECK_NULL_ARG("state", telenorid_auth_state_fresh_access_token(NULL, &s));
    CHECK_NULL_ARG("out", telenorid_auth_state_fresh_access_token(h.state, NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_refresh(NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_check(NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_access_token_rejected(NULL, NULL));
    CHECK_NULL_ARG("client", telenorid_client_set_dpop_signer(NULL, "ES256", "{}", NULL, NULL));
    CHECK_NULL_ARG("algorithm", telenorid_client_set_dpop_signer(h.client, NULL, "{}", refusing_signer, NULL));
    CHECK_NULL_ARG("public_jwk", telenorid_client_set_dpop_signer(h.client, "ES256", NULL, refusing_signer, NULL));
    CHECK_NULL_ARG("client", telenorid_client_set_client_signer(NULL, "ES256", "{}", NULL, NULL));
    CHECK_NULL_ARG("algorithm", telenorid_client_set_client_signer(h.client, NULL, "{}", refusing_signer, NULL));
    CHECK_NULL_ARG("public_jwk", telenorid_client_set_client_signer(h.client, "ES256", NULL, refusing_signer, NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_request_headers(NULL, "GET", "https://x.example/", NULL, &s, &s));
    CHECK_NULL_ARG("method", telenorid_auth_state_request_headers(h.state, NULL, "https://x.example/", NULL, &s, &s));
    CHECK_NULL_ARG("url", telenorid_auth_state_request_headers(h.state, "GET", NULL, NULL, &s, &s));
    CHECK_NULL_ARG("out", telenorid_auth_state_request_headers(h.state, "GET", "https://x.example/", NULL, NULL, &s));
    CHECK_NULL_ARG("out", telenorid_auth_state_request_headers(h.state, "GET", "https://x.example/", NULL, &s, NULL));
    /* A token goes nowhere the library would not send one itself (RFC 6750 §5.3): refused before anything
     * else, the outputs untouched, the message naming the scheme and host. */
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INSECURE, s,
                          telenorid_auth_state_request_headers(h.state, "GET", "http://api.example.com/", NULL, &s, &s));
    CHECK_LAST_ERROR(TELENORID_E_INSECURE, "http://api.example.com/");
    CHECK_NULL_ARG("request", telenorid_auth_request_add_resource(NULL, "https://x.example/"));
    CHECK_NULL_ARG("uri", telenorid_auth_request_add_resource(h.request, NULL));
    CHECK_NULL_ARG("request", telenorid_auth_request_set_authorization_details(NULL, NULL));
    CHECK_NULL_ARG("request", telenorid_auth_request_set_token_authorization_details(NULL, NULL));
    CHECK_NULL_ARG("request", telenorid_auth_request_apply_step_up(NULL, "Bearer", &flag));
    CHECK_NULL_ARG("www_authenticate", telenorid_auth_request_apply_step_up(h.request, NULL, &flag));
    CHECK_NULL_ARG("out", telenorid_auth_request_apply_step_up(h.request, "Bearer", NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_bind_file(NULL, "/tmp/x"));
    CHECK_NULL_ARG("path", telenorid_auth_state_bind_file(h.state, NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_save(NULL));
    CHECK_NULL_ARG("client", telenorid_auth_state_open_file(NULL, "/tmp/x", &state));
    CHECK_NULL_ARG("path", telenorid_auth_state_open_file(h.client, NULL, &state));
    CHECK_NULL_ARG("out", telenorid_auth_state_open_file(h.client, "/tmp/x", NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_is_signed_in(NULL, &flag));
    CHECK_NULL_ARG("out", telenorid_auth_state_is_signed_in(h.state, NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_get(NULL, TELENORID_TOKEN_ACCESS_TOKEN, &s));
    CHECK_NULL_ARG("out", telenorid_auth_state_get(h.state, TELENORID_TOKEN_ACCESS_TOKEN, NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_expires_at(NULL, &expiry));
    CHECK_NULL_ARG("out", telenorid_auth_state_expires_at(h.state, NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_userinfo(NULL, &s));
    CHECK_NULL_ARG("out", telenorid_auth_state_userinfo(h.state, NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_revoke(NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_end_session_url(NULL, NULL, NULL, &s));
    CHECK_NULL_ARG("out", telenorid_auth_state_end_session_url(h.state, "app://bye", "x", NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_serialize(NULL, &s));
    CHECK_NULL_ARG("out", telenorid_auth_state_serialize(h.state, NULL));
    CHECK_NULL_ARG("client", telenorid_auth_state_restore(NULL, "{\"version\":1}", &state));
    CHECK_NULL_ARG("json", telenorid_auth_state_restore(h.client, NULL, &state));
    CHECK_NULL_ARG("out", telenorid_auth_state_restore(h.client, "{\"version\":1}", NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_set_change_callback(NULL, change_counter, &flag));

    /* No output was written by any of those calls. */
    CHECK(s == SENTINEL && builder == SENTINEL && config == SENTINEL && pkce == SENTINEL && request == SENTINEL &&
          pending == SENTINEL && callback == SENTINEL && app_callback == SENTINEL && client == SENTINEL &&
          state == SENTINEL && flag == 77 && expiry == 77);

    /* NULL where the header allows it. */
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(h.builder, TELENORID_CONFIG_SCOPE, NULL)); /* clears */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(h.request, TELENORID_AUTH_PROMPT, NULL));     /* clears */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(h.request, TELENORID_CLAIMS_USERINFO, "email", -1,
                                                                NULL, NULL, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(h.state, NULL, NULL));        /* removes */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(h.state, change_counter, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(h.state, NULL, &flag));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set_authorization_details(h.request, NULL));    /* clears */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set_token_authorization_details(h.request, "[{\"type\":\"a\"}]"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set_token_authorization_details(h.request, "[]"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set_token_authorization_details(h.request, "[{"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set_token_authorization_details(h.request, NULL)); /* clears */
    CHECK_STATUS(TELENORID_OK, telenorid_client_set_dpop_signer(h.client, NULL, NULL, NULL, NULL));  /* removes */
    CHECK_STATUS(TELENORID_OK, telenorid_client_set_client_signer(h.client, NULL, NULL, NULL, NULL)); /* removes */
    /* A NULL allowed_resume_host means the authorization endpoint's host (checked in test_app_callbacks). */
    handles_free(&h);
}

/* A handle of another kind in each handle position: refused, not misread. */
void test_wrong_kind(void) {
    struct handles h;
    handles_make(&h);
    char *s = SENTINEL;
    int32_t flag = 77;
    int64_t expiry = 77;
    void *out = SENTINEL;
    void *wrong = h.pkce;   /* a PKCE pair stands in for everything else */
    void *not_pkce = h.config;

    CHECK_WRONG_KIND(telenorid_config_builder_set(AS(telenorid_config_builder, wrong), TELENORID_CONFIG_ISSUER, "https://x.example"));
    CHECK_WRONG_KIND(telenorid_config_builder_build(AS(telenorid_config_builder, h.config), AS(telenorid_config *, &out)));
    CHECK_WRONG_KIND(telenorid_config_get(AS(telenorid_config, h.builder), TELENORID_CONFIG_ISSUER, &s));
    CHECK_WRONG_KIND(telenorid_pkce_verifier(AS(telenorid_pkce, not_pkce), &s));
    CHECK_WRONG_KIND(telenorid_pkce_challenge(AS(telenorid_pkce, h.pending), &s));
    CHECK_WRONG_KIND(telenorid_auth_request_new(AS(telenorid_config, wrong), AS(telenorid_auth_request *, &out)));
    CHECK_WRONG_KIND(telenorid_auth_request_set(AS(telenorid_auth_request, h.pending), TELENORID_AUTH_PROMPT, "login"));
    CHECK_WRONG_KIND(telenorid_auth_request_add_parameter(AS(telenorid_auth_request, wrong), "audience", "a"));
    CHECK_WRONG_KIND(telenorid_auth_request_add_claim(AS(telenorid_auth_request, wrong), TELENORID_CLAIMS_ID_TOKEN, "x", -1, NULL, NULL, NULL));
    CHECK_WRONG_KIND(telenorid_auth_request_set_app_to_app(AS(telenorid_auth_request, wrong), APP_CALLBACK));
    CHECK_WRONG_KIND(telenorid_auth_request_set_pkce_method(AS(telenorid_auth_request, wrong), TELENORID_PKCE_S256));
    CHECK_WRONG_KIND(telenorid_auth_request_build(AS(telenorid_auth_request, h.config), AS(telenorid_pending_auth *, &out)));
    CHECK_WRONG_KIND(telenorid_pending_auth_url(AS(telenorid_pending_auth, h.request), &s));
    CHECK_WRONG_KIND(telenorid_pending_auth_state(AS(telenorid_pending_auth, h.callback), &s));
    CHECK_WRONG_KIND(telenorid_pending_auth_nonce(AS(telenorid_pending_auth, wrong), &s));
    CHECK_WRONG_KIND(telenorid_pending_auth_code_verifier(AS(telenorid_pending_auth, wrong), &s));
    CHECK_WRONG_KIND(telenorid_pending_auth_serialize(AS(telenorid_pending_auth, wrong), &s));
    CHECK_WRONG_KIND(telenorid_pending_auth_restore(AS(telenorid_config, h.client), "{}", AS(telenorid_pending_auth *, &out)));
    CHECK_WRONG_KIND(telenorid_pending_auth_handle_callback(AS(telenorid_pending_auth, h.app_callback), REDIRECT "?code=c&state=s", AS(telenorid_authorization_callback *, &out)));
    CHECK_WRONG_KIND(telenorid_authorization_callback_code(AS(telenorid_authorization_callback, h.app_callback), &s));
    CHECK_WRONG_KIND(telenorid_authorization_callback_parameter(AS(telenorid_authorization_callback, h.pending), "code", &s));
    CHECK_WRONG_KIND(telenorid_pending_auth_handle_app_callback(AS(telenorid_pending_auth, wrong), APP_CALLBACK "?state=s", NULL, AS(telenorid_app_callback *, &out)));
    CHECK_WRONG_KIND(telenorid_app_callback_resume_uri(AS(telenorid_app_callback, h.callback), &s));
    CHECK_WRONG_KIND(telenorid_client_new(AS(telenorid_config, h.state), AS(telenorid_client *, &out)));
    CHECK_WRONG_KIND(telenorid_client_discover(AS(telenorid_client, h.config)));
    CHECK_WRONG_KIND(telenorid_client_verify_id_token(AS(telenorid_client, h.state), "a.b.c", NULL, &s));
    CHECK_WRONG_KIND(telenorid_client_config(AS(telenorid_client, h.state), AS(telenorid_config *, &out)));
    CHECK_WRONG_KIND(telenorid_client_build_auth_request(AS(telenorid_client, h.config), h.request, AS(telenorid_pending_auth *, &out)));
    CHECK_WRONG_KIND(telenorid_client_build_auth_request(h.client, AS(telenorid_auth_request, h.pending), AS(telenorid_pending_auth *, &out)));
    CHECK_WRONG_KIND(telenorid_client_set_dpop_signer(AS(telenorid_client, h.config), "ES256", "{}", NULL, NULL));
    CHECK_WRONG_KIND(telenorid_client_set_client_signer(AS(telenorid_client, h.config), "ES256", "{}", NULL, NULL));
    CHECK_WRONG_KIND(telenorid_auth_state_request_headers(AS(telenorid_auth_state, h.client), "GET", "https://x.example/", NULL, &s, &s));
    CHECK_WRONG_KIND(telenorid_auth_request_add_resource(AS(telenorid_auth_request, h.config), "https://x.example/"));
    CHECK_WRONG_KIND(telenorid_auth_request_set_authorization_details(AS(telenorid_auth_request, h.config), NULL));
    CHECK_WRONG_KIND(telenorid_auth_request_set_token_authorization_details(AS(telenorid_auth_request, h.config), NULL));
    CHECK_WRONG_KIND(telenorid_auth_request_apply_step_up(AS(telenorid_auth_request, h.config), "Bearer", &flag));
    CHECK_WRONG_KIND(telenorid_client_exchange_code(AS(telenorid_client, h.config), h.callback, AS(telenorid_auth_state *, &out)));
    CHECK_WRONG_KIND(telenorid_client_exchange_code(h.client, AS(telenorid_authorization_callback, h.app_callback), AS(telenorid_auth_state *, &out)));
    CHECK_WRONG_KIND(telenorid_auth_state_fresh_access_token(AS(telenorid_auth_state, h.client), &s));
    CHECK_WRONG_KIND(telenorid_auth_state_refresh(AS(telenorid_auth_state, h.client)));
    CHECK_WRONG_KIND(telenorid_auth_state_is_signed_in(AS(telenorid_auth_state, wrong), &flag));
    CHECK_WRONG_KIND(telenorid_auth_state_get(AS(telenorid_auth_state, wrong), TELENORID_TOKEN_ACCESS_TOKEN, &s));
    CHECK_WRONG_KIND(telenorid_auth_state_expires_at(AS(telenorid_auth_state, wrong), &expiry));
    CHECK_WRONG_KIND(telenorid_auth_state_userinfo(AS(telenorid_auth_state, wrong), &s));
    CHECK_WRONG_KIND(telenorid_auth_state_revoke(AS(telenorid_auth_state, wrong)));
    CHECK_WRONG_KIND(telenorid_auth_state_save(AS(telenorid_auth_state, wrong)));
    CHECK_WRONG_KIND(telenorid_auth_state_end_session_url(AS(telenorid_auth_state, wrong), NULL, NULL, &s));
    CHECK_WRONG_KIND(telenorid_auth_state_serialize(AS(telenorid_auth_state, h.client), &s));
    CHECK_WRONG_KIND(telenorid_auth_state_restore(AS(telenorid_client, h.state), "{\"version\":1}", AS(telenorid_auth_state *, &out)));
    CHECK_WRONG_KIND(telenorid_auth_state_set_change_callback(AS(telenorid_auth_state, wrong), change_counter, &flag));
    CHECK(s == SENTINEL && out == SENTINEL && flag == 77 && expiry == 77);

    /* The error accessors treat a handle of another kind like NULL. */
    telenorid_error *not_error = AS(telenorid_error, wrong);
    CHECK(telenorid_error_status(not_error) == TELENORID_E_INVALID_ARGUMENT);
    CHECK(telenorid_error_message(not_error) != NULL);
    CHECK(telenorid_error_oauth_error(not_error) == NULL);
    CHECK(telenorid_error_http_status(not_error) == 0);
    /* The callback of the first call was not exchanged by any of the refused calls: no network was reached. */
    handles_free(&h);
}

/* ------------------------------------------------------------------------------------------------
 * Strings: UTF-8 and the length limit; unknown enum values
 * --------------------------------------------------------------------------------------------- */

static const char *const bad_utf8[] = {
    "\xff\xfe",             /* never valid */
    "\xc0\xaf",             /* overlong "/" */
    "\xe0\x80\xaf",         /* overlong, three bytes */
    "\xed\xa0\x80",         /* a UTF-16 surrogate */
    "\xf4\x90\x80\x80",     /* above U+10FFFF */
    "abc\xe2\x82",          /* cut short */
    "\x80",                 /* a lone continuation byte */
};
#define BAD_UTF8_COUNT (sizeof bad_utf8 / sizeof bad_utf8[0])

void test_invalid_utf8(void) {
    struct handles h;
    handles_make(&h);
    void *out = SENTINEL;
    char *s = SENTINEL;
    for (size_t i = 0; i < BAD_UTF8_COUNT; i++) {
        const char *bad = bad_utf8[i];
        char *json = concat("{\"client_id\":\"", bad, "\"}", NULL);
        char *url = concat(REDIRECT "?code=", bad, "&state=x", NULL);
        prime_last_error();
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_builder_set(h.builder, TELENORID_CONFIG_CLIENT_ID, bad));
        CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "UTF-8");
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_from_json(json, NULL, AS(telenorid_config *, &out)));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_from_json("{}", bad, AS(telenorid_config *, &out)));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier(bad, AS(telenorid_pkce *, &out)));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set(h.request, TELENORID_AUTH_LOGIN_HINT, bad));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_parameter(h.request, bad, "v"));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_parameter(h.request, "n", bad));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_claim(h.request, TELENORID_CLAIMS_ID_TOKEN, bad, -1, NULL, NULL, NULL));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_claim(h.request, TELENORID_CLAIMS_ID_TOKEN, "x", -1, bad, NULL, NULL));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_claim(h.request, TELENORID_CLAIMS_ID_TOKEN, "x", -1, NULL, bad, NULL));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_claim(h.request, TELENORID_CLAIMS_ID_TOKEN, "x", -1, NULL, NULL, bad));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set_app_to_app(h.request, bad));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_restore(h.config, bad, AS(telenorid_pending_auth *, &out)));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_handle_callback(h.pending, url, AS(telenorid_authorization_callback *, &out)));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_authorization_callback_parameter(h.callback, bad, &s));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_handle_app_callback(h.app_pending, bad, NULL, AS(telenorid_app_callback *, &out)));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_handle_app_callback(h.app_pending, APP_CALLBACK "?state=x", bad, AS(telenorid_app_callback *, &out)));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_end_session_url(h.state, bad, NULL, &s));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_end_session_url(h.state, NULL, bad, &s));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_restore(h.client, bad, AS(telenorid_auth_state *, &out)));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_verify_id_token(h.client, bad, NULL, &s));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_verify_id_token(h.client, "a.b.c", bad, &s));
        free(json);
        free(url);
    }
    CHECK(out == SENTINEL && s == SENTINEL);
    /* Valid UTF-8 beyond ASCII is fine: two-, three- and four-byte sequences. */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(h.request, TELENORID_AUTH_LOGIN_HINT, "\xc3\x85se \xe2\x82\xac \xf0\x9f\x94\x91"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(h.builder, TELENORID_CONFIG_ENVIRONMENT, "pr\xc3\xb8ve"));
    handles_free(&h);
}

void test_length_limit(void) {
    struct handles h;
    handles_make(&h);
    void *out = SENTINEL;
    char *too_long = big_string((size_t)TELENORID_MAX_INPUT + 1, 'a');
    char *at_limit = big_string((size_t)TELENORID_MAX_INPUT, 'a');

    prime_last_error();
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_builder_set(h.builder, TELENORID_CONFIG_CLIENT_ID, too_long));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "longer");
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_from_json(too_long, NULL, AS(telenorid_config *, &out)));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier(too_long, AS(telenorid_pkce *, &out)));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set(h.request, TELENORID_AUTH_LOGIN_HINT, too_long));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_parameter(h.request, "n", too_long));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_restore(h.config, too_long, AS(telenorid_pending_auth *, &out)));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_handle_callback(h.pending, too_long, AS(telenorid_authorization_callback *, &out)));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_restore(h.client, too_long, AS(telenorid_auth_state *, &out)));
    CHECK(out == SENTINEL);

    /* Exactly TELENORID_MAX_INPUT bytes is accepted. */
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(h.builder, TELENORID_CONFIG_ENVIRONMENT, at_limit));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(h.builder, TELENORID_CONFIG_ENVIRONMENT, NULL));

    /* Beyond the contract (strings must be terminated), but the implementation promises it: an unterminated
     * buffer one byte past the limit is read no further than that (ASan and valgrind would see an over-read). */
    char *unterminated = malloc((size_t)TELENORID_MAX_INPUT + 1);
    if (!unterminated) abort();
    memset(unterminated, 'b', (size_t)TELENORID_MAX_INPUT + 1);
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_builder_set(h.builder, TELENORID_CONFIG_CLIENT_ID, unterminated));
    free(unterminated);
    free(too_long);
    free(at_limit);
    handles_free(&h);
}

void test_unknown_enums(void) {
    struct handles h;
    handles_make(&h);
    char *s = SENTINEL;
    const telenorid_config_key config_keys[] = {0, -1, 1000, 9999, INT32_MIN, INT32_MAX};
    for (size_t i = 0; i < sizeof config_keys / sizeof config_keys[0]; i++) {
        prime_last_error();
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_builder_set(h.builder, config_keys[i], "x"));
        CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "unknown");
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_builder_set(h.builder, config_keys[i], NULL));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_config_get(h.config, config_keys[i], &s));
    }
    const telenorid_auth_param params[] = {0, -1, 15, 1000, INT32_MAX}; /* 15: the first not defined (0.5.0) */
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set(h.request, params[i], "x"));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set(h.request, params[i], NULL));
    }
    const telenorid_claim_target targets[] = {0, 3, -1};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_claim(h.request, targets[i], "x", -1, NULL, NULL, NULL));
    }
    const int32_t essentials[] = {2, -2, INT32_MIN};
    for (size_t i = 0; i < sizeof essentials / sizeof essentials[0]; i++) {
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_claim(h.request, TELENORID_CLAIMS_ID_TOKEN, "x", essentials[i], NULL, NULL, NULL));
    }
    const telenorid_pkce_method methods[] = {2, -1, 99};
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set_pkce_method(h.request, methods[i]));
    }
    const telenorid_token_field fields[] = {0, 10, -1}; /* 10: the first not defined (0.8.0) */
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_get(h.state, fields[i], &s));
    }
    CHECK(s == SENTINEL);
    handles_free(&h);
}

/* ------------------------------------------------------------------------------------------------
 * Free order
 * --------------------------------------------------------------------------------------------- */

/* Children keep their parents alive: free in any order. */
void test_free_order(void) {
    telenorid_config *config = make_config();
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    telenorid_config_free(config);                 /* the request keeps it */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_PROMPT, "login"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    telenorid_auth_request_free(request);          /* the pending request keeps what it needs */
    char *url = pending_string(telenorid_pending_auth_url, pending);
    CHECK_CONTAINS(url, "client_id=tnn-example");
    free(url);
    telenorid_authorization_callback *callback = make_callback(pending, REDIRECT "?code=order&state=");
    telenorid_pending_auth_free(pending);          /* the callback outlives it */
    char *code = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_authorization_callback_code(callback, &code));
    CHECK_STR("order", code);
    telenorid_string_free(code);

    /* A client outlives its configuration; an auth state outlives its client. */
    config = make_config();
    telenorid_client *client = NULL;
    telenorid_auth_state *state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    telenorid_config_free(config);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client, "{\"version\":1,\"access_token\":\"a\",\"token_type\":\"Bearer\"}", &state));
    telenorid_client_free(client);
    char *token = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_fresh_access_token(state, &token)); /* no expiry: no refresh */
    CHECK_STR("a", token);
    telenorid_string_free(token);
    telenorid_auth_state_free(state);
    telenorid_authorization_callback_free(callback);
}

/* ------------------------------------------------------------------------------------------------
 * Old names (aliases until 1.0)
 * --------------------------------------------------------------------------------------------- */

static int32_t not_cellular(void *user_data, int fd) {
    (void)user_data; (void)fd;
    return TELENORID_SOCKET_NOT_CELLULAR;
}

/* Each 0.4 name once: its type is the new type (these assignments compile under -Werror only then) and its
 * function answers as the new name does. */
void test_old_names(void) {
    telenorid_sign_callback old_signer = refusing_signer;
    telenorid_host_key_signer signer = old_signer;
    CHECK(signer == refusing_signer);

    telenorid_config *config = make_config();
    telenorid_pending_auth *pending = make_pending(config, 0);
    telenorid_callback *callback = make_callback(pending, REDIRECT "?code=old&scope=openid&state=");
    telenorid_authorization_callback *same_callback = callback;
    char *value = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_callback_code(same_callback, &value));
    CHECK_STR("old", value);
    telenorid_string_free(value);
    value = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_callback_parameter(callback, "scope", &value));
    CHECK_STR("openid", value);
    telenorid_string_free(value);
    telenorid_callback_free(callback);
    telenorid_pending_auth_free(pending);
    telenorid_config_free(config);

    telenorid_loopback *listener = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_loopback_new(0, "/old", &listener));
    telenorid_loopback_listener *same_listener = listener;
    char *uri = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_loopback_redirect_uri(same_listener, &uri));
    CHECK(uri != NULL && strncmp(uri, "http://127.0.0.1:", 17) == 0 && strcmp(uri + strlen(uri) - 4, "/old") == 0);
    telenorid_string_free(uri);
    CHECK_STATUS(TELENORID_OK, telenorid_loopback_expect_state(listener, "s"));
    CHECK_STATUS(TELENORID_OK, telenorid_loopback_cancel(listener)); /* no wait under way: nothing to end */
    char *redirect = NULL;
    CHECK_STATUS(TELENORID_E_TIMEOUT, telenorid_loopback_wait(listener, 1, &redirect));
    CHECK(redirect == NULL);
    telenorid_loopback_free(listener);

    /* A line authenticator whose hook says "not cellular": refused before any socket connects. */
    telenorid_config_builder *b = builder_with("https://id.example.com", "tnn-example", REDIRECT);
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ALOHA_URL, "https://127.0.0.1:1/"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    telenorid_config_builder_free(b);
    telenorid_line_auth *line_auth = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_line_auth_new(config, &line_auth));
    telenorid_line_authenticator *same_authenticator = line_auth;
    CHECK_STATUS(TELENORID_OK, telenorid_line_auth_set_socket_hook(same_authenticator, not_cellular, NULL));
    CHECK_STATUS(TELENORID_E_LINE_AUTH_UNAVAILABLE, telenorid_line_auth_run(line_auth));
    int64_t seconds = 42;
    CHECK_STATUS(TELENORID_OK, telenorid_line_auth_valid_for(line_auth, &seconds));
    CHECK(seconds == 0);
    telenorid_auth_request *request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_E_LINE_AUTH_UNAVAILABLE, telenorid_line_auth_apply(line_auth, request));
    telenorid_auth_request_free(request);
    telenorid_line_auth_free(line_auth);
    telenorid_config_free(config);
}
