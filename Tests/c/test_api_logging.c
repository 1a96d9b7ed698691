/* The log callback against the stand-in provider: the events of a sign-in, a refresh and a sign-out, each
 * HTTP exchange as one line (method, URL without its query, status or error, duration), the level filter,
 * removal, calls from inside the callback refused, and no secret in anything logged. Part of test_api. */
#include "api_support.h"

/* Every line the callback got, "<level> <event> <message>\n", and how it answered a call from inside. */
struct log_capture {
    pthread_mutex_t lock;
    char text[16384];
    size_t length;
    int calls;
    telenorid_status nested;
};

static void capture_line(void *user_data, int32_t level, const char *event, const char *message) {
    struct log_capture *capture = user_data;
    pthread_mutex_lock(&capture->lock);
    if (capture->calls++ == 0) capture->nested = telenorid_set_log_callback(NULL, NULL, 0);
    int written = snprintf(capture->text + capture->length, sizeof capture->text - capture->length, "%d %s %s\n",
                           (int)level, event, message);
    if (written > 0 && (size_t)written < sizeof capture->text - capture->length) capture->length += (size_t)written;
    pthread_mutex_unlock(&capture->lock);
}

/* The captured line of `event` that starts its message with `prefix`, copied; NULL when none. */
static char *line_of(const struct log_capture *capture, const char *level_and_event, const char *prefix) {
    char start[256];
    snprintf(start, sizeof start, "%s %s", level_and_event, prefix);
    for (const char *line = capture->text; *line; line = strchr(line, '\n') + 1) {
        if (strncmp(line, start, strlen(start)) == 0) {
            size_t length = (size_t)(strchr(line, '\n') - line);
            char *copy = malloc(length + 1);
            memcpy(copy, line, length);
            copy[length] = 0;
            return copy;
        }
    }
    return NULL;
}

/* A line ends " <digits> ms": the duration. */
static int ends_with_duration(const char *line) {
    size_t length = line ? strlen(line) : 0;
    if (length < 5 || strcmp(line + length - 3, " ms") != 0) return 0;
    size_t digits = 0;
    while (length - 3 > digits && line[length - 4 - digits] >= '0' && line[length - 4 - digits] <= '9') digits++;
    return digits > 0 && line[length - 4 - digits] == ' ';
}

/* One sign-in through `client` with the code `code`; the auth state, or NULL. */
static telenorid_auth_state *sign_in_once(telenorid_client *client, const telenorid_config *config, const char *code) {
    telenorid_pending_auth *pending = make_pending(config, 0);
    char prefix[128];
    snprintf(prefix, sizeof prefix, "com.example.app:/cb?code=%s&state=", code);
    telenorid_callback *callback = make_callback(pending, prefix);
    telenorid_auth_state *state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_exchange_code(client, callback, &state));
    telenorid_callback_free(callback);
    telenorid_pending_auth_free(pending);
    return state;
}

