/* The helpers of api_support.h, and the one count of checks of test_api. */
#include "api_support.h"

int checks_passed, checks_failed;
pthread_mutex_t checks_lock = PTHREAD_MUTEX_INITIALIZER;

/* Makes the last error a MALFORMED one, so a check that follows sees only what the next call records. */
void prime_last_error(void) {
    telenorid_config *config = SENTINEL;
    telenorid_status status = telenorid_config_from_json("[", NULL, &config);
    if (status != TELENORID_E_MALFORMED || config != SENTINEL) {
        check_count(0);
        fprintf(stderr, "prime_last_error: config_from_json(\"[\") gave %d\n", status);
    }
}

char *xstrdup(const char *text) {
    size_t size = strlen(text) + 1;
    char *copy = malloc(size);
    if (!copy) abort();
    memcpy(copy, text, size);
    return copy;
}

/* A malloc'd concatenation of up to four strings (NULLs skipped). */
char *concat(const char *a, const char *b, const char *c, const char *d) {
    const char *parts[4] = {a, b, c, d};
    size_t size = 1;
    for (int i = 0; i < 4; i++) size += parts[i] ? strlen(parts[i]) : 0;
    char *out = malloc(size);
    if (!out) abort();
    out[0] = 0;
    for (int i = 0; i < 4; i++) if (parts[i]) strcat(out, parts[i]);
    return out;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The percent-decoded value of query parameter `name` in `url` (malloc'd), or NULL when absent. */
char *url_param(const char *url, const char *name) {
    const char *query = strchr(url, '?');
    if (!query) return NULL;
    size_t name_length = strlen(name);
    for (const char *p = query + 1; p && *p; p = strchr(p, '&') ? strchr(p, '&') + 1 : NULL) {
        if (strncmp(p, name, name_length) != 0 || p[name_length] != '=') continue;
        const char *value = p + name_length + 1;
        size_t length = strcspn(value, "&#");
        char *out = malloc(length + 1);
        if (!out) abort();
        size_t o = 0;
        for (size_t i = 0; i < length; i++) {
            if (value[i] == '%' && i + 2 < length && hex_value(value[i + 1]) >= 0 && hex_value(value[i + 2]) >= 0) {
                out[o++] = (char)(hex_value(value[i + 1]) * 16 + hex_value(value[i + 2]));
                i += 2;
            } else {
                out[o++] = value[i] == '+' ? ' ' : value[i];
            }
        }
        out[o] = 0;
        return out;
    }
    return NULL;
}

void check_param_at(const char *url, const char *name, const char *expected, const char *file, int line) {
    char *value = url ? url_param(url, name) : NULL;
    int ok = expected ? value != NULL && strcmp(value, expected) == 0 : value == NULL;
    check_count(ok);
    if (!ok) fprintf(stderr, "%s:%d: parameter %s is %s%s%s, expected %s%s%s\n", file, line, name, value ? "\"" : "",
                     value ? value : "absent", value ? "\"" : "", expected ? "\"" : "", expected ? expected : "absent",
                     expected ? "\"" : "");
    free(value);
}

/* A string copied out of the library into malloc'd memory (the library's copy freed), or NULL. */
char *take(char *library_string) {
    if (!library_string) return NULL;
    char *copy = xstrdup(library_string);
    telenorid_string_free(library_string);
    return copy;
}

char *config_value(const telenorid_config *config, telenorid_config_key key) {
    char *value = SENTINEL;
    if (!CHECK_STATUS(TELENORID_OK, telenorid_config_get(config, key, &value))) return NULL;
    return take(value);
}

telenorid_config_builder *builder_with(const char *issuer, const char *client_id, const char *redirect) {
    telenorid_config_builder *b = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK(b != NULL && b != SENTINEL);
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, issuer));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, client_id));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_REDIRECT_URI, redirect));
    return b;
}

/* The Vipps-like configuration most local tests use. */
telenorid_config *make_config(void) {
    telenorid_config_builder *b = builder_with("https://id.example.com", "tnn-example", REDIRECT);
    telenorid_config *config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_SCOPE, "openid profile"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_AUTHORIZATION_ENDPOINT,
                                                            "https://api.vipps.no/oauth2/auth"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    telenorid_config_builder_free(b);
    return config;
}

telenorid_pending_auth *make_pending(const telenorid_config *config, int app_to_app) {
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    if (app_to_app) CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set_app_to_app(request, APP_CALLBACK));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    telenorid_auth_request_free(request); /* the pending request keeps what it needs */
    return pending;
}

