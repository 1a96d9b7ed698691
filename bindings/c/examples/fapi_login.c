/* A FAPI-style sign-in from C: the client authenticates with a private key (private_key_jwt, RFC 7523), the
 * authorization request is signed (RFC 9101) and pushed (RFC 9126) so the browser carries only client_id and
 * request_uri, and the tokens are bound to a DPoP key (RFC 9449) that proves every later request.
 *
 *   cc fapi_login.c $(pkg-config --cflags --libs telenorid) -o fapi_login
 *   ./fapi_login ISSUER CLIENT_ID REDIRECT_URI PRIVATE_KEY.pem
 *
 * Prints "open: URL", reads the redirect URL the browser ended on from stdin, then prints the token type,
 * the DPoP key's thumbprint, the userinfo, "refreshed", the headers for a call of its own to the userinfo
 * endpoint (which headers are there, never the token) and "revoked". */
#include <stdio.h>
#include <string.h>
#include <telenorid.h>

/* Prints the failed step with the library's message (and the provider's OAuth error, if any). */
static int failed(const char *step, telenorid_status status)
{
    telenorid_error *error = telenorid_error_last();
    const char *oauth = telenorid_error_oauth_error(error);
    fprintf(stderr, "%s failed: %s: %s%s%s\n", step, telenorid_status_str(status), telenorid_error_message(error),
            oauth ? " / " : "", oauth ? oauth : "");
    telenorid_error_free(error);
    return 1;
}

/* Prints "label: value" and frees the string the library handed out. */
static void print_and_free(const char *label, char *value)
{
    printf("%s: %s\n", label, value ? value : "(none)");
    fflush(stdout);
    telenorid_string_free(value);
}

/* Reads the PEM file into `buffer`; 0 when it is missing or does not fit. */
static int read_key(const char *path, char *buffer, size_t size)
{
    FILE *file = fopen(path, "r");
    size_t length;
    if (file == NULL) return 0;
    length = fread(buffer, 1, size - 1, file);
    buffer[length] = '\0';
    fclose(file);
    return length > 0 && length < size - 1;
}

int main(int argc, char **argv)
{
    telenorid_config_builder *builder = NULL;
    telenorid_config *settings = NULL, *config = NULL;
    telenorid_client *client = NULL;
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    telenorid_authorization_callback *callback = NULL;
    telenorid_auth_state *state = NULL;
    char *text = NULL, *userinfo_url = NULL, *authorization = NULL, *dpop = NULL;
    static char key[16384], redirect[8192];
    int32_t signed_in = 1;
    int result = 1;
    telenorid_status status;

    if (argc != 5) {
        fprintf(stderr, "usage: %s ISSUER CLIENT_ID REDIRECT_URI PRIVATE_KEY.pem\n", argv[0]);
        return 2;
    }
    if (!read_key(argv[4], key, sizeof key)) {
        fprintf(stderr, "cannot read the private key from %s\n", argv[4]);
        return 2;
    }

#define STEP(name, call) \
    if ((status = (call)) != TELENORID_OK) { result = failed(name, status); goto done; }
    STEP("config_builder_new", telenorid_config_builder_new(&builder));
    STEP("issuer", telenorid_config_builder_set(builder, TELENORID_CONFIG_ISSUER, argv[1]));
    STEP("client_id", telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_ID, argv[2]));
    STEP("redirect_uri", telenorid_config_builder_set(builder, TELENORID_CONFIG_REDIRECT_URI, argv[3]));
    /* The client proves who it is with a JWT signed by its key, at every endpoint it calls... */
    STEP("auth method", telenorid_config_builder_set(builder, TELENORID_CONFIG_TOKEN_ENDPOINT_AUTH_METHOD,
                                                     "private_key_jwt"));
    STEP("private key", telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_PRIVATE_KEY, key));
    /* ...addressed to that endpoint's own URL, for servers (glewlwyd) that refuse the default, the issuer. */
    STEP("assertion audience", telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_ASSERTION_AUDIENCE,
                                                            "endpoint"));
    /* The request goes to the provider directly, signed; the browser carries only a reference to it. */
    STEP("push requests", telenorid_config_builder_set(builder, TELENORID_CONFIG_PUSH_AUTHORIZATION_REQUESTS, "true"));
    STEP("sign requests", telenorid_config_builder_set(builder, TELENORID_CONFIG_SIGN_AUTHORIZATION_REQUESTS, "true"));
    /* Tokens bound to a key made for this sign-in: a stolen token is useless without it. The code is bound
     * to it too, by dpop_jkt in the request. */
    STEP("dpop", telenorid_config_builder_set(builder, TELENORID_CONFIG_DPOP_SIGNING_ALG, "ES256"));
    STEP("dpop_jkt", telenorid_config_builder_set(builder, TELENORID_CONFIG_DPOP_BIND_AUTHORIZATION_CODE, "true"));
    STEP("config_builder_build", telenorid_config_builder_build(builder, &settings));

    STEP("client_new", telenorid_client_new(settings, &client));
    STEP("client_config", telenorid_client_config(client, &config)); /* discovers the endpoints */
    STEP("auth_request_new", telenorid_auth_request_new(config, &request));
    STEP("build_auth_request", telenorid_client_build_auth_request(client, request, &pending)); /* pushes it */
    STEP("pending_auth_url", telenorid_pending_auth_url(pending, &text));
    print_and_free("open", text);

    if (fgets(redirect, sizeof redirect, stdin) == NULL || strchr(redirect, '\n') == NULL) {
        fprintf(stderr, "expected the redirect URL on one line of stdin\n");
        goto done;
    }
    redirect[strcspn(redirect, "\r\n")] = '\0';
    STEP("handle_callback", telenorid_pending_auth_handle_callback(pending, redirect, &callback));
    STEP("exchange_code", telenorid_client_exchange_code(client, callback, &state));
    STEP("token type", telenorid_auth_state_get(state, TELENORID_TOKEN_TYPE, &text));
    print_and_free("token_type", text);
    STEP("dpop thumbprint", telenorid_auth_state_get(state, TELENORID_TOKEN_DPOP_THUMBPRINT, &text));
    print_and_free("dpop_jkt", text);

    STEP("userinfo", telenorid_auth_state_userinfo(state, &text));
    print_and_free("userinfo", text);
    STEP("refresh", telenorid_auth_state_refresh(state));
    printf("refreshed\n");

    /* The headers for a request of the app's own (here to the userinfo endpoint): "DPoP <token>" and a proof
     * for this method and URL. They hold the token: print only what is there. */
    STEP("userinfo endpoint", telenorid_config_get(config, TELENORID_CONFIG_USERINFO_ENDPOINT, &userinfo_url));
    STEP("request_headers", telenorid_auth_state_request_headers(state, "GET", userinfo_url, NULL,
                                                                 &authorization, &dpop));
    printf("headers: Authorization %.*s ..., DPoP %s\n", (int)strcspn(authorization, " "), authorization,
           dpop ? "present" : "absent");

    STEP("revoke", telenorid_auth_state_revoke(state));
    STEP("is_signed_in", telenorid_auth_state_is_signed_in(state, &signed_in));
    if (signed_in) {
        fprintf(stderr, "still signed in after revoke\n");
        goto done;
    }
    printf("revoked\n");
    result = 0;
#undef STEP
done:
    telenorid_string_free(authorization);
    telenorid_string_free(dpop);
    telenorid_string_free(userinfo_url);
    telenorid_auth_state_free(state);
    telenorid_authorization_callback_free(callback);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
    telenorid_client_free(client);
    telenorid_config_free(settings);
    telenorid_config_builder_free(builder);
    return result;
}
