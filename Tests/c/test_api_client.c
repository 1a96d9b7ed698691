/* The client against the stand-in provider: sign-in (discovery, code exchange, refresh, sign-out), client
 * authentication, RFC 9207 `iss`, and a code exchange that never left. Part of test_api. */
#include "api_support.h"

/* ------------------------------------------------------------------------------------------------
 * Sign-in
 * --------------------------------------------------------------------------------------------- */

/* Discovery, code exchange, refresh (rotation, kept token, failures, a lost grant) and sign-out. */
void test_client_sign_in(void) {
    telenorid_config *config = provider_config("", NULL);
    telenorid_client *client = NULL;
    telenorid_config *effective = NULL;
    serve_discovery("", NULL);
    int requests_before = stub_requests(&server);
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    CHECK(stub_requests(&server) == requests_before); /* no network call */
    CHECK_STATUS(TELENORID_OK, telenorid_client_config(client, &effective));
    CHECK(stub_hits(&server, "GET", "/.well-known/openid-configuration") == 1);
    char expected[160];
    snprintf(expected, sizeof expected, "%s/token", base_url);
    CHECK_CONFIG(effective, TELENORID_CONFIG_TOKEN_ENDPOINT, expected);
    snprintf(expected, sizeof expected, "%s/authorize", base_url);
    CHECK_CONFIG(effective, TELENORID_CONFIG_AUTHORIZATION_ENDPOINT, expected);
    CHECK_CONFIG(effective, TELENORID_CONFIG_CLIENT_ID, "c-1");
    CHECK_STATUS(TELENORID_OK, telenorid_client_discover(client));
    CHECK(stub_hits(&server, "GET", "/.well-known/openid-configuration") == 1); /* cached */
    /* A token that is not a JWS is refused before any key is fetched. */
    char *verified = SENTINEL;
    CHECK_FAILS_UNTOUCHED(TELENORID_E_TOKEN_INVALID, verified, telenorid_client_verify_id_token(client, "not.a.jwt", NULL, &verified));

    /* Sign in: request, callback, exchange. */
    telenorid_pending_auth *pending = make_pending(effective, 0);
    char *verifier = pending_string(telenorid_pending_auth_code_verifier, pending);
    telenorid_authorization_callback *callback = make_callback(pending, "com.example.app:/cb?code=code-1&state=");
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"at-1\",\"token_type\":\"Bearer\",\"expires_in\":3600,\"refresh_token\":\"rt-1\",\"scope\":\"profile\"}",
             "Cache-Control: no-store\r\n", 0);
    telenorid_auth_state *state = NULL;
    int64_t now = (int64_t)time(NULL);
    CHECK_STATUS(TELENORID_OK, telenorid_client_exchange_code(client, callback, &state));
    char *sent = stub_last_request(&server, "POST", "/token");
    CHECK_CONTAINS(sent, "grant_type=authorization_code");
    CHECK_CONTAINS(sent, "code=code-1");
    CHECK_CONTAINS(sent, "redirect_uri=com.example.app%3A%2Fcb");
    CHECK_CONTAINS(sent, "client_id=c-1");
    if (verifier) {
        char *field = concat("code_verifier=", verifier, NULL, NULL);
        CHECK_CONTAINS(sent, field);
        free(field);
    }
    CHECK_CONTAINS(sent, "application/x-www-form-urlencoded");
    free(sent);
    /* A callback's code is sent once. */
    telenorid_auth_state *twice = SENTINEL;
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONSUMED, twice, telenorid_client_exchange_code(client, callback, &twice));
    CHECK(stub_hits(&server, "POST", "/token") == 1);

    CHECK(signed_in(state) == 1);
    CHECK_TOKEN(state, TELENORID_TOKEN_ACCESS_TOKEN, "at-1");
    CHECK_TOKEN(state, TELENORID_TOKEN_REFRESH_TOKEN, "rt-1");
    CHECK_TOKEN(state, TELENORID_TOKEN_ID_TOKEN, NULL);
    CHECK_TOKEN(state, TELENORID_TOKEN_ID_TOKEN_CLAIMS, NULL);
    CHECK_TOKEN(state, TELENORID_TOKEN_SCOPE, "profile");
    CHECK_TOKEN(state, TELENORID_TOKEN_TYPE, "Bearer");
    int64_t expiry = expires_at(state);
    CHECK(expiry >= now + 3600 - 5 && expiry <= now + 3600 + 60);
    char *token = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_fresh_access_token(state, &token));
    CHECK_STR("at-1", token);
    telenorid_string_free(token);
    CHECK(stub_hits(&server, "POST", "/token") == 1); /* fresh enough: no refresh */
    char *json = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_serialize(state, &json));
    CHECK_CONTAINS(json, "\"version\":1");
    CHECK_CONTAINS(json, "\"refresh_token\":\"rt-1\"");
    telenorid_string_free(json);

    /* Refresh with rotation; the change callback fires. */
    int changes = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(state, change_counter, &changes));
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"at-2\",\"token_type\":\"Bearer\",\"expires_in\":7200,\"refresh_token\":\"rt-2\"}", NULL, 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_refresh(state));
    sent = stub_last_request(&server, "POST", "/token");
    CHECK_CONTAINS(sent, "grant_type=refresh_token");
    CHECK_CONTAINS(sent, "refresh_token=rt-1");
    free(sent);
    CHECK(changes == 1);
    CHECK_TOKEN(state, TELENORID_TOKEN_ACCESS_TOKEN, "at-2");
    CHECK_TOKEN(state, TELENORID_TOKEN_REFRESH_TOKEN, "rt-2");
    CHECK_TOKEN(state, TELENORID_TOKEN_SCOPE, "profile"); /* kept from before */

    /* A response without a refresh token keeps the old one; without expires_in the expiry is unknown (0). */
    stub_set(&server, "POST", "/token", 200, "application/json", "{\"access_token\":\"at-3\",\"token_type\":\"bearer\"}", NULL, 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_refresh(state));
    CHECK(changes == 2);
    CHECK_TOKEN(state, TELENORID_TOKEN_ACCESS_TOKEN, "at-3");
    CHECK_TOKEN(state, TELENORID_TOKEN_REFRESH_TOKEN, "rt-2");
    CHECK(expires_at(state) == 0);

    /* Transient failures leave the state as it was and don't notify. */
    stub_set(&server, "POST", "/token", 503, "text/html", "<h1>down</h1>", "Retry-After: 120\r\n", 0);
    prime_last_error();
    CHECK_STATUS(TELENORID_E_TEMPORARILY_UNAVAILABLE, telenorid_auth_state_refresh(state));
    telenorid_error *e = telenorid_error_last();
    CHECK(telenorid_error_status(e) == TELENORID_E_TEMPORARILY_UNAVAILABLE);
    CHECK(telenorid_error_http_status(e) == 503);
    CHECK(telenorid_error_retry_after(e) == 120);
    CHECK(telenorid_error_oauth_error(e) == NULL);
    telenorid_error_free(e);
    stub_set(&server, "POST", "/token", 200, "application/json", "not json", NULL, 0);
    CHECK_STATUS(TELENORID_E_INVALID_RESPONSE, telenorid_auth_state_refresh(state));
    stub_set(&server, "POST", "/token", 200, "application/json", "{\"access_token\":\"x\",\"token_type\":\"mac\"}", NULL, 0);
    CHECK_STATUS(TELENORID_E_INVALID_RESPONSE, telenorid_auth_state_refresh(state));
    stub_set(&server, "POST", "/token", 400, "application/json", "{\"error\":\"invalid_request\"}", NULL, 0);
    CHECK_STATUS(TELENORID_E_AUTHORIZATION_ERROR, telenorid_auth_state_refresh(state)); /* not a lost grant */
    CHECK(changes == 2);
    CHECK(signed_in(state) == 1);
    CHECK_TOKEN(state, TELENORID_TOKEN_ACCESS_TOKEN, "at-3");
    CHECK_TOKEN(state, TELENORID_TOKEN_REFRESH_TOKEN, "rt-2");

    /* A removed callback is not called. */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(state, NULL, NULL));
    stub_set(&server, "POST", "/token", 200, "application/json", "{\"access_token\":\"at-4\",\"token_type\":\"Bearer\"}", NULL, 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_refresh(state));
    CHECK(changes == 2);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(state, change_counter, &changes));

    /* The provider refuses the refresh token: signed out, AUTHORIZATION_LOST with its fields. */
    stub_set(&server, "POST", "/token", 400, "application/json",
             "{\"error\":\"invalid_grant\",\"error_description\":\"gone\",\"error_uri\":\"https://e.example/g\"}", NULL, 0);
    CHECK_STATUS(TELENORID_E_AUTHORIZATION_LOST, telenorid_auth_state_refresh(state));
    e = telenorid_error_last();
    CHECK(telenorid_error_status(e) == TELENORID_E_AUTHORIZATION_LOST);
    CHECK_STR("invalid_grant", telenorid_error_oauth_error(e));
    CHECK_STR("gone", telenorid_error_oauth_description(e));
    CHECK_STR("https://e.example/g", telenorid_error_oauth_uri(e));
    CHECK(telenorid_error_http_status(e) == 400);
    telenorid_error_free(e);
    CHECK(changes == 3);
    CHECK(signed_in(state) == 0);
    CHECK_TOKEN(state, TELENORID_TOKEN_ACCESS_TOKEN, NULL);
    CHECK_TOKEN(state, TELENORID_TOKEN_REFRESH_TOKEN, NULL);
    CHECK(expires_at(state) == 0);
    int token_calls = stub_hits(&server, "POST", "/token");
    token = SENTINEL;
    CHECK_FAILS_UNTOUCHED(TELENORID_E_NOT_SIGNED_IN, token, telenorid_auth_state_fresh_access_token(state, &token));
    e = telenorid_error_last();
    CHECK_STR("invalid_grant", telenorid_error_oauth_error(e)); /* why, still */
    telenorid_error_free(e);
    CHECK_STATUS(TELENORID_E_NOT_SIGNED_IN, telenorid_auth_state_refresh(state));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_NOT_SIGNED_IN, token, telenorid_auth_state_userinfo(state, &token));
    CHECK_STATUS(TELENORID_E_NOT_SIGNED_IN, telenorid_auth_state_revoke(state));
    CHECK(stub_hits(&server, "POST", "/token") == token_calls); /* nothing went out */
    json = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_serialize(state, &json));
    CHECK_CONTAINS(json, "\"signed_out_reason\":\"invalid_grant\"");
    CHECK(json && strstr(json, "rt-2") == NULL);
    telenorid_string_free(json);
    /* Logout needs no tokens: the URL then has no id_token_hint. */
    char *logout = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_end_session_url(state, NULL, NULL, &logout));
    snprintf(expected, sizeof expected, "%s/logout?client_id=c-1", base_url);
    CHECK_STR(expected, logout);
    telenorid_string_free(logout);

    /* A token response without an ID token although openid was asked for is refused. */
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *openid = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(effective, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_SCOPE, "openid profile"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &openid));
    telenorid_authorization_callback *openid_callback = make_callback(openid, "com.example.app:/cb?code=code-2&state=");
    stub_set(&server, "POST", "/token", 200, "application/json", "{\"access_token\":\"x\",\"token_type\":\"Bearer\"}", NULL, 0);
    telenorid_auth_state *refused = SENTINEL;
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_RESPONSE, refused, telenorid_client_exchange_code(client, openid_callback, &refused));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_RESPONSE, "id_token");
    /* The code went out once; a retry is refused without another request. */
    token_calls = stub_hits(&server, "POST", "/token");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONSUMED, refused, telenorid_client_exchange_code(client, openid_callback, &refused));
    CHECK(stub_hits(&server, "POST", "/token") == token_calls);
    telenorid_authorization_callback_free(openid_callback);
    telenorid_pending_auth_free(openid);
    /* An ID token that does not validate is TOKEN_INVALID ("none" is never accepted). */
    openid = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &openid));
    openid_callback = make_callback(openid, "com.example.app:/cb?code=code-3&state=");
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"x\",\"token_type\":\"Bearer\",\"id_token\":\"eyJhbGciOiJub25lIn0.eyJpc3MiOiJ4In0.\"}", NULL, 0);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_TOKEN_INVALID, refused, telenorid_client_exchange_code(client, openid_callback, &refused));
    telenorid_authorization_callback_free(openid_callback);
    telenorid_pending_auth_free(openid);
    /* The provider refusing the code: AUTHORIZATION_ERROR with its fields. */
    openid = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &openid));
    openid_callback = make_callback(openid, "com.example.app:/cb?code=code-4&state=");
    stub_set(&server, "POST", "/token", 400, "application/json", "{\"error\":\"invalid_grant\",\"error_description\":\"code expired\"}", NULL, 0);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_AUTHORIZATION_ERROR, refused, telenorid_client_exchange_code(client, openid_callback, &refused));
    e = telenorid_error_last();
    CHECK_STR("invalid_grant", telenorid_error_oauth_error(e));
    CHECK_STR("code expired", telenorid_error_oauth_description(e));
    CHECK(telenorid_error_http_status(e) == 400);
    telenorid_error_free(e);
    telenorid_authorization_callback_free(openid_callback);
    telenorid_pending_auth_free(openid);
    telenorid_auth_request_free(request);

    /* A callback for another client is refused. */
    telenorid_config *other = make_config();
    telenorid_pending_auth *foreign = make_pending(other, 0);
    telenorid_authorization_callback *foreign_callback = make_callback(foreign, REDIRECT "?code=f&state=");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONFIGURATION, refused, telenorid_client_exchange_code(client, foreign_callback, &refused));
    telenorid_authorization_callback_free(foreign_callback);
    telenorid_pending_auth_free(foreign);
    telenorid_config_free(other);

    telenorid_auth_state_free(state);
    telenorid_authorization_callback_free(callback);
    free(verifier);
    telenorid_pending_auth_free(pending);
    telenorid_config_free(effective);
    telenorid_client_free(client);
    telenorid_config_free(config);
}

