/* Configuration: the builder and JSON documents. Part of test_api. */
#include "api_support.h"

/* ------------------------------------------------------------------------------------------------
 * Configuration
 * --------------------------------------------------------------------------------------------- */

void test_config_builder(void) {
    static const struct { telenorid_config_key key; const char *value; } every[] = {
        {TELENORID_CONFIG_ISSUER, "https://id.example.com"},
        {TELENORID_CONFIG_CLIENT_ID, "tnn-example"},
        {TELENORID_CONFIG_REDIRECT_URI, REDIRECT},
        {TELENORID_CONFIG_SCOPE, "openid profile"},
        {TELENORID_CONFIG_AUTHORIZATION_ENDPOINT, "https://id.example.com/authorize"},
        {TELENORID_CONFIG_TOKEN_ENDPOINT, "https://id.example.com/token"},
        {TELENORID_CONFIG_USERINFO_ENDPOINT, "https://id.example.com/userinfo"},
        {TELENORID_CONFIG_REVOCATION_ENDPOINT, "https://id.example.com/revoke"},
        {TELENORID_CONFIG_END_SESSION_ENDPOINT, "https://id.example.com/logout"},
        {TELENORID_CONFIG_JWKS_URI, "https://id.example.com/jwks"},
        {TELENORID_CONFIG_ENVIRONMENT, "staging"},
        {TELENORID_CONFIG_ALLOW_PLAIN_PKCE, "true"},
        {TELENORID_CONFIG_CLIENT_SECRET, "s3cret"},
        {TELENORID_CONFIG_TOKEN_ENDPOINT_AUTH_METHOD, "client_secret_post"},
        {TELENORID_CONFIG_CLIENT_PRIVATE_KEY, "{\"kty\":\"OKP\"}"},
        {TELENORID_CONFIG_CA_FILE, "/etc/ssl/certs/ca-certificates.crt"},
        {TELENORID_CONFIG_CA_PATH, "/etc/ssl/certs"},
        {TELENORID_CONFIG_PROXY, "http://proxy.example:3128"},
        {TELENORID_CONFIG_CONNECT_TIMEOUT_MS, "5000"},
        {TELENORID_CONFIG_TIMEOUT_MS, "20000"},
        {TELENORID_CONFIG_MAX_RESPONSE_BYTES, "65536"},
        {TELENORID_CONFIG_CLOCK_TOLERANCE_S, "60"},
        {TELENORID_CONFIG_CLOCK_OFFSET_S, "-5"},
        {TELENORID_CONFIG_TRUSTED_AUDIENCES, "api-1 api-2"},
        {TELENORID_CONFIG_ID_TOKEN_SIGNING_ALGS, "RS256 ES256"},
        {TELENORID_CONFIG_REFRESH_MARGIN_S, "30"},
        {TELENORID_CONFIG_ALOHA_URL, "https://aloha.example/"},
        {TELENORID_CONFIG_JWKS_MAX_AGE_S, "600"},
        {TELENORID_CONFIG_CLIENT_ASSERTION_AUDIENCE, "endpoint"},
        {TELENORID_CONFIG_PUSHED_AUTHORIZATION_REQUEST_ENDPOINT, "https://id.example.com/par"},
        {TELENORID_CONFIG_PUSH_AUTHORIZATION_REQUESTS, "true"},
        {TELENORID_CONFIG_DPOP_SIGNING_ALG, "ES256 EdDSA"},
        {TELENORID_CONFIG_DPOP_BIND_AUTHORIZATION_CODE, "true"},
        {TELENORID_CONFIG_ALLOW_BEARER_DOWNGRADE, "true"},
        {TELENORID_CONFIG_SIGN_AUTHORIZATION_REQUESTS, "false"},
        /* TELENORID_CONFIG_SECURITY_PROFILE "fapi2" refuses half of these values: read back on its own below. */
        {TELENORID_CONFIG_CLIENT_KEY_ID, "key-1"},
        {TELENORID_CONFIG_DEVICE_AUTHORIZATION_ENDPOINT, "https://id.example.com/device"},
        {TELENORID_CONFIG_BACKCHANNEL_AUTHENTICATION_ENDPOINT, "https://id.example.com/bc-authorize"},
        {TELENORID_CONFIG_BACKCHANNEL_TOKEN_DELIVERY_MODE, "ping"},
        {TELENORID_CONFIG_INTROSPECTION_ENDPOINT, "https://id.example.com/introspect"},
    };
    const size_t count = sizeof every / sizeof every[0];
    /* Every key of the header but the security profile, each set and read back under its own number. */
    CHECK(count == TELENORID_CONFIG_INTROSPECTION_ENDPOINT - 1);
    for (size_t i = 0; i < count; i++) CHECK(every[i].key == (telenorid_config_key)(i < 35 ? i + 1 : i + 2));
    telenorid_config_builder *b = NULL;
    telenorid_config *config = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    /* An empty builder lacks what is required; the failure leaves the builder usable. */
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONFIGURATION, config, telenorid_config_builder_build(b, &config));
    for (size_t i = 0; i < count; i++) CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, every[i].key, every[i].value));
    config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    for (size_t i = 0; i < count; i++) CHECK_CONFIG(config, every[i].key, every[i].value);

    /* The builder stays usable and the built configuration doesn't change with it. */
    telenorid_config *second = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, "other"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_PROXY, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &second));
    CHECK_CONFIG(config, TELENORID_CONFIG_CLIENT_ID, "tnn-example");
    CHECK_CONFIG(second, TELENORID_CONFIG_CLIENT_ID, "other");
    char *proxy = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_get(second, TELENORID_CONFIG_PROXY, &proxy));
    CHECK(proxy == NULL); /* cleared: absent, *out = NULL */
    telenorid_config_free(second);
    telenorid_config_free(config);
    telenorid_config_builder_free(b);
    b = builder_with("https://id.example.com", "c", REDIRECT);
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_SECURITY_PROFILE, "fapi2"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    CHECK_CONFIG(config, TELENORID_CONFIG_SECURITY_PROFILE, "fapi2");
    telenorid_config_free(config);
    telenorid_config_builder_free(b);

    /* Values are checked when built, not when set; each bad one gives CONFIGURATION or INSECURE. */
    static const struct { telenorid_config_key key; const char *value; telenorid_status expected; } bad[] = {
        {TELENORID_CONFIG_ISSUER, "not a url", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_ISSUER, "http://id.example.com", TELENORID_E_INSECURE},
        {TELENORID_CONFIG_ISSUER, "https://id.example.com?tenant=1", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_CLIENT_ID, "", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_REDIRECT_URI, "http://app.example/cb", TELENORID_E_INSECURE},
        {TELENORID_CONFIG_REDIRECT_URI, REDIRECT "#frag", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_SCOPE, "", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_AUTHORIZATION_ENDPOINT, "http://id.example.com/authorize", TELENORID_E_INSECURE},
        {TELENORID_CONFIG_TOKEN_ENDPOINT, "http://id.example.com/token", TELENORID_E_INSECURE},
        {TELENORID_CONFIG_USERINFO_ENDPOINT, "ftp://id.example.com/userinfo", TELENORID_E_INSECURE},
        {TELENORID_CONFIG_JWKS_URI, "https://id.example.com/jwks#x", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_ALLOW_PLAIN_PKCE, "yes", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_TOKEN_ENDPOINT_AUTH_METHOD, "bogus", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_TOKEN_ENDPOINT_AUTH_METHOD, "client_secret_basic", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_CONNECT_TIMEOUT_MS, "0", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_TIMEOUT_MS, "ten", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_MAX_RESPONSE_BYTES, "10", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_CLOCK_TOLERANCE_S, "-1", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_REFRESH_MARGIN_S, "99999999999999999999", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_ID_TOKEN_SIGNING_ALGS, "RS256 none", TELENORID_E_CONFIGURATION},
        {TELENORID_CONFIG_ID_TOKEN_SIGNING_ALGS, "HS256", TELENORID_E_CONFIGURATION}, /* HMAC without a secret */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        b = builder_with("https://id.example.com", "c", REDIRECT);
        CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, bad[i].key, bad[i].value));
        prime_last_error();
        CHECK_FAILS_UNTOUCHED(bad[i].expected, config, telenorid_config_builder_build(b, &config));
        if (!CHECK_LAST_ERROR(bad[i].expected, NULL)) fprintf(stderr, "  key %d value \"%s\"\n", bad[i].key, bad[i].value);
        telenorid_config_builder_free(b);
    }
    /* private_key_jwt without client_private_key builds: the host may hold the key and hand it to the
     * client (telenorid_client_set_client_signer); without one the first signature is the error. */
    b = builder_with("https://id.example.com", "c", REDIRECT);
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_TOKEN_ENDPOINT_AUTH_METHOD, "private_key_jwt"));
    config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    telenorid_config_free(config);
    telenorid_config_builder_free(b);
    config = SENTINEL;

    /* Plain http is fine on loopback; a custom-scheme redirect URI is kept exactly as given. */
    b = builder_with("http://127.0.0.1:8000/o", "c", "com.example.app:/oauth2redirect/");
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_TOKEN_ENDPOINT, "http://localhost:8000/o/token"));
    config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    CHECK_CONFIG(config, TELENORID_CONFIG_ISSUER, "http://127.0.0.1:8000/o");
    CHECK_CONFIG(config, TELENORID_CONFIG_REDIRECT_URI, "com.example.app:/oauth2redirect/");
    char *unset = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_get(config, TELENORID_CONFIG_SCOPE, &unset));
    CHECK(unset == NULL); /* the default ("openid") is not a setting */
    telenorid_config_free(config);
    telenorid_config_builder_free(b);
}

