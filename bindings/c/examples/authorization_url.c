/* Builds a PKCE pair and a full authorization URL with libtelenorid, as a native app does before it
 * opens the system browser. Usage: authorization_url [config.json [environment]] */
#include <stdio.h>
#include <stdlib.h>
#include <telenorid.h>

static int fail(const char *what, telenorid_status status) {
    telenorid_error *error = telenorid_error_last();
    fprintf(stderr, "%s failed: %s: %s\n", what, telenorid_status_str(status), telenorid_error_message(error));
    telenorid_error_free(error);
    return 1;
}

static char *read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    char *text = calloc(1, 1 << 20);
    if (text && fread(text, 1, (1 << 20) - 1, file) == 0) { free(text); text = NULL; }
    fclose(file);
    return text;
}

int main(int argc, char **argv) {
    telenorid_status status;
    telenorid_config *config = NULL;
    if (argc > 1) {
        char *json = read_file(argv[1]);
        if (!json) { perror(argv[1]); return 1; }
        status = telenorid_config_from_json(json, argc > 2 ? argv[2] : NULL, &config);
        free(json);
        if (status != TELENORID_OK) return fail("telenorid_config_from_json", status);
    } else {
        telenorid_config_builder *builder = NULL;
        if ((status = telenorid_config_builder_new(&builder)) != TELENORID_OK) return fail("builder", status);
        telenorid_config_builder_set(builder, TELENORID_CONFIG_ISSUER, "https://signin.telenorid-staging.example");
        telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_ID, "tnn-example-android");
        telenorid_config_builder_set(builder, TELENORID_CONFIG_REDIRECT_URI, "telenorid-example-android://authcallback/");
        telenorid_config_builder_set(builder, TELENORID_CONFIG_SCOPE, "openid profile offline_access");
        telenorid_config_builder_set(builder, TELENORID_CONFIG_AUTHORIZATION_ENDPOINT,
                                     "https://signin.telenorid-staging.example/connect/authorize");
        status = telenorid_config_builder_build(builder, &config);
        telenorid_config_builder_free(builder);
        if (status != TELENORID_OK) return fail("telenorid_config_builder_build", status);
    }

    telenorid_pkce *pkce = NULL;
    char *verifier = NULL, *challenge = NULL;
    if ((status = telenorid_pkce_new(0, &pkce)) != TELENORID_OK) return fail("telenorid_pkce_new", status);
    telenorid_pkce_verifier(pkce, &verifier);
    telenorid_pkce_challenge(pkce, &challenge);
    printf("PKCE verifier:  %s\nPKCE challenge: %s (S256)\n", verifier, challenge);
    telenorid_string_free(verifier);
    telenorid_string_free(challenge);
    telenorid_pkce_free(pkce);

    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    char *url = NULL;
    if ((status = telenorid_auth_request_new(config, &request)) != TELENORID_OK) return fail("auth_request_new", status);
    telenorid_auth_request_set(request, TELENORID_AUTH_PROMPT, "login");
    telenorid_auth_request_set(request, TELENORID_AUTH_UI_LOCALES, "nb en");
    telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "phone_number", 1,
                                     "To sign you in with your mobile number", NULL, NULL);
    if ((status = telenorid_auth_request_build(request, &pending)) != TELENORID_OK) return fail("auth_request_build", status);
    telenorid_pending_auth_url(pending, &url);
    printf("Authorization URL:\n%s\n", url);

    telenorid_string_free(url);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
    return 0;
}