/* Confidential clients authenticate at the token endpoint as configured. */
void test_client_authentication(void) {
    char token_endpoint[128];
    snprintf(token_endpoint, sizeof token_endpoint, "%s/token-auth", base_url);
    const char *basic[] = {"6", token_endpoint, "13", "s3cr:et", NULL};
    const char *post[] = {"6", token_endpoint, "13", "s3cr:et", "14", "client_secret_post", NULL};
    const char *const *variants[] = {basic, post};
    stub_set(&server, "POST", "/token-auth", 200, "application/json", "{\"access_token\":\"a2\",\"token_type\":\"Bearer\"}", NULL, 0);
    for (int i = 0; i < 2; i++) {
        telenorid_config *config = provider_config("", (const char **)variants[i]);
        telenorid_client *client = NULL;
        telenorid_auth_state *state = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
        CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client,
            "{\"version\":1,\"access_token\":\"a1\",\"token_type\":\"Bearer\",\"refresh_token\":\"r1\"}", &state));
        CHECK_STATUS(TELENORID_OK, telenorid_auth_state_refresh(state));
        char *sent = stub_last_request(&server, "POST", "/token-auth");
        if (i == 0) {
            /* RFC 6749 2.3.1: id and secret form-encoded, then joined: base64("c-1:s3cr%3Aet"). */
            CHECK_CONTAINS(sent, "Authorization: Basic Yy0xOnMzY3IlM0FldA==");
            CHECK(sent && strstr(sent, "client_secret=") == NULL);
        } else {
            CHECK_CONTAINS(sent, "client_id=c-1");
            CHECK_CONTAINS(sent, "client_secret=s3cr%3Aet");
            CHECK(sent && strstr(sent, "Authorization:") == NULL);
        }
        free(sent);
        CHECK_TOKEN(state, TELENORID_TOKEN_ACCESS_TOKEN, "a2");
        telenorid_auth_state_free(state);
        telenorid_client_free(client);
        telenorid_config_free(config);
    }
}