void test_config_json(void) {
    const char *environments =
        "{\"default_environment\":\"production\",\"environments\":{"
        "\"staging\":{\"issuer\":\"https://staging.example\",\"client_id\":\"app-staging\",\"redirect_uri\":\"app://cb\"},"
        "\"production\":{\"issuer\":\"https://id.example\",\"client_id\":\"app\",\"redirect_uri\":\"app://cb\","
        "\"scopes\":[\"openid\",\"profile\"],\"authorization_endpoint\":\"https://id.example/auth\"}}}";
    telenorid_config *config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_from_json(environments, NULL, &config));
    CHECK_CONFIG(config, TELENORID_CONFIG_CLIENT_ID, "app");
    CHECK_CONFIG(config, TELENORID_CONFIG_ISSUER, "https://id.example");
    CHECK_CONFIG(config, TELENORID_CONFIG_SCOPE, "openid profile");
    CHECK_CONFIG(config, TELENORID_CONFIG_ENVIRONMENT, "production");
    telenorid_config_free(config);
    config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_from_json(environments, "staging", &config));
    CHECK_CONFIG(config, TELENORID_CONFIG_CLIENT_ID, "app-staging");
    CHECK_CONFIG(config, TELENORID_CONFIG_ENVIRONMENT, "staging");
    telenorid_config_free(config);

    /* One object of settings, with every kind of value: strings, a boolean, numbers, arrays. */
    const char *single =
        "{\"issuer\":\"https://id.example\",\"client_id\":\"app\",\"redirect_uri\":\"app://cb\",\"scope\":\"openid email\","
        "\"allow_plain_pkce\":true,\"timeout_ms\":5000,\"trusted_audiences\":[\"a\",\"b\"],\"environment\":\"qa\"}";
    config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_from_json(single, NULL, &config));
    CHECK_CONFIG(config, TELENORID_CONFIG_SCOPE, "openid email");
    CHECK_CONFIG(config, TELENORID_CONFIG_ALLOW_PLAIN_PKCE, "true");
    CHECK_CONFIG(config, TELENORID_CONFIG_TIMEOUT_MS, "5000");
    CHECK_CONFIG(config, TELENORID_CONFIG_TRUSTED_AUDIENCES, "a b");
    CHECK_CONFIG(config, TELENORID_CONFIG_ENVIRONMENT, "qa");
    telenorid_config_free(config);

    static const struct { const char *json; const char *environment; telenorid_status expected; const char *mention; } bad[] = {
        {"{\"issuer\":\"https://id.example\",\"client_id\":\"app\",\"redirect_uri\":\"app://cb\",\"isuer\":\"x\"}", NULL,
         TELENORID_E_CONFIGURATION, "isuer"},                                          /* misspelt: refused */
        {"{\"issuer\":\"https://id.example\",\"client_id\":5,\"redirect_uri\":\"app://cb\"}", NULL,
         TELENORID_E_CONFIGURATION, "client_id"},                                      /* wrong type */
        {"{\"issuer\":\"https://id.example\",\"client_id\":\"a\",\"redirect_uri\":\"app://cb\",\"scope\":\"openid\","
         "\"scopes\":[\"openid\"]}", NULL, TELENORID_E_CONFIGURATION, "scope"},        /* both */
        {"{\"issuer\":\"https://id.example\",\"client_id\":\"a\",\"redirect_uri\":\"app://cb\"}", "staging",
         TELENORID_E_CONFIGURATION, "staging"},                                        /* no environments */
        {"{\"issuer\":\"http://id.example\",\"client_id\":\"a\",\"redirect_uri\":\"app://cb\"}", NULL,
         TELENORID_E_INSECURE, NULL},
        {"{\"client_id\":\"a\",\"redirect_uri\":\"app://cb\"}", NULL, TELENORID_E_CONFIGURATION, "issuer"},
        {"[]", NULL, TELENORID_E_CONFIGURATION, NULL},
        {"", NULL, TELENORID_E_MALFORMED, NULL},
        {"{", NULL, TELENORID_E_MALFORMED, NULL},
        {"{} x", NULL, TELENORID_E_MALFORMED, NULL},
        {"{\"issuer\":1,\"issuer\":2}", NULL, TELENORID_E_MALFORMED, "duplicate"},
        {"{\"environments\":{}}", NULL, TELENORID_E_CONFIGURATION, NULL},               /* no default */
        {"{\"environments\":{\"a\":{}},\"extra\":1}", "a", TELENORID_E_CONFIGURATION, "extra"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        prime_last_error();
        if (!CHECK_STATUS(bad[i].expected, telenorid_config_from_json(bad[i].json, bad[i].environment, &config))) {
            fprintf(stderr, "  json %s\n", bad[i].json);
        }
        CHECK_LAST_ERROR(bad[i].expected, bad[i].mention);
    }
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONFIGURATION, config, telenorid_config_from_json(environments, "qa", &config));
    CHECK_LAST_ERROR(TELENORID_E_CONFIGURATION, "qa");

    /* Hostile nesting is refused, not a stack overflow: here, in restored documents and in claim values. */
    char *deep = big_string(200000, '[');
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, config, telenorid_config_from_json(deep, NULL, &config));
    telenorid_config *good = make_config();
    telenorid_pending_auth *pending = SENTINEL;
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, pending, telenorid_pending_auth_restore(good, deep, &pending));
    telenorid_auth_request *request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(good, &request));
    CHECK_STATUS(TELENORID_E_MALFORMED, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "x", -1, NULL, deep, NULL));
    memset(deep, '{', 200000);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, config, telenorid_config_from_json(deep, NULL, &config));
    telenorid_client *client = NULL;
    telenorid_auth_state *state = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(good, &client));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, state, telenorid_auth_state_restore(client, deep, &state));
    telenorid_client_free(client);
    telenorid_auth_request_free(request);
    telenorid_config_free(good);
    free(deep);
}