void test_logging(void) {
    static struct log_capture capture = {.lock = PTHREAD_MUTEX_INITIALIZER};
    char token_endpoint[160], expected[256];
    snprintf(token_endpoint, sizeof token_endpoint, "%s/logging/token?tenant=query-secret", base_url);
    const char *extra[] = {"13" /* TELENORID_CONFIG_CLIENT_SECRET */, "cs-logging-secret",
                           "6" /* TELENORID_CONFIG_TOKEN_ENDPOINT */, token_endpoint, NULL};
    serve_discovery("/logging", NULL);
    stub_set(&server, "POST", "/logging/token", 200, "application/json",
             "{\"access_token\":\"at-logging-1\",\"token_type\":\"Bearer\",\"expires_in\":3600,"
             "\"refresh_token\":\"rt-logging-1\"}",
             "Cache-Control: no-store\r\n", 0);
    telenorid_config *config = provider_config("/logging", extra);
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));

    CHECK_STATUS(TELENORID_OK, telenorid_set_log_callback(capture_line, &capture, TELENORID_LOG_DEBUG));
    telenorid_config *effective = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_config(client, &effective)); /* runs discovery */
    telenorid_pending_auth *pending = make_pending(effective, 0);
    char *verifier = pending_string(telenorid_pending_auth_code_verifier, pending);
    telenorid_callback *callback = make_callback(pending, "com.example.app:/cb?code=code-logging-1&state=");
    telenorid_auth_state *state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_exchange_code(client, callback, &state));
    stub_set(&server, "POST", "/logging/token", 200, "application/json",
             "{\"access_token\":\"at-logging-2\",\"token_type\":\"Bearer\",\"expires_in\":3600,"
             "\"refresh_token\":\"rt-logging-2\"}",
             "Cache-Control: no-store\r\n", 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_refresh(state));
    stub_set(&server, "POST", "/logging/token", 400, "application/json", "{\"error\":\"invalid_grant\"}", NULL, 0);
    CHECK_STATUS(TELENORID_E_AUTHORIZATION_LOST, telenorid_auth_state_refresh(state));

    /* At INFO and above: a second sign-in and its revocation give their events, and no HTTP line. */
    CHECK_STATUS(TELENORID_OK, telenorid_set_log_callback(capture_line, &capture, TELENORID_LOG_INFO));
    pthread_mutex_lock(&capture.lock);
    size_t length_at_info = capture.length;
    pthread_mutex_unlock(&capture.lock);
    stub_set(&server, "POST", "/logging/token", 200, "application/json",
             "{\"access_token\":\"at-logging-3\",\"token_type\":\"Bearer\",\"expires_in\":3600,"
             "\"refresh_token\":\"rt-logging-3\"}",
             "Cache-Control: no-store\r\n", 0);
    stub_set(&server, "POST", "/logging/revoke", 200, "text/plain", "", NULL, 0);
    telenorid_auth_state *second = sign_in_once(client, effective, "code-logging-2");
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_revoke(second));
    telenorid_auth_state_free(second);

    /* Removed: nothing more arrives. */
    CHECK_STATUS(TELENORID_OK, telenorid_set_log_callback(NULL, NULL, 0));
    int calls_after_removal = capture.calls;
    telenorid_auth_state_free(sign_in_once(client, effective, "code-logging-3"));
    CHECK(capture.calls == calls_after_removal);

    /* A call from inside the callback was refused, and the callback stayed. */
    CHECK(capture.nested == TELENORID_E_INVALID_ARGUMENT);

    char *line = line_of(&capture, "10 http.request", "GET ");
    snprintf(expected, sizeof expected, "10 http.request GET %s/logging/.well-known/openid-configuration 200 ",
             base_url);
    CHECK_CONTAINS(line, expected);
    CHECK(ends_with_duration(line));
    free(line);
    line = line_of(&capture, "10 http.request", "POST ");
    snprintf(expected, sizeof expected, "10 http.request POST %s/logging/token 200 ", base_url);
    CHECK_CONTAINS(line, expected); /* the query is not logged */
    CHECK(ends_with_duration(line));
    free(line);
    snprintf(expected, sizeof expected, "10 http.request POST %s/logging/token 400 ", base_url);
    CHECK_CONTAINS(capture.text, expected);
    snprintf(expected, sizeof expected, "20 discovery.fetched provider metadata of %s/logging\n", base_url);
    CHECK_CONTAINS(capture.text, expected);
    CHECK_CONTAINS(capture.text, "20 token.exchanged ");
    CHECK_CONTAINS(capture.text, "20 token.refreshed ");
    CHECK_CONTAINS(capture.text, "30 token.refresh_failed authorization lost (HTTP 400) invalid_grant\n");
    CHECK(strstr(capture.text + length_at_info, "http.request") == NULL);
    CHECK_CONTAINS(capture.text + length_at_info, "20 token.exchanged ");
    CHECK_CONTAINS(capture.text + length_at_info, "20 auth_state.signed_out ");

    /* No secret in anything logged. */
    const char *secrets[] = {"at-logging", "rt-logging", "code-logging", "cs-logging-secret", "query-secret",
                             verifier ? verifier : "(no verifier)"};
    for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++) CHECK(strstr(capture.text, secrets[i]) == NULL);

    free(verifier);
    telenorid_auth_state_free(state);
    telenorid_callback_free(callback);
    telenorid_pending_auth_free(pending);
    telenorid_config_free(effective);
    telenorid_client_free(client);
    telenorid_config_free(config);
}