/* RFC 9207: a provider that says it always sends `iss` makes a callback without one a forgery (a mix-up
 * attack); the exchange must refuse it. */
void test_iss_required(void) {
    serve_discovery_with("/iss9207", NULL, ",\"authorization_response_iss_parameter_supported\":true");
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"at-iss\",\"token_type\":\"Bearer\"}", NULL, 0);
    char authorize[128];
    snprintf(authorize, sizeof authorize, "%s/authorize", base_url);
    const char *extra[] = {"5", authorize, NULL}; /* TELENORID_CONFIG_AUTHORIZATION_ENDPOINT: no discovery needed to start */
    telenorid_config *config = provider_config("/iss9207", extra);
    for (int discover_first = 1; discover_first >= 0; discover_first--) {
        telenorid_client *client = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
        if (discover_first) CHECK_STATUS(TELENORID_OK, telenorid_client_discover(client));
        telenorid_pending_auth *pending = make_pending(config, 0);
        telenorid_authorization_callback *callback = make_callback(pending, "com.example.app:/cb?code=no-iss&state=");
        int token_calls = stub_hits(&server, "POST", "/token");
        telenorid_auth_state *state = SENTINEL;
        telenorid_status status = telenorid_client_exchange_code(client, callback, &state);
        /* With or without an earlier telenorid_client_discover(), the code never goes out. */
        CHECK_STATUS(TELENORID_E_ISSUER_MISMATCH, status);
        CHECK(state == SENTINEL);
        CHECK(stub_hits(&server, "POST", "/token") == token_calls);
        telenorid_authorization_callback_free(callback);
        telenorid_pending_auth_free(pending);
        telenorid_client_free(client);
    }
    telenorid_config_free(config);
}

