/* The C tests' way to a signed-in state at a provider on loopback: a public client, and the authorization
 * code flow with PKCE through a browser stand-in (a command that follows the authorization URL to its redirect
 * and prints that). Static inline, as status_checks.h: a test that uses one of them does not warn about the
 * other. */
#ifndef TELENORID_TEST_SIGN_IN_H
#define TELENORID_TEST_SIGN_IN_H
#include "child_process.h"
#include "status_checks.h"

/* A public client of `issuer` asking for `scope`; NULL (a check failed) when the library refused it. */
static inline telenorid_client *public_client(const char *issuer, const char *client_id, const char *redirect_uri,
                                              const char *scope) {
    telenorid_config_builder *b = NULL;
    telenorid_config *settings = NULL;
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, issuer));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, client_id));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_REDIRECT_URI, redirect_uri));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_SCOPE, scope));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &settings));
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(settings, &client));
    telenorid_config_free(settings);
    telenorid_config_builder_free(b);
    return client;
}

/* Signs in through `browser`, the stand-in's NULL-terminated argv, whose element `url_at` the authorization URL
 * is put in; the state, or NULL when a step failed (each step checked). */
static inline telenorid_auth_state *sign_in_through(telenorid_client *client, char *browser[], int url_at) {
    telenorid_config *discovered = NULL;
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    telenorid_authorization_callback *callback = NULL;
    telenorid_auth_state *state = NULL;
    char *url = NULL;
    char redirect[4096] = "";
    CHECK_STATUS(TELENORID_OK, telenorid_client_config(client, &discovered));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(discovered, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_url(pending, &url));
    browser[url_at] = url;
    if (url && CHECK(first_line(browser, redirect, sizeof redirect, NULL))) {
        CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_callback(pending, redirect, &callback));
    }
    if (callback) CHECK_STATUS(TELENORID_OK, telenorid_client_exchange_code(client, callback, &state));
    browser[url_at] = NULL;
    telenorid_authorization_callback_free(callback);
    telenorid_string_free(url);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_config_free(discovered);
    return state;
}
#endif
