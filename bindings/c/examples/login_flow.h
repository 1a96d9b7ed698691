/* The whole sign-in of a native app, written once against a table of libtelenorid's functions so that
 * login.c (linked) and login_dlopen.c (loaded at run time) share it:
 *
 *   discover → build the authorization URL and print it → read the redirect URL the browser ended on
 *   from stdin → exchange the code (the ID token is validated) → print its claims and the userinfo →
 *   refresh → revoke.
 *
 * A desktop app would catch the redirect with a loopback listener instead of reading stdin.
 * Usage: PROGRAM ISSUER CLIENT_ID REDIRECT_URI [REVOCATION_ENDPOINT]
 * Output lines: "open: URL", "claims: JSON", "userinfo: JSON", "refreshed", "revoked". */
#ifndef LOGIN_FLOW_H
#define LOGIN_FLOW_H

#include <stdio.h>
#include <string.h>
#include <telenorid.h>

typedef struct {
    const char *(*status_str)(telenorid_status);
    telenorid_error *(*error_last)(void);
    const char *(*error_message)(const telenorid_error *);
    const char *(*error_oauth_error)(const telenorid_error *);
    void (*error_free)(telenorid_error *);
    void (*string_free)(char *);
    telenorid_status (*config_builder_new)(telenorid_config_builder **);
    telenorid_status (*config_builder_set)(telenorid_config_builder *, telenorid_config_key, const char *);
    telenorid_status (*config_builder_build)(const telenorid_config_builder *, telenorid_config **);
    void (*config_builder_free)(telenorid_config_builder *);
    void (*config_free)(telenorid_config *);
    telenorid_status (*client_new)(const telenorid_config *, telenorid_client **);
    telenorid_status (*client_discover)(telenorid_client *);
    telenorid_status (*client_config)(telenorid_client *, telenorid_config **);
    void (*client_free)(telenorid_client *);
    telenorid_status (*auth_request_new)(const telenorid_config *, telenorid_auth_request **);
    telenorid_status (*auth_request_build)(const telenorid_auth_request *, telenorid_pending_auth **);
    void (*auth_request_free)(telenorid_auth_request *);
    telenorid_status (*pending_auth_url)(const telenorid_pending_auth *, char **);
    telenorid_status (*pending_auth_handle_callback)(const telenorid_pending_auth *, const char *,
                                                     telenorid_authorization_callback **);
    void (*pending_auth_free)(telenorid_pending_auth *);
    void (*authorization_callback_free)(telenorid_authorization_callback *);
    telenorid_status (*client_exchange_code)(telenorid_client *, const telenorid_authorization_callback *,
                                             telenorid_auth_state **);
    telenorid_status (*auth_state_get)(const telenorid_auth_state *, telenorid_token_field, char **);
    telenorid_status (*auth_state_userinfo)(telenorid_auth_state *, char **);
    telenorid_status (*auth_state_refresh)(telenorid_auth_state *);
    telenorid_status (*auth_state_revoke)(telenorid_auth_state *);
    telenorid_status (*auth_state_is_signed_in)(const telenorid_auth_state *, int32_t *);
    void (*auth_state_free)(telenorid_auth_state *);
} login_api;

/* Prints the failed step with the library's message (and the OAuth error, when the provider sent one). */
static int login_failed(const login_api *api, const char *step, telenorid_status status)
{
    telenorid_error *error = api->error_last();
    const char *oauth = api->error_oauth_error(error);
    fprintf(stderr, "%s failed: %s: %s%s%s\n", step, api->status_str(status), api->error_message(error),
            oauth ? " / " : "", oauth ? oauth : "");
    api->error_free(error);
    return 1;
}

/* Prints "label: value" for a string the library handed out, then frees it. */
static void login_print(const login_api *api, const char *label, char *value)
{
    printf("%s: %s\n", label, value ? value : "(none)");
    fflush(stdout);
    api->string_free(value);
}

static int login_run(const login_api *api, int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s ISSUER CLIENT_ID REDIRECT_URI [REVOCATION_ENDPOINT]\n", argv[0]);
        return 2;
    }
    telenorid_config_builder *builder = NULL;
    telenorid_config *settings = NULL, *config = NULL;
    telenorid_client *client = NULL;
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    telenorid_authorization_callback *callback = NULL;
    telenorid_auth_state *state = NULL;
    char *text = NULL;
    char redirect[8192];
    int32_t signed_in = 1;
    int result = 1;
    telenorid_status status;

#define STEP(name, call) \
    if ((status = (call)) != TELENORID_OK) { result = login_failed(api, name, status); goto done; }
    STEP("config_builder_new", api->config_builder_new(&builder));
    STEP("issuer", api->config_builder_set(builder, TELENORID_CONFIG_ISSUER, argv[1]));
    STEP("client_id", api->config_builder_set(builder, TELENORID_CONFIG_CLIENT_ID, argv[2]));
    STEP("redirect_uri", api->config_builder_set(builder, TELENORID_CONFIG_REDIRECT_URI, argv[3]));
    STEP("scope", api->config_builder_set(builder, TELENORID_CONFIG_SCOPE, "openid profile email"));
    if (argc > 4) { /* not every provider publishes it in its discovery document */
        STEP("revocation_endpoint", api->config_builder_set(builder, TELENORID_CONFIG_REVOCATION_ENDPOINT, argv[4]));
    }
    STEP("config_builder_build", api->config_builder_build(builder, &settings));
    STEP("client_new", api->client_new(settings, &client));
    STEP("client_discover", api->client_discover(client));
    STEP("client_config", api->client_config(client, &config));
    STEP("auth_request_new", api->auth_request_new(config, &request));
    STEP("auth_request_build", api->auth_request_build(request, &pending));
    STEP("pending_auth_url", api->pending_auth_url(pending, &text));
    login_print(api, "open", text);

    if (fgets(redirect, sizeof redirect, stdin) == NULL) {
        fprintf(stderr, "no redirect URL on stdin\n");
        goto done;
    }
    if (strchr(redirect, '\n') == NULL && !feof(stdin)) {
        fprintf(stderr, "the redirect URL is longer than %u bytes\n", (unsigned)sizeof redirect - 2);
        goto done;
    }
    redirect[strcspn(redirect, "\r\n")] = '\0';
    STEP("handle_callback", api->pending_auth_handle_callback(pending, redirect, &callback));
    STEP("exchange_code", api->client_exchange_code(client, callback, &state));
    STEP("id token claims", api->auth_state_get(state, TELENORID_TOKEN_ID_TOKEN_CLAIMS, &text));
    login_print(api, "claims", text);
    STEP("userinfo", api->auth_state_userinfo(state, &text));
    login_print(api, "userinfo", text);
    STEP("refresh", api->auth_state_refresh(state));
    printf("refreshed\n");
    STEP("revoke", api->auth_state_revoke(state));
    STEP("is_signed_in", api->auth_state_is_signed_in(state, &signed_in));
    if (signed_in) {
        fprintf(stderr, "still signed in after revoke\n");
        goto done;
    }
    printf("revoked\n");
    result = 0;
#undef STEP
done:
    api->auth_state_free(state);
    api->authorization_callback_free(callback);
    api->pending_auth_free(pending);
    api->auth_request_free(request);
    api->config_free(config);
    api->client_free(client);
    api->config_free(settings);
    api->config_builder_free(builder);
    return result;
}

#endif