/* A code whose request never left (nothing listens on the token endpoint's port) can be exchanged again;
 * once a request reached the provider, the code is spent. */
void test_exchange_never_sent(void) {
    const char *closed[] = {"6", "http://127.0.0.1:9/token", NULL}; /* 6: TELENORID_CONFIG_TOKEN_ENDPOINT */
    telenorid_config *broken_config = provider_config("", closed), *config = provider_config("", NULL);
    telenorid_client *broken = NULL, *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(broken_config, &broken));
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    serve_discovery("", NULL);
    telenorid_config *effective = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_config(client, &effective));
    telenorid_pending_auth *pending = make_pending(effective, 0);
    telenorid_authorization_callback *callback = make_callback(pending, "com.example.app:/cb?code=code-n&state=");
    telenorid_auth_state *state = SENTINEL;
    CHECK_FAILS_UNTOUCHED(TELENORID_E_NETWORK, state, telenorid_client_exchange_code(broken, callback, &state));
    stub_set(&server, "POST", "/token", 500, "text/plain", "", NULL, 0);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_TEMPORARILY_UNAVAILABLE, state, telenorid_client_exchange_code(client, callback, &state));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONSUMED, state, telenorid_client_exchange_code(client, callback, &state));
    telenorid_authorization_callback_free(callback);
    telenorid_pending_auth_free(pending);
    telenorid_config_free(effective);
    telenorid_client_free(client);
    telenorid_client_free(broken);
    telenorid_config_free(config);
    telenorid_config_free(broken_config);
}
