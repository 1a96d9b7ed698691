/* HTTP against the stand-in provider: each network failure gets its status. Part of test_api. */
#include "api_support.h"

/* ------------------------------------------------------------------------------------------------
 * Transport errors
 * --------------------------------------------------------------------------------------------- */

/* The network failures each get their status: refused, TLS, timeout, size cap, HTTP status, issuer. */
void test_transport_errors(void) {
    telenorid_client *client = NULL;
    telenorid_config *config = NULL, *out = SENTINEL;
    telenorid_error *e = NULL;

    unsigned short refused_port = 0;
    int refused_fd = stub_refused_port(&refused_port);
    CHECK(refused_fd >= 0);
    char issuer[128];
    snprintf(issuer, sizeof issuer, "http://127.0.0.1:%u", (unsigned)refused_port);
    telenorid_config_builder *b = builder_with(issuer, "c-1", "com.example.app:/cb");
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    telenorid_config_builder_free(b);
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    prime_last_error();
    CHECK_STATUS(TELENORID_E_NETWORK, telenorid_client_discover(client));
    e = telenorid_error_last();
    CHECK(telenorid_error_status(e) == TELENORID_E_NETWORK && telenorid_error_http_status(e) == 0);
    CHECK(telenorid_error_message(e)[0] != 0);
    telenorid_error_free(e);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_NETWORK, out, telenorid_client_config(client, &out));
    { /* Building through the client needs the authorization endpoint, so discovery, which can't connect. */
        telenorid_auth_request *request = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
        CHECK_FAILS_UNTOUCHED(TELENORID_E_NETWORK, out, telenorid_client_build_auth_request(client, request, AS(telenorid_pending_auth *, &out)));
        telenorid_auth_request_free(request);
    }
    telenorid_client_free(client);
    telenorid_config_free(config);
    close(refused_fd);

    /* https to a server that speaks plain HTTP: the handshake fails. */
    snprintf(issuer, sizeof issuer, "https://127.0.0.1:%u", (unsigned)server.port);
    b = builder_with(issuer, "c-1", "com.example.app:/cb");
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_TIMEOUT_MS, "5000"));
    config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    telenorid_config_builder_free(b);
    client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    CHECK_STATUS(TELENORID_E_TLS, telenorid_client_discover(client));
    telenorid_client_free(client);
    telenorid_config_free(config);

    /* A discovery document for another issuer. */
    char other_issuer[128];
    snprintf(other_issuer, sizeof other_issuer, "%s/elsewhere", base_url);
    serve_discovery("/impostor", other_issuer);
    config = provider_config("/impostor", NULL);
    client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    CHECK_STATUS(TELENORID_E_ISSUER_MISMATCH, telenorid_client_discover(client));
    telenorid_client_free(client);
    telenorid_config_free(config);

    /* No discovery document: the HTTP status is kept. */
    config = provider_config("/missing", NULL);
    client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    CHECK_STATUS(TELENORID_E_HTTP_STATUS, telenorid_client_discover(client));
    e = telenorid_error_last();
    CHECK(telenorid_error_http_status(e) == 404);
    telenorid_error_free(e);
    telenorid_client_free(client);
    telenorid_config_free(config);

    /* A document that is not JSON, and one naming a plain-http endpoint off loopback. */
    stub_set(&server, "GET", "/garbage/.well-known/openid-configuration", 200, "application/json", "<html>", NULL, 0);
    config = provider_config("/garbage", NULL);
    client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    CHECK_STATUS(TELENORID_E_INVALID_RESPONSE, telenorid_client_discover(client));
    telenorid_client_free(client);
    telenorid_config_free(config);
    char body[512];
    snprintf(body, sizeof body, "{\"issuer\":\"%s/plain\",\"token_endpoint\":\"http://id.example.com/token\"}", base_url);
    stub_set(&server, "GET", "/plain/.well-known/openid-configuration", 200, "application/json", body, NULL, 0);
    config = provider_config("/plain", NULL);
    client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    CHECK_STATUS(TELENORID_E_INSECURE, telenorid_client_discover(client));
    telenorid_client_free(client);
    telenorid_config_free(config);

    /* A response over max_response_bytes. */
    char *big = big_string(8192, ' ');
    memcpy(big, "{\"issuer\":\"x\"", 13);
    big[8190] = '}';
    stub_set(&server, "GET", "/big/.well-known/openid-configuration", 200, "application/json", big, NULL, 0);
    free(big);
    const char *small[] = {"21", "1024", NULL};
    config = provider_config("/big", small);
    client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    CHECK_STATUS(TELENORID_E_RESPONSE_TOO_LARGE, telenorid_client_discover(client));
    telenorid_client_free(client);
    telenorid_config_free(config);

    /* A server slower than timeout_ms. Last: the one-thread server sleeps through it. */
    stub_set(&server, "GET", "/slow/.well-known/openid-configuration", 200, "application/json", "{}", NULL, 1500);
    const char *quick[] = {"20", "300", NULL};
    config = provider_config("/slow", quick);
    client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    CHECK_STATUS(TELENORID_E_TIMEOUT, telenorid_client_discover(client));
    telenorid_client_free(client);
    telenorid_config_free(config);
}