char *pending_string(telenorid_status (*getter)(const telenorid_pending_auth *, char **),
                     const telenorid_pending_auth *pending) {
    char *value = SENTINEL;
    if (!CHECK_STATUS(TELENORID_OK, getter(pending, &value))) return NULL;
    return take(value);
}

/* prefix + the pending request's state + suffix, malloc'd. */
char *with_state(const telenorid_pending_auth *pending, const char *prefix, const char *suffix) {
    char *state = pending_string(telenorid_pending_auth_state, pending);
    char *url = concat(prefix, state ? state : "", suffix, NULL);
    free(state);
    return url;
}

telenorid_authorization_callback *make_callback(const telenorid_pending_auth *pending, const char *prefix) {
    char *url = with_state(pending, prefix, "");
    telenorid_authorization_callback *callback = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_callback(pending, url, &callback));
    free(url);
    return callback;
}

char *big_string(size_t length, char fill) {
    char *text = malloc(length + 1);
    if (!text) abort();
    memset(text, fill, length);
    text[length] = 0;
    return text;
}

void change_counter(void *user_data) { (*(int *)user_data)++; }

struct stub_server server;
char base_url[64]; /* http://127.0.0.1:PORT */



telenorid_config *provider_config(const char *issuer_path, const char *extra_key_values[]) {
    char issuer[160];
    snprintf(issuer, sizeof issuer, "%s%s", base_url, issuer_path);
    telenorid_config_builder *b = builder_with(issuer, "c-1", "com.example.app:/cb");
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_SCOPE, "profile"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CONNECT_TIMEOUT_MS, "5000"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_TIMEOUT_MS, "10000"));
    for (size_t i = 0; extra_key_values && extra_key_values[i]; i += 2) {
        CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, (telenorid_config_key)atoi(extra_key_values[i]),
                                                                extra_key_values[i + 1]));
    }
    telenorid_config *config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    telenorid_config_builder_free(b);
    return config;
}

/* A discovery document at issuer_path whose issuer is issuer_in_document (NULL: the right one), with
 * `extra_members` (NULL or ",\"name\":value...") added. */
void serve_discovery_with(const char *issuer_path, const char *issuer_in_document, const char *extra_members) {
    char path[160], body[2048], issuer[160];
    snprintf(path, sizeof path, "%s/.well-known/openid-configuration", issuer_path);
    snprintf(issuer, sizeof issuer, "%s%s", base_url, issuer_path);
    snprintf(body, sizeof body,
             "{\"issuer\":\"%s\",\"authorization_endpoint\":\"%s/authorize\",\"token_endpoint\":\"%s/token\","
             "\"userinfo_endpoint\":\"%s/userinfo\",\"jwks_uri\":\"%s/jwks\",\"revocation_endpoint\":\"%s/revoke\","
             "\"end_session_endpoint\":\"%s/logout\",\"response_types_supported\":[\"code\"],"
             "\"code_challenge_methods_supported\":[\"S256\"]%s}",
             issuer_in_document ? issuer_in_document : issuer, base_url, base_url, base_url, base_url, base_url, base_url,
             extra_members ? extra_members : "");
    stub_set(&server, "GET", path, 200, "application/json", body, NULL, 0);
}

void serve_discovery(const char *issuer_path, const char *issuer_in_document) {
    serve_discovery_with(issuer_path, issuer_in_document, NULL);
}

char *state_string(const telenorid_auth_state *state, telenorid_token_field field) {
    char *value = SENTINEL;
    if (!CHECK_STATUS(TELENORID_OK, telenorid_auth_state_get(state, field, &value))) return NULL;
    return take(value);
}

void check_token_at(const telenorid_auth_state *state, telenorid_token_field field, const char *expected,
                    const char *file, int line) {
    char *token = state_string(state, field);
    if (expected) check_str_at(expected, token, file, line);
    else if (!check_report(token == NULL, file, line, "field absent")) fprintf(stderr, "  field %d is \"%s\"\n", field, token);
    free(token);
}

int32_t signed_in(const telenorid_auth_state *state) {
    int32_t flag = -1;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_is_signed_in(state, &flag));
    return flag;
}

int64_t expires_at(const telenorid_auth_state *state) {
    int64_t at = -1;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_expires_at(state, &at));
    return at;
}
