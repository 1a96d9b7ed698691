/* Tests of libtelenorid's exports through the public header only: every rule include/telenorid.h states
 * (NULL in every pointer position, *_free(NULL), outputs untouched on error, UTF-8 and length limits,
 * unknown enum values, handles of the wrong kind, the thread-local last error, ownership and free order)
 * and every function, the network ones against a stand-in provider on 127.0.0.1 (stub_server.h).
 * Ends with "N passed, M failed"; exits non-zero when a check failed. Leak-free under valgrind. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <sys/stat.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <telenorid.h>
#include "check.h"
#include "stub_server.h"

#define SENTINEL ((void *)0x1)
#define AS(type, handle) ((type *)(void *)(handle))

/* RFC 7636 appendix B. */
#define RFC7636_VERIFIER "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
#define RFC7636_CHALLENGE "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
#define UNRESERVED "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
#define BASE64URL "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

#define REDIRECT "telenorid-example://authcallback/"
#define APP_CALLBACK "merchantapp://app-callback"

/* ------------------------------------------------------------------------------------------------
 * Helpers
 * --------------------------------------------------------------------------------------------- */

#define CHECK_STATUS(expected, call) check_status_at((expected), (call), #call, __FILE__, __LINE__)

/* A call's status; on a mismatch it prints the last error's message too. */
static int check_status_at(telenorid_status expected, telenorid_status actual, const char *call, const char *file,
                           int line) {
    if (actual == expected) { check_count(1); return 1; }
    check_count(0);
    telenorid_error *error = actual == TELENORID_OK ? NULL : telenorid_error_last();
    fprintf(stderr, "%s:%d: %s gave %d (%s%s%s), expected %d (%s)\n", file, line, call, actual,
            telenorid_status_str(actual), error ? ": " : "", error ? telenorid_error_message(error) : "", expected,
            telenorid_status_str(expected));
    telenorid_error_free(error);
    return 0;
}

/* The calling thread's last error has `status` and a message containing `contains` (when not NULL). */
#define CHECK_LAST_ERROR(status, contains) check_last_error_at((status), (contains), __FILE__, __LINE__)

static int check_last_error_at(telenorid_status status, const char *contains, const char *file, int line) {
    telenorid_error *e = telenorid_error_last();
    const char *message = telenorid_error_message(e);
    int ok = e != NULL && telenorid_error_status(e) == status && message != NULL && message[0] != 0 &&
             (!contains || strstr(message, contains) != NULL);
    check_count(ok);
    if (!ok) fprintf(stderr, "%s:%d: last error is %d \"%s\", expected %d with a message mentioning \"%s\"\n", file,
                     line, e ? telenorid_error_status(e) : -1, message ? message : "(null)", status,
                     contains ? contains : "");
    telenorid_error_free(e);
    return ok;
}

/* Makes the last error a MALFORMED one, so a check that follows sees only what the next call records. */
static void prime_last_error(void) {
    telenorid_config *config = SENTINEL;
    telenorid_status status = telenorid_config_from_json("[", NULL, &config);
    if (status != TELENORID_E_MALFORMED || config != SENTINEL) {
        check_count(0);
        fprintf(stderr, "prime_last_error: config_from_json(\"[\") gave %d\n", status);
    }
}

/* NULL for the parameter `name`: INVALID_ARGUMENT, and a fresh last error that says "<name> is NULL". */
#define CHECK_NULL_ARG(name, call) do { \
    prime_last_error(); \
    if (CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, call)) CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, name " is NULL"); \
} while (0)

/* A handle of another kind: INVALID_ARGUMENT, and a last error that says so. */
#define CHECK_WRONG_KIND(call) do { \
    prime_last_error(); \
    if (CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, call)) CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "another kind"); \
} while (0)

/* Expects `expected` (not OK) from `call` with `out` (a pointer variable) left at SENTINEL. */
#define CHECK_FAILS_UNTOUCHED(expected, out, call) do { \
    (out) = SENTINEL; \
    CHECK_STATUS((expected), call); \
    CHECK((void *)(out) == SENTINEL); \
} while (0)

static char *xstrdup(const char *text) {
    size_t size = strlen(text) + 1;
    char *copy = malloc(size);
    if (!copy) abort();
    memcpy(copy, text, size);
    return copy;
}

/* A malloc'd concatenation of up to four strings (NULLs skipped). */
static char *concat(const char *a, const char *b, const char *c, const char *d) {
    const char *parts[4] = {a, b, c, d};
    size_t size = 1;
    for (int i = 0; i < 4; i++) size += parts[i] ? strlen(parts[i]) : 0;
    char *out = malloc(size);
    if (!out) abort();
    out[0] = 0;
    for (int i = 0; i < 4; i++) if (parts[i]) strcat(out, parts[i]);
    return out;
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The percent-decoded value of query parameter `name` in `url` (malloc'd), or NULL when absent. */
static char *url_param(const char *url, const char *name) {
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

/* Checks that query parameter `name` of `url` decodes to `expected` (NULL: is absent). */
#define CHECK_PARAM(url, name, expected) check_param_at((url), (name), (expected), __FILE__, __LINE__)

static void check_param_at(const char *url, const char *name, const char *expected, const char *file, int line) {
    char *value = url ? url_param(url, name) : NULL;
    int ok = expected ? value != NULL && strcmp(value, expected) == 0 : value == NULL;
    check_count(ok);
    if (!ok) fprintf(stderr, "%s:%d: parameter %s is %s%s%s, expected %s%s%s\n", file, line, name, value ? "\"" : "",
                     value ? value : "absent", value ? "\"" : "", expected ? "\"" : "", expected ? expected : "absent",
                     expected ? "\"" : "");
    free(value);
}

/* A string copied out of the library into malloc'd memory (the library's copy freed), or NULL. */
static char *take(char *library_string) {
    if (!library_string) return NULL;
    char *copy = xstrdup(library_string);
    telenorid_string_free(library_string);
    return copy;
}

static char *config_value(const telenorid_config *config, telenorid_config_key key) {
    char *value = SENTINEL;
    if (!CHECK_STATUS(TELENORID_OK, telenorid_config_get(config, key, &value))) return NULL;
    return take(value);
}

#define CHECK_CONFIG(config, key, expected) do { \
    char *value_ = config_value((config), (key)); \
    CHECK_STR((expected), value_); \
    free(value_); \
} while (0)

static telenorid_config_builder *builder_with(const char *issuer, const char *client_id, const char *redirect) {
    telenorid_config_builder *b = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK(b != NULL && b != SENTINEL);
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, issuer));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, client_id));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_REDIRECT_URI, redirect));
    return b;
}

/* The Vipps-like configuration most local tests use. */
static telenorid_config *make_config(void) {
    telenorid_config_builder *b = builder_with("https://id.example.com", "tnn-example", REDIRECT);
    telenorid_config *config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_SCOPE, "openid profile"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_AUTHORIZATION_ENDPOINT,
                                                            "https://api.vipps.no/oauth2/auth"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    telenorid_config_builder_free(b);
    return config;
}

static telenorid_pending_auth *make_pending(const telenorid_config *config, int app_to_app) {
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    if (app_to_app) CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set_app_to_app(request, APP_CALLBACK));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    telenorid_auth_request_free(request); /* the pending request keeps what it needs */
    return pending;
}

static char *pending_string(telenorid_status (*getter)(const telenorid_pending_auth *, char **),
                            const telenorid_pending_auth *pending) {
    char *value = SENTINEL;
    if (!CHECK_STATUS(TELENORID_OK, getter(pending, &value))) return NULL;
    return take(value);
}

/* prefix + the pending request's state + suffix, malloc'd. */
static char *with_state(const telenorid_pending_auth *pending, const char *prefix, const char *suffix) {
    char *state = pending_string(telenorid_pending_auth_state, pending);
    char *url = concat(prefix, state ? state : "", suffix, NULL);
    free(state);
    return url;
}

static telenorid_callback *make_callback(const telenorid_pending_auth *pending, const char *prefix) {
    char *url = with_state(pending, prefix, "");
    telenorid_callback *callback = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_callback(pending, url, &callback));
    free(url);
    return callback;
}

static char *big_string(size_t length, char fill) {
    char *text = malloc(length + 1);
    if (!text) abort();
    memset(text, fill, length);
    text[length] = 0;
    return text;
}

/* ------------------------------------------------------------------------------------------------
 * Versions and status codes
 * --------------------------------------------------------------------------------------------- */

static void test_versions(void) {
    CHECK(telenorid_version() == TELENORID_VERSION_NUMBER);
    /* The header is the one home of the version: the string, the parts and the number agree. */
    unsigned major = 99, minor = 99, patch = 99;
    CHECK(sscanf(TELENORID_VERSION_STRING, "%u.%u.%u", &major, &minor, &patch) == 3);
    CHECK(major == TELENORID_VERSION_MAJOR && minor == TELENORID_VERSION_MINOR && patch == TELENORID_VERSION_PATCH);
    CHECK(TELENORID_VERSION_NUMBER == ((major << 16) | (minor << 8) | patch));
    CHECK(TELENORID_VERSION_MINOR < 256 && TELENORID_VERSION_PATCH < 256);
    CHECK_STR(TELENORID_VERSION_STRING, telenorid_version_string());
    CHECK(telenorid_version_string() == telenorid_version_string() ||
          strcmp(telenorid_version_string(), telenorid_version_string()) == 0);
    CHECK(TELENORID_VERSION_AT_LEAST(TELENORID_VERSION_MAJOR, TELENORID_VERSION_MINOR, TELENORID_VERSION_PATCH));
    CHECK(TELENORID_VERSION_AT_LEAST(0, 0, 0));
    CHECK(!TELENORID_VERSION_AT_LEAST(TELENORID_VERSION_MAJOR, TELENORID_VERSION_MINOR, TELENORID_VERSION_PATCH + 1));
    CHECK(!TELENORID_VERSION_AT_LEAST(TELENORID_VERSION_MAJOR, TELENORID_VERSION_MINOR + 1, 0));
    CHECK(!TELENORID_VERSION_AT_LEAST(TELENORID_VERSION_MAJOR + 1, 0, 0));
    /* The runtime check the header describes: same major, library minor at least the header's. */
    CHECK((telenorid_version() >> 16) == TELENORID_VERSION_MAJOR);
    CHECK(((telenorid_version() >> 8) & 0xff) >= TELENORID_VERSION_MINOR);
    /* The string and the number describe the same version. */
    char expected[32];
    snprintf(expected, sizeof expected, "%u.%u.%u", (unsigned)(telenorid_version() >> 16),
             (unsigned)((telenorid_version() >> 8) & 0xff), (unsigned)(telenorid_version() & 0xff));
    CHECK_STR(expected, telenorid_version_string());
}

#define STATUS_ENTRY(code) {code, #code}
static const struct { telenorid_status code; const char *name; } all_statuses[] = {
    STATUS_ENTRY(TELENORID_OK), STATUS_ENTRY(TELENORID_E_INVALID_ARGUMENT), STATUS_ENTRY(TELENORID_E_MALFORMED),
    STATUS_ENTRY(TELENORID_E_CONFIGURATION), STATUS_ENTRY(TELENORID_E_INSECURE), STATUS_ENTRY(TELENORID_E_UNSUPPORTED),
    STATUS_ENTRY(TELENORID_E_PARAMETER_CONFLICT), STATUS_ENTRY(TELENORID_E_RANDOM),
    STATUS_ENTRY(TELENORID_E_STATE_MISMATCH), STATUS_ENTRY(TELENORID_E_REDIRECT_MISMATCH),
    STATUS_ENTRY(TELENORID_E_ISSUER_MISMATCH), STATUS_ENTRY(TELENORID_E_AUTHORIZATION_ERROR),
    STATUS_ENTRY(TELENORID_E_CONSUMED), STATUS_ENTRY(TELENORID_E_VERSION), STATUS_ENTRY(TELENORID_E_TIMEOUT),
    STATUS_ENTRY(TELENORID_E_NETWORK), STATUS_ENTRY(TELENORID_E_TLS), STATUS_ENTRY(TELENORID_E_HTTP_STATUS),
    STATUS_ENTRY(TELENORID_E_RESPONSE_TOO_LARGE), STATUS_ENTRY(TELENORID_E_INVALID_RESPONSE),
    STATUS_ENTRY(TELENORID_E_TOKEN_INVALID), STATUS_ENTRY(TELENORID_E_AUTHORIZATION_LOST),
    STATUS_ENTRY(TELENORID_E_NOT_SIGNED_IN),
    STATUS_ENTRY(TELENORID_E_LINE_AUTH_UNAVAILABLE),
    STATUS_ENTRY(TELENORID_E_CLIENT_REJECTED),
    STATUS_ENTRY(TELENORID_E_TEMPORARILY_UNAVAILABLE),
    STATUS_ENTRY(TELENORID_E_PUSH_REFUSED),
    STATUS_ENTRY(TELENORID_E_PROVIDER_UNSUPPORTED),
    STATUS_ENTRY(TELENORID_E_CANCELLED),
};
#define STATUS_COUNT ((int)(sizeof all_statuses / sizeof all_statuses[0]))

static void test_status_strings(void) {
    /* The codes are 0, 1, 2, ... in the header's order: append-only, never renumbered. */
    for (int i = 0; i < STATUS_COUNT; i++) {
        if (!CHECK(all_statuses[i].code == i)) fprintf(stderr, "  %s is %d\n", all_statuses[i].name, all_statuses[i].code);
    }
    CHECK_STR("ok", telenorid_status_str(TELENORID_OK));
    CHECK_STR("state mismatch", telenorid_status_str(TELENORID_E_STATE_MISMATCH));
    const char *unknown = telenorid_status_str(9999);
    CHECK(unknown != NULL && unknown[0] != 0);
    /* Every known code (0..13 of the local half and 14..22 of the network half) has its own name. */
    for (int i = 0; i < STATUS_COUNT; i++) {
        const char *name = telenorid_status_str(all_statuses[i].code);
        if (!CHECK(name != NULL && name[0] != 0 && unknown && strcmp(name, unknown) != 0)) {
            fprintf(stderr, "  %s has no name of its own\n", all_statuses[i].name);
            continue;
        }
        for (int j = 0; j < i; j++) {
            if (!CHECK(strcmp(name, telenorid_status_str(all_statuses[j].code)) != 0)) {
                fprintf(stderr, "  %s and %s share the name \"%s\"\n", all_statuses[i].name, all_statuses[j].name, name);
            }
        }
    }
    /* Codes this version does not know still get a static, non-NULL name. */
    const telenorid_status unknown_codes[] = {-1, STATUS_COUNT, 9999, INT32_MIN, INT32_MAX, -STATUS_COUNT};
    for (size_t i = 0; i < sizeof unknown_codes / sizeof unknown_codes[0]; i++) {
        const char *name = telenorid_status_str(unknown_codes[i]);
        CHECK(name != NULL && unknown && strcmp(name, unknown) == 0);
    }
    /* 14 was unknown to the local half; it is TIMEOUT now and must not read as unknown. */
    CHECK(telenorid_status_str(14) != NULL && strcmp(telenorid_status_str(14), unknown) != 0);
}

/* ------------------------------------------------------------------------------------------------
 * The last error
 * --------------------------------------------------------------------------------------------- */

/* Runs first: nothing failed on this thread yet. */
static void test_no_error_yet(void) {
    CHECK(telenorid_error_last() == NULL);
    /* Successful calls record nothing. */
    telenorid_pkce *pkce = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pkce_new(0, &pkce));
    telenorid_pkce_free(pkce);
    CHECK(telenorid_error_last() == NULL);
}

static void test_error_copies(void) {
    /* The accessors' documented answers for NULL. */
    CHECK(telenorid_error_status(NULL) == TELENORID_E_INVALID_ARGUMENT);
    CHECK(telenorid_error_message(NULL) != NULL && telenorid_error_message(NULL)[0] != 0);
    CHECK(telenorid_error_oauth_error(NULL) == NULL);
    CHECK(telenorid_error_oauth_description(NULL) == NULL);
    CHECK(telenorid_error_oauth_uri(NULL) == NULL);
    CHECK(telenorid_error_http_status(NULL) == 0);
    telenorid_error_free(NULL);

    telenorid_pkce *pkce = SENTINEL;
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_new(5, &pkce));
    telenorid_error *first = telenorid_error_last();
    telenorid_error *again = telenorid_error_last();
    CHECK(first != NULL && again != NULL && first != again); /* each call gives its own copy */
    CHECK(telenorid_error_status(first) == TELENORID_E_INVALID_ARGUMENT);
    char *saved = xstrdup(telenorid_error_message(first));
    CHECK(saved[0] != 0);
    CHECK_STR(saved, telenorid_error_message(again));
    CHECK(telenorid_error_oauth_error(first) == NULL);
    CHECK(telenorid_error_oauth_description(first) == NULL);
    CHECK(telenorid_error_oauth_uri(first) == NULL);
    CHECK(telenorid_error_http_status(first) == 0);
    telenorid_error_free(again);

    /* A copy is immutable: later failures and successes don't change it, and successes don't clear the last error. */
    telenorid_config *config = SENTINEL;
    CHECK_STATUS(TELENORID_E_MALFORMED, telenorid_config_from_json("{", NULL, &config));
    CHECK(config == SENTINEL);
    CHECK_STR(saved, telenorid_error_message(first));
    CHECK(telenorid_error_status(first) == TELENORID_E_INVALID_ARGUMENT);
    CHECK_STATUS(TELENORID_OK, telenorid_pkce_new(0, &pkce));
    telenorid_pkce_free(pkce);
    CHECK_LAST_ERROR(TELENORID_E_MALFORMED, NULL);
    telenorid_error_free(first);
    free(saved);
}

/* ------------------------------------------------------------------------------------------------
 * NULL everywhere, *_free(NULL), wrong kinds
 * --------------------------------------------------------------------------------------------- */

static void test_free_null(void) {
    telenorid_error_free(NULL);
    telenorid_string_free(NULL);
    telenorid_config_builder_free(NULL);
    telenorid_config_free(NULL);
    telenorid_pkce_free(NULL);
    telenorid_auth_request_free(NULL);
    telenorid_pending_auth_free(NULL);
    telenorid_callback_free(NULL);
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
    telenorid_callback *callback;
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
    telenorid_callback_free(h->callback);
    telenorid_pending_auth_free(h->pending);
    telenorid_auth_request_free(h->request);
    telenorid_pkce_free(h->pkce);
    telenorid_config_free(h->config);
    telenorid_config_builder_free(h->builder);
}

static void change_counter(void *user_data) { (*(int *)user_data)++; }

/* NULL in every pointer position of every function that takes one; outputs stay untouched. Positions the
 * header allows to be NULL are checked to work. */
/* A host signer that always fails: the NULL checks must refuse before it could be called. */
static int32_t refusing_signer(void *user_data, const uint8_t *input, size_t input_len, uint8_t *signature,
                               size_t *signature_len) {
    (void)user_data; (void)input; (void)input_len; (void)signature; (void)signature_len;
    return 1;
}

static void test_null_arguments(void) {
    struct handles h;
    handles_make(&h);
    char *s = SENTINEL;
    telenorid_config_builder *builder = SENTINEL;
    telenorid_config *config = SENTINEL;
    telenorid_pkce *pkce = SENTINEL;
    telenorid_auth_request *request = SENTINEL;
    telenorid_pending_auth *pending = SENTINEL;
    telenorid_callback *callback = SENTINEL;
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
    CHECK_NULL_ARG("callback", telenorid_callback_code(NULL, &s));
    CHECK_NULL_ARG("out", telenorid_callback_code(h.callback, NULL));
    CHECK_NULL_ARG("callback", telenorid_callback_parameter(NULL, "scope", &s));
    CHECK_NULL_ARG("name", telenorid_callback_parameter(h.callback, NULL, &s));
    CHECK_NULL_ARG("out", telenorid_callback_parameter(h.callback, "scope", NULL));

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
    CHECK_NULL_ARG("request", telenorid_auth_request_add_resource(NULL, "https://x.example/"));
    CHECK_NULL_ARG("uri", telenorid_auth_request_add_resource(h.request, NULL));
    CHECK_NULL_ARG("request", telenorid_auth_request_set_authorization_details(NULL, NULL));
    CHECK_NULL_ARG("request", telenorid_auth_request_set_token_authorization_details(NULL, NULL));
    CHECK_NULL_ARG("request", telenorid_auth_request_apply_step_up(NULL, "Bearer", &flag));
    CHECK_NULL_ARG("www_authenticate", telenorid_auth_request_apply_step_up(h.request, NULL, &flag));
    CHECK_NULL_ARG("out", telenorid_auth_request_apply_step_up(h.request, "Bearer", NULL));
    CHECK_NULL_ARG("state", telenorid_auth_state_bind_file(NULL, "/tmp/x"));
    CHECK_NULL_ARG("path", telenorid_auth_state_bind_file(h.state, NULL));
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
static void test_wrong_kind(void) {
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
    CHECK_WRONG_KIND(telenorid_pending_auth_handle_callback(AS(telenorid_pending_auth, h.app_callback), REDIRECT "?code=c&state=s", AS(telenorid_callback *, &out)));
    CHECK_WRONG_KIND(telenorid_callback_code(AS(telenorid_callback, h.app_callback), &s));
    CHECK_WRONG_KIND(telenorid_callback_parameter(AS(telenorid_callback, h.pending), "code", &s));
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
    CHECK_WRONG_KIND(telenorid_client_exchange_code(h.client, AS(telenorid_callback, h.app_callback), AS(telenorid_auth_state *, &out)));
    CHECK_WRONG_KIND(telenorid_auth_state_fresh_access_token(AS(telenorid_auth_state, h.client), &s));
    CHECK_WRONG_KIND(telenorid_auth_state_refresh(AS(telenorid_auth_state, h.client)));
    CHECK_WRONG_KIND(telenorid_auth_state_is_signed_in(AS(telenorid_auth_state, wrong), &flag));
    CHECK_WRONG_KIND(telenorid_auth_state_get(AS(telenorid_auth_state, wrong), TELENORID_TOKEN_ACCESS_TOKEN, &s));
    CHECK_WRONG_KIND(telenorid_auth_state_expires_at(AS(telenorid_auth_state, wrong), &expiry));
    CHECK_WRONG_KIND(telenorid_auth_state_userinfo(AS(telenorid_auth_state, wrong), &s));
    CHECK_WRONG_KIND(telenorid_auth_state_revoke(AS(telenorid_auth_state, wrong)));
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

static void test_invalid_utf8(void) {
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
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_handle_callback(h.pending, url, AS(telenorid_callback *, &out)));
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_callback_parameter(h.callback, bad, &s));
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

static void test_length_limit(void) {
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
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pending_auth_handle_callback(h.pending, too_long, AS(telenorid_callback *, &out)));
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

static void test_unknown_enums(void) {
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
    const telenorid_auth_param params[] = {0, -1, 10, INT32_MAX};
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
    const telenorid_token_field fields[] = {0, 9, -1};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_state_get(h.state, fields[i], &s));
    }
    CHECK(s == SENTINEL);
    handles_free(&h);
}

/* ------------------------------------------------------------------------------------------------
 * PKCE
 * --------------------------------------------------------------------------------------------- */

static char *pkce_string(telenorid_status (*getter)(const telenorid_pkce *, char **), const telenorid_pkce *pkce) {
    char *value = SENTINEL;
    if (!CHECK_STATUS(TELENORID_OK, getter(pkce, &value))) return NULL;
    return take(value);
}

static char *s256(const char *verifier) {
    telenorid_pkce *pkce = NULL;
    if (!CHECK_STATUS(TELENORID_OK, telenorid_pkce_from_verifier(verifier, &pkce))) return NULL;
    char *challenge = pkce_string(telenorid_pkce_challenge, pkce);
    telenorid_pkce_free(pkce);
    return challenge;
}

static void test_pkce(void) {
    telenorid_pkce *pkce = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pkce_from_verifier(RFC7636_VERIFIER, &pkce));
    char *challenge = pkce_string(telenorid_pkce_challenge, pkce);
    char *verifier = pkce_string(telenorid_pkce_verifier, pkce);
    CHECK_STR(RFC7636_CHALLENGE, challenge);
    CHECK_STR(RFC7636_VERIFIER, verifier);
    free(challenge);
    free(verifier);
    telenorid_pkce_free(pkce);

    const size_t lengths[] = {0, 43, 64, 100, 128};
    const size_t expected[] = {64, 43, 64, 100, 128};
    char *previous = NULL;
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        pkce = NULL;
        if (!CHECK_STATUS(TELENORID_OK, telenorid_pkce_new(lengths[i], &pkce))) continue;
        verifier = pkce_string(telenorid_pkce_verifier, pkce);
        challenge = pkce_string(telenorid_pkce_challenge, pkce);
        CHECK(verifier && strlen(verifier) == expected[i]);
        CHECK(verifier && strspn(verifier, UNRESERVED) == expected[i]);
        /* The challenge is the S256 of the verifier: 43 base64url characters, no padding. */
        CHECK(challenge && strlen(challenge) == 43 && strspn(challenge, BASE64URL) == 43);
        char *recomputed = verifier ? s256(verifier) : NULL;
        CHECK(challenge && recomputed && strcmp(challenge, recomputed) == 0);
        CHECK(!previous || !verifier || strcmp(previous, verifier) != 0); /* fresh randomness each time */
        free(recomputed);
        free(challenge);
        free(previous);
        previous = verifier;
        telenorid_pkce_free(pkce);
    }
    free(previous);

    pkce = SENTINEL;
    const size_t refused[] = {1, 42, 129, 1000, SIZE_MAX, (size_t)INT_MAX + 1};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        prime_last_error();
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_new(refused[i], &pkce));
        CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, NULL);
    }
    char *v42 = big_string(42, 'a'), *v43 = big_string(43, 'a'), *v128 = big_string(128, '~'), *v129 = big_string(129, 'a');
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier(v42, &pkce));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier(v129, &pkce));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier("", &pkce));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier("short", &pkce));
    v43[10] = '+';
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier(v43, &pkce)); /* not unreserved */
    v43[10] = ' ';
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_pkce_from_verifier(v43, &pkce));
    CHECK(pkce == SENTINEL);
    v43[10] = '.';
    telenorid_pkce *edge = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pkce_from_verifier(v43, &edge));
    telenorid_pkce_free(edge);
    edge = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pkce_from_verifier(v128, &edge));
    telenorid_pkce_free(edge);
    free(v42);
    free(v43);
    free(v128);
    free(v129);
}

/* ------------------------------------------------------------------------------------------------
 * Configuration
 * --------------------------------------------------------------------------------------------- */

static void test_config_builder(void) {
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
    };
    const size_t count = sizeof every / sizeof every[0];
    CHECK(count == 27 && every[count - 1].key == 27);
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

static void test_config_json(void) {
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

/* ------------------------------------------------------------------------------------------------
 * Authorization request and pending authorization
 * --------------------------------------------------------------------------------------------- */

/* The claims request of the OIDC claims request for native apps (OIDC Core §5.5) (with the top-level purpose), plus a values list. */
static const char native_app_claims[] =
    "{\"purpose\":\"This is why RP is asking for your information\","
    "\"id_token\":{\"given_name\":{\"essential\":true,\"purpose\":\"This is why RP needs your name\"},"
    "\"phone_number\":{\"essential\":true,\"purpose\":\"This is why RP needs your phone number\"},"
    "\"birthdate\":{\"essential\":true,\"purpose\":\"This is why RP needs your DOB\"},"
    "\"acr\":{\"values\":[\"urn:a\",\"urn:b\"]}},"
    "\"userinfo\":{\"birthdate\":{\"essential\":true},\"email\":null}}";

static void test_auth_request(void) {
    telenorid_config *config = make_config();
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));

    /* Every typed parameter. */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_SCOPE, "openid profile phone"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_PROMPT, "login consent"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_LOGIN_HINT, "\xc3\x85se+47@example.com"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_UI_LOCALES, "nb en"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_ACR_VALUES, "urn:a urn:b"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_MAX_AGE, "300"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_ALOHA_TOKEN, "aloha-uuid-1"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_CLAIMS_PURPOSE,
                                                          "This is why RP is asking for your information"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_RESPONSE_MODE, "query"));
    /* Typed values are checked. */
    const char *bad_max_age[] = {"5m", "-1", "", "12345678901", "1.5"};
    for (size_t i = 0; i < sizeof bad_max_age / sizeof bad_max_age[0]; i++) {
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set(request, TELENORID_AUTH_MAX_AGE, bad_max_age[i]));
    }
    telenorid_status mode = telenorid_auth_request_set(request, TELENORID_AUTH_RESPONSE_MODE, "form_post");
    CHECK(mode == TELENORID_E_UNSUPPORTED || mode == TELENORID_E_INVALID_ARGUMENT);
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set(request, TELENORID_AUTH_SCOPE, ""));

    /* Claims as in the OIDC claims request for native apps (OIDC Core §5.5). */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "given_name", 1, "This is why RP needs your name", NULL, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "phone_number", 1, "This is why RP needs your phone number", NULL, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "birthdate", 1, "This is why RP needs your DOB", NULL, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "acr", -1, NULL, NULL, "[\"urn:a\",\"urn:b\"]"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "birthdate", 1, NULL, NULL, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "email", -1, NULL, NULL, NULL));
    /* The same claim twice for one target conflicts; bad claim arguments are refused. */
    CHECK_STATUS(TELENORID_E_PARAMETER_CONFLICT, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "given_name", 0, NULL, NULL, NULL));
    CHECK_STATUS(TELENORID_E_PARAMETER_CONFLICT, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "email", 1, NULL, NULL, NULL));
    CHECK_STATUS(TELENORID_E_MALFORMED, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "x", -1, NULL, "{bad", NULL));
    CHECK_STATUS(TELENORID_E_MALFORMED, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "x", -1, NULL, NULL, "{}"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "x", -1, NULL, "1", "[1]"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "", -1, NULL, NULL, NULL));

    /* Extra parameters: the library's own names, and any name twice, conflict. */
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_parameter(request, "resource", "https://api.example.com/"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_parameter(request, "x-empty", ""));
    const char *owned[] = {"response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
                           "code_challenge_method", "claims", "prompt", "login_hint", "ui_locales", "acr_values",
                           "max_age", "aloha_token", "response_mode", "requested_flow", "app_callback_uri", "resource"};
    for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++) {
        prime_last_error();
        if (!CHECK_STATUS(TELENORID_E_PARAMETER_CONFLICT, telenorid_auth_request_add_parameter(request, owned[i], "mine"))) {
            fprintf(stderr, "  name %s\n", owned[i]);
        }
        CHECK_LAST_ERROR(TELENORID_E_PARAMETER_CONFLICT, owned[i]);
    }
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_add_parameter(request, "", "v"));

    /* PKCE method: plain is refused by this configuration; unknown methods are refused. */
    CHECK_STATUS(TELENORID_E_UNSUPPORTED, telenorid_auth_request_set_pkce_method(request, TELENORID_PKCE_PLAIN));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set_pkce_method(request, TELENORID_PKCE_S256));

    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    char *url = pending_string(telenorid_pending_auth_url, pending);
    char *state = pending_string(telenorid_pending_auth_state, pending);
    char *nonce = pending_string(telenorid_pending_auth_nonce, pending);
    char *verifier = pending_string(telenorid_pending_auth_code_verifier, pending);
    char *challenge = verifier ? s256(verifier) : NULL;
    static const char prefix[] = "https://api.vipps.no/oauth2/auth?response_type=code&client_id=tnn-example&redirect_uri="
                                 "telenorid-example%3A%2F%2Fauthcallback%2F&scope=openid%20profile%20phone&state=";
    CHECK(url && strncmp(url, prefix, sizeof prefix - 1) == 0);
    /* 256-bit state and nonce: 43 base64url characters each; a 43-character base64url verifier (RFC 7636 §4.1). */
    CHECK(state && strlen(state) == 43 && strspn(state, BASE64URL) == 43);
    CHECK(nonce && strlen(nonce) == 43 && strspn(nonce, BASE64URL) == 43);
    CHECK(verifier && strlen(verifier) == 43 && strspn(verifier, BASE64URL) == 43);
    CHECK(state && nonce && strcmp(state, nonce) != 0);
    CHECK_PARAM(url, "response_type", "code");
    CHECK_PARAM(url, "client_id", "tnn-example");
    CHECK_PARAM(url, "redirect_uri", REDIRECT);
    CHECK_PARAM(url, "scope", "openid profile phone");
    CHECK_PARAM(url, "state", state);
    CHECK_PARAM(url, "nonce", nonce);
    CHECK_PARAM(url, "code_challenge", challenge);
    CHECK_PARAM(url, "code_challenge_method", "S256");
    CHECK_PARAM(url, "prompt", "login consent");
    CHECK_PARAM(url, "login_hint", "\xc3\x85se+47@example.com");
    CHECK_PARAM(url, "ui_locales", "nb en");
    CHECK_PARAM(url, "acr_values", "urn:a urn:b");
    CHECK_PARAM(url, "max_age", "300");
    CHECK_PARAM(url, "aloha_token", "aloha-uuid-1");
    CHECK_PARAM(url, "response_mode", "query");
    CHECK_PARAM(url, "claims", native_app_claims);
    CHECK_PARAM(url, "resource", "https://api.example.com/");
    CHECK_PARAM(url, "x-empty", "");
    CHECK_PARAM(url, "purpose", NULL);         /* the claims purpose lives inside claims */
    CHECK_PARAM(url, "requested_flow", NULL);  /* only with app-to-app */
    CHECK_PARAM(url, "code_verifier", NULL);   /* the secret never goes into the URL */
    CHECK(url && verifier && strstr(url, verifier) == NULL);
    CHECK(url && strstr(url, "+") == NULL);     /* spaces as %20, "+" as %2B */
    CHECK_CONTAINS(url, "login_hint=%C3%85se%2B47");

    /* The request stays usable: a second build draws fresh secrets; clearing a value drops it. */
    telenorid_pending_auth *again = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_PROMPT, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_SCOPE, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &again));
    char *url2 = pending_string(telenorid_pending_auth_url, again);
    char *state2 = pending_string(telenorid_pending_auth_state, again);
    char *nonce2 = pending_string(telenorid_pending_auth_nonce, again);
    char *verifier2 = pending_string(telenorid_pending_auth_code_verifier, again);
    CHECK(state && state2 && strcmp(state, state2) != 0);
    CHECK(nonce && nonce2 && strcmp(nonce, nonce2) != 0);
    CHECK(verifier && verifier2 && strcmp(verifier, verifier2) != 0);
    CHECK_PARAM(url2, "prompt", NULL);
    CHECK_PARAM(url2, "scope", "openid profile"); /* back to the configuration's */
    free(url2);
    free(state2);
    free(nonce2);
    free(verifier2);
    telenorid_pending_auth_free(again);
    free(url);
    free(state);
    free(nonce);
    free(verifier);
    free(challenge);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);

    /* A value_json claim; essential false. */
    pending = NULL;
    request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "nickname", 0, NULL, "\"x\"", NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    url = pending_string(telenorid_pending_auth_url, pending);
    CHECK_PARAM(url, "claims", "{\"userinfo\":{\"nickname\":{\"essential\":false,\"value\":\"x\"}}}");
    free(url);
    telenorid_pending_auth_free(pending);

    /* App-to-app (Vipps Login app-to-app): requested_flow together with app_callback_uri. */
    pending = NULL;
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set_app_to_app(request, "not a uri"));
    CHECK_STATUS(TELENORID_E_INSECURE, telenorid_auth_request_set_app_to_app(request, "http://merchant.example/cb"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set_app_to_app(request, "https://example.com/app-callback"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    url = pending_string(telenorid_pending_auth_url, pending);
    CHECK_PARAM(url, "requested_flow", "app_to_app");
    CHECK_PARAM(url, "app_callback_uri", "https://example.com/app-callback");
    CHECK_PARAM(url, "redirect_uri", REDIRECT);
    free(url);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_config_free(config);

    /* Plain PKCE when the configuration allows it: the challenge is the verifier. An endpoint with a query
     * keeps it. Without an authorization endpoint there is nothing to build. */
    telenorid_config_builder *b = builder_with("https://id.example.com", "c", "app://cb");
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ALLOW_PLAIN_PKCE, "true"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONFIGURATION, pending, telenorid_auth_request_build(request, &pending));
    CHECK_LAST_ERROR(TELENORID_E_CONFIGURATION, "authorization_endpoint");
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_AUTHORIZATION_ENDPOINT, "https://id.example.com/auth?tenant=t1"));
    config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    request = NULL;
    pending = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set_pkce_method(request, TELENORID_PKCE_PLAIN));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    url = pending_string(telenorid_pending_auth_url, pending);
    verifier = pending_string(telenorid_pending_auth_code_verifier, pending);
    CHECK(url && strncmp(url, "https://id.example.com/auth?tenant=t1&response_type=code&", 56) == 0);
    CHECK_PARAM(url, "code_challenge_method", "plain");
    CHECK_PARAM(url, "code_challenge", verifier);
    CHECK_PARAM(url, "scope", "openid"); /* the default scope */
    free(url);
    free(verifier);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
    telenorid_config_builder_free(b);
}

static void test_pending_serialization(void) {
    telenorid_config *config = make_config();
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL, *restored = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_MAX_AGE, "60"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set_app_to_app(request, APP_CALLBACK));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    char *json = pending_string(telenorid_pending_auth_serialize, pending);
    CHECK_CONTAINS(json, "\"version\":1");
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_restore(config, json ? json : "", &restored));
    telenorid_status (*const getters[])(const telenorid_pending_auth *, char **) = {
        telenorid_pending_auth_url, telenorid_pending_auth_state, telenorid_pending_auth_nonce,
        telenorid_pending_auth_code_verifier, telenorid_pending_auth_serialize};
    for (size_t i = 0; i < sizeof getters / sizeof getters[0]; i++) {
        char *a = pending_string(getters[i], pending), *b = pending_string(getters[i], restored);
        CHECK(a && b && strcmp(a, b) == 0);
        free(a);
        free(b);
    }
    /* The restored request checks callbacks like the original, the app callback included. */
    char *app = with_state(pending, APP_CALLBACK "?state=", "");
    telenorid_app_callback *app_callback = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_app_callback(restored, app, NULL, &app_callback));
    telenorid_app_callback_free(app_callback);
    free(app);
    telenorid_callback *callback = make_callback(restored, REDIRECT "?code=restored&state=");
    char *code = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_callback_code(callback, &code));
    CHECK_STR("restored", code);
    telenorid_string_free(code);
    telenorid_callback_free(callback);

    /* Refusals: another issuer, client or redirect URI, an unknown version, not JSON, missing members. */
    telenorid_pending_auth *bad = SENTINEL;
    telenorid_config_builder *b = builder_with("https://id.example.com", "someone-else", REDIRECT);
    telenorid_config *other = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &other));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONFIGURATION, bad, telenorid_pending_auth_restore(other, json ? json : "", &bad));
    telenorid_config_free(other);
    telenorid_config_builder_free(b);
    /* Another provider, same client id and redirect URI (as an auth state's restore refuses too). */
    b = builder_with("https://other.example.com", "tnn-example", REDIRECT);
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &other));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONFIGURATION, bad, telenorid_pending_auth_restore(other, json ? json : "", &bad));
    telenorid_config_free(other);
    telenorid_config_builder_free(b);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_VERSION, bad, telenorid_pending_auth_restore(config, "{\"version\":7}", &bad));
    CHECK_LAST_ERROR(TELENORID_E_VERSION, NULL);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_pending_auth_restore(config, "{\"version\":1}", &bad));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_pending_auth_restore(config, "{}", &bad));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_pending_auth_restore(config, "not json", &bad));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_pending_auth_restore(config, "[1]", &bad));
    free(json);
    telenorid_pending_auth_free(restored);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
}

/* ------------------------------------------------------------------------------------------------
 * Callbacks
 * --------------------------------------------------------------------------------------------- */

static void test_callbacks(void) {
    telenorid_config *config = make_config();
    telenorid_pending_auth *pending = make_pending(config, 0);
    telenorid_callback *callback = SENTINEL;
    char *url, *s = NULL;

    static const struct { const char *prefix; const char *suffix; telenorid_status expected; } refused[] = {
        {REDIRECT "?code=c&state=forged", NULL, TELENORID_E_STATE_MISMATCH},
        {REDIRECT "?code=c", NULL, TELENORID_E_STATE_MISMATCH},                        /* no state */
        {"evil://authcallback/?code=c&state=", "", TELENORID_E_REDIRECT_MISMATCH},
        {"telenorid-example://other/?code=c&state=", "", TELENORID_E_REDIRECT_MISMATCH},
        {"telenorid-example://authcallback/x?code=c&state=", "", TELENORID_E_REDIRECT_MISMATCH},
        {"telenorid-example://authcallback:99/?code=c&state=", "", TELENORID_E_REDIRECT_MISMATCH},
        {"not a url", NULL, TELENORID_E_MALFORMED},
        {"", NULL, TELENORID_E_MALFORMED},
        {REDIRECT "?code=c&code=d&state=", "", TELENORID_E_MALFORMED},                 /* repeated */
        {REDIRECT "?state=", "", TELENORID_E_MALFORMED},                                /* neither code nor error */
        {REDIRECT "?code=&state=", "", TELENORID_E_MALFORMED},                          /* empty code */
        {REDIRECT "?code=c&iss=https%3A%2F%2Fevil.example&state=", "", TELENORID_E_ISSUER_MISMATCH},
        {REDIRECT "?code=c&state=", "&state=again", TELENORID_E_MALFORMED},
        {REDIRECT "#code=c&state=", "", TELENORID_E_STATE_MISMATCH},                   /* query mode: fragment ignored */
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        url = refused[i].suffix ? with_state(pending, refused[i].prefix, refused[i].suffix) : xstrdup(refused[i].prefix);
        prime_last_error();
        if (!CHECK_STATUS(refused[i].expected, telenorid_pending_auth_handle_callback(pending, url, &callback))) {
            fprintf(stderr, "  url %s\n", url);
        }
        CHECK_LAST_ERROR(refused[i].expected, NULL);
        free(url);
    }
    CHECK(callback == SENTINEL);

    /* The provider's error answer: AUTHORIZATION_ERROR with the OAuth fields in the last error. */
    url = with_state(pending, REDIRECT "?error=access_denied&error_description=No+thanks%2C+%C3%85se"
                              "&error_uri=https%3A%2F%2Fe.example%2Fwhy&state=", "");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_AUTHORIZATION_ERROR, callback, telenorid_pending_auth_handle_callback(pending, url, &callback));
    free(url);
    telenorid_error *e = telenorid_error_last();
    CHECK(telenorid_error_status(e) == TELENORID_E_AUTHORIZATION_ERROR);
    CHECK_STR("access_denied", telenorid_error_oauth_error(e));
    CHECK_STR("No thanks, \xc3\x85se", telenorid_error_oauth_description(e));
    CHECK_STR("https://e.example/why", telenorid_error_oauth_uri(e));
    CHECK_CONTAINS(telenorid_error_message(e), "access_denied");
    CHECK(telenorid_error_http_status(e) == 0);
    telenorid_error_free(e);
    /* Without description and uri, those read NULL; a NUL in a hostile description cuts it there. */
    url = with_state(pending, REDIRECT "?error=server_error&state=", "");
    CHECK_STATUS(TELENORID_E_AUTHORIZATION_ERROR, telenorid_pending_auth_handle_callback(pending, url, &callback));
    free(url);
    e = telenorid_error_last();
    CHECK_STR("server_error", telenorid_error_oauth_error(e));
    CHECK(telenorid_error_oauth_description(e) == NULL);
    CHECK(telenorid_error_oauth_uri(e) == NULL);
    telenorid_error_free(e);
    url = with_state(pending, REDIRECT "?error=x&error_description=before%00after&state=", "");
    CHECK_STATUS(TELENORID_E_AUTHORIZATION_ERROR, telenorid_pending_auth_handle_callback(pending, url, &callback));
    free(url);
    e = telenorid_error_last();
    CHECK_STR("before", telenorid_error_oauth_description(e));
    telenorid_error_free(e);
    /* An error with a forged state is a state mismatch first. */
    CHECK_STATUS(TELENORID_E_STATE_MISMATCH, telenorid_pending_auth_handle_callback(pending, REDIRECT "?error=access_denied&error_description=Call%20us&state=forged", &callback));
    /* ... and what a forged callback says is not passed on as the provider's word. */
    e = telenorid_error_last();
    CHECK(telenorid_error_oauth_error(e) == NULL && telenorid_error_oauth_description(e) == NULL);
    telenorid_error_free(e);

    /* A code holding NUL could never be handed out whole as a C string: refused when the callback is
     * parsed, before the request is used up. */
    url = with_state(pending, REDIRECT "?code=c%00d&state=", "");
    telenorid_callback *with_nul = SENTINEL;
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, with_nul, telenorid_pending_auth_handle_callback(pending, url, &with_nul));
    free(url);
    telenorid_pending_auth_free(pending);

    /* Success, then the request is consumed. None of the failures above consumed it. */
    pending = make_pending(config, 0);
    url = with_state(pending, REDIRECT "?code=abc%2F1&scope=openid+profile&iss=https%3A%2F%2Fid.example.com&state=", "");
    callback = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_callback(pending, url, &callback));
    s = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_callback_code(callback, &s));
    CHECK_STR("abc/1", s);
    telenorid_string_free(s);
    s = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_callback_parameter(callback, "scope", &s));
    CHECK_STR("openid profile", s);
    telenorid_string_free(s);
    s = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_callback_parameter(callback, "iss", &s));
    CHECK_STR("https://id.example.com", s);
    telenorid_string_free(s);
    s = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_callback_parameter(callback, "session_state", &s));
    CHECK(s == NULL); /* absent: OK with *out = NULL */
    s = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_callback_parameter(callback, "", &s));
    CHECK(s == NULL);
    telenorid_callback *second = SENTINEL;
    prime_last_error();
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONSUMED, second, telenorid_pending_auth_handle_callback(pending, url, &second));
    CHECK_LAST_ERROR(TELENORID_E_CONSUMED, NULL);
    free(url);
    telenorid_callback_free(callback);
    telenorid_pending_auth_free(pending);

    /* response_mode=fragment: the answer is in the fragment, not the query. */
    telenorid_auth_request *request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_RESPONSE_MODE, "fragment"));
    pending = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    telenorid_auth_request_free(request);
    url = with_state(pending, REDIRECT "?code=q&state=", "");
    CHECK_STATUS(TELENORID_E_STATE_MISMATCH, telenorid_pending_auth_handle_callback(pending, url, &second));
    free(url);
    callback = make_callback(pending, REDIRECT "#code=frag&state=");
    s = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_callback_code(callback, &s));
    CHECK_STR("frag", s);
    telenorid_string_free(s);
    telenorid_callback_free(callback);
    telenorid_pending_auth_free(pending);
    telenorid_config_free(config);
}

static void test_app_callbacks(void) {
    /* Vipps Login app-to-app's callbacks; the authorization endpoint's host is api.vipps.no. */
    telenorid_config *config = make_config();
    telenorid_pending_auth *pending = make_pending(config, 1);
    telenorid_app_callback *callback = NULL;
    char *url, *s = NULL;

    url = with_state(pending, APP_CALLBACK "?state=", "&resume_uri=https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t");
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    free(url);
    CHECK_STATUS(TELENORID_OK, telenorid_app_callback_resume_uri(callback, &s));
    CHECK_STR("https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t", s);
    telenorid_string_free(s);
    telenorid_app_callback_free(callback);

    /* Encoded, with the trailing slash Vipps' documented example adds. */
    callback = NULL;
    url = with_state(pending, APP_CALLBACK "/?state=", "&resume_uri=https%3A%2F%2Fapi.vipps.no%2Fvipps-login-idp%2Findex.html%3FtabId%3D7607f7f0");
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    free(url);
    s = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_app_callback_resume_uri(callback, &s));
    CHECK_STR("https://api.vipps.no/vipps-login-idp/index.html?tabId=7607f7f0", s);
    telenorid_string_free(s);
    telenorid_app_callback_free(callback);

    /* No resume_uri: OK, *out = NULL (the open browser carries on). */
    callback = NULL;
    url = with_state(pending, APP_CALLBACK "?state=", "");
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    free(url);
    s = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_app_callback_resume_uri(callback, &s));
    CHECK(s == NULL);
    telenorid_app_callback_free(callback);

    /* Vipps' documented malformed error form "state=...?error=unknown_error", and the well-formed one. */
    const char *error_suffixes[] = {"?error=unknown_error", "&error=unknown_error"};
    for (size_t i = 0; i < 2; i++) {
        callback = SENTINEL;
        url = with_state(pending, APP_CALLBACK "?state=", error_suffixes[i]);
        prime_last_error();
        CHECK_FAILS_UNTOUCHED(TELENORID_E_AUTHORIZATION_ERROR, callback,
                              telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
        free(url);
        telenorid_error *e = telenorid_error_last();
        CHECK(telenorid_error_status(e) == TELENORID_E_AUTHORIZATION_ERROR);
        CHECK_STR("unknown_error", telenorid_error_oauth_error(e));
        telenorid_error_free(e);
    }

    /* resume_uri must be https on the allowed host: the authorization endpoint's unless one is given. */
    const char *refused_resume[] = {"https%3A%2F%2Fevil.example%2F", "http%3A%2F%2Fapi.vipps.no%2Fx",
                                    "https%3A%2F%2Fapi.vipps.no.evil.example%2Fx", "https%3A%2F%2Fuser%40api.vipps.no%2Fx",
                                    "javascript%3Aalert(1)"};
    for (size_t i = 0; i < sizeof refused_resume / sizeof refused_resume[0]; i++) {
        char *suffix = concat("&resume_uri=", refused_resume[i], NULL, NULL);
        url = with_state(pending, APP_CALLBACK "?state=", suffix);
        telenorid_status status = telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback);
        if (!CHECK(status == TELENORID_E_INSECURE || (i == 4 && status == TELENORID_E_MALFORMED))) {
            fprintf(stderr, "  resume_uri %s gave %d\n", refused_resume[i], status);
        }
        free(suffix);
        free(url);
    }
    url = with_state(pending, APP_CALLBACK "?state=", "&resume_uri=https%3A%2F%2Fevil.example%2F");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INSECURE, callback, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    CHECK_LAST_ERROR(TELENORID_E_INSECURE, "api.vipps.no");
    free(url);
    url = with_state(pending, APP_CALLBACK "?state=", "&resume_uri=https%3A%2F%2Flogin.example%2Fr");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INSECURE, callback, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    callback = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_handle_app_callback(pending, url, "login.example", &callback));
    free(url);
    s = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_app_callback_resume_uri(callback, &s));
    CHECK_STR("https://login.example/r", s);
    telenorid_string_free(s);
    telenorid_app_callback_free(callback);

    /* State and target are checked. */
    CHECK_FAILS_UNTOUCHED(TELENORID_E_STATE_MISMATCH, callback,
                          telenorid_pending_auth_handle_app_callback(pending, APP_CALLBACK "?state=nope", NULL, &callback));
    url = with_state(pending, "otherapp://app-callback?state=", "");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_REDIRECT_MISMATCH, callback, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    free(url);

    /* The app callback does not consume the request: the code still arrives at the redirect URI. */
    telenorid_callback *code_callback = make_callback(pending, REDIRECT "?code=after-app&state=");
    CHECK(code_callback != NULL);
    telenorid_callback_free(code_callback);
    telenorid_pending_auth_free(pending);

    /* A request that did not ask for app-to-app has no app callback. */
    pending = make_pending(config, 0);
    url = with_state(pending, APP_CALLBACK "?state=", "");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONFIGURATION, callback, telenorid_pending_auth_handle_app_callback(pending, url, NULL, &callback));
    free(url);
    telenorid_pending_auth_free(pending);
    telenorid_config_free(config);
}

/* Children keep their parents alive: free in any order. */
static void test_free_order(void) {
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
    telenorid_callback *callback = make_callback(pending, REDIRECT "?code=order&state=");
    telenorid_pending_auth_free(pending);          /* the callback outlives it */
    char *code = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_callback_code(callback, &code));
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
    telenorid_callback_free(callback);
}

/* ------------------------------------------------------------------------------------------------
 * Threads
 * --------------------------------------------------------------------------------------------- */

struct thread_error { int saw_none_first; telenorid_error *error; };

static void *fail_on_other_thread(void *arg) {
    struct thread_error *result = arg;
    telenorid_error *before = telenorid_error_last();
    result->saw_none_first = before == NULL; /* the main thread's failures are not this thread's */
    telenorid_error_free(before);
    telenorid_pkce *pkce = SENTINEL;
    telenorid_pkce_new(5, &pkce);
    result->error = telenorid_error_last(); /* handed to the main thread: copies may be read anywhere */
    return NULL;
}

static void test_last_error_is_per_thread(void) {
    telenorid_config *config = SENTINEL;
    CHECK_STATUS(TELENORID_E_MALFORMED, telenorid_config_from_json("[", NULL, &config));
    telenorid_error *mine_before = telenorid_error_last();
    struct thread_error result = {0, NULL};
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, fail_on_other_thread, &result) == 0);
    pthread_join(thread, NULL);
    CHECK(result.saw_none_first);
    CHECK(result.error != NULL && telenorid_error_status(result.error) == TELENORID_E_INVALID_ARGUMENT);
    telenorid_error *mine = telenorid_error_last();
    CHECK(mine != NULL && telenorid_error_status(mine) == TELENORID_E_MALFORMED);
    CHECK(mine && mine_before && strcmp(telenorid_error_message(mine), telenorid_error_message(mine_before)) == 0);
    CHECK(mine && result.error && strcmp(telenorid_error_message(mine), telenorid_error_message(result.error)) != 0);
    telenorid_error_free(mine);
    telenorid_error_free(mine_before);
    telenorid_error_free(result.error);
}

#define RACERS 8
#define RACE_ROUNDS 10

struct race {
    pthread_barrier_t *start;
    const telenorid_pending_auth *pending;
    const char *url;
    telenorid_status status;
    char *code;
};

static void *race_callback(void *arg) {
    struct race *r = arg;
    telenorid_callback *callback = NULL;
    pthread_barrier_wait(r->start);
    r->status = telenorid_pending_auth_handle_callback(r->pending, r->url, &callback);
    if (r->status == TELENORID_OK) {
        char *code = NULL;
        if (telenorid_callback_code(callback, &code) == TELENORID_OK) r->code = take(code);
    }
    telenorid_callback_free(callback);
    return NULL;
}

/* Eight threads share one configuration and one pending request and race the same correct redirect:
 * exactly one gets the code, the others TELENORID_E_CONSUMED. */
static void test_callback_race(void) {
    telenorid_config *config = make_config();
    for (int round = 0; round < RACE_ROUNDS; round++) {
        telenorid_pending_auth *pending = make_pending(config, 0);
        char *url = with_state(pending, REDIRECT "?code=race&state=", "");
        pthread_barrier_t start;
        pthread_barrier_init(&start, NULL, RACERS);
        pthread_t threads[RACERS];
        struct race races[RACERS];
        for (int i = 0; i < RACERS; i++) {
            races[i] = (struct race){&start, pending, url, -1, NULL};
            CHECK(pthread_create(&threads[i], NULL, race_callback, &races[i]) == 0);
        }
        int ok = 0, consumed = 0;
        for (int i = 0; i < RACERS; i++) {
            pthread_join(threads[i], NULL);
            ok += races[i].status == TELENORID_OK;
            consumed += races[i].status == TELENORID_E_CONSUMED;
            if (races[i].status == TELENORID_OK) CHECK_STR("race", races[i].code);
            free(races[i].code);
        }
        if (!CHECK(ok == 1 && consumed == RACERS - 1)) fprintf(stderr, "  round %d: %d OK, %d consumed\n", round, ok, consumed);
        pthread_barrier_destroy(&start);
        free(url);
        telenorid_pending_auth_free(pending);
    }
    telenorid_config_free(config);
}

#define SHARED_ADDS 50

struct shared_request {
    pthread_barrier_t *start;
    telenorid_auth_request *request;
    int thread;
    int failures;
};

static void *add_and_build(void *arg) {
    struct shared_request *r = arg;
    pthread_barrier_wait(r->start);
    for (int i = 0; i < SHARED_ADDS; i++) {
        char name[32];
        snprintf(name, sizeof name, "x%d_%d", r->thread, i);
        r->failures += telenorid_auth_request_add_parameter(r->request, name, "v") != TELENORID_OK;
        telenorid_pending_auth *pending = NULL;
        r->failures += telenorid_auth_request_build(r->request, &pending) != TELENORID_OK;
        telenorid_pending_auth_free(pending);
    }
    return NULL;
}

/* One request shared by eight threads that add parameters and build at once: the library serializes
 * the calls, so every parameter lands once and no build sees a torn request. */
static void test_shared_request(void) {
    telenorid_config *config = make_config();
    telenorid_auth_request *request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, RACERS);
    pthread_t threads[RACERS];
    struct shared_request shared[RACERS];
    for (int i = 0; i < RACERS; i++) {
        shared[i] = (struct shared_request){&start, request, i, 0};
        CHECK(pthread_create(&threads[i], NULL, add_and_build, &shared[i]) == 0);
    }
    int failures = 0;
    for (int i = 0; i < RACERS; i++) {
        pthread_join(threads[i], NULL);
        failures += shared[i].failures;
    }
    CHECK(failures == 0);
    telenorid_pending_auth *pending = NULL;
    char *url = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_url(pending, &url));
    int found = 0;
    for (int t = 0; url && t < RACERS; t++) {
        for (int i = 0; i < SHARED_ADDS; i++) {
            char needle[40];
            snprintf(needle, sizeof needle, "&x%d_%d=v", t, i);
            found += strstr(url, needle) != NULL;
        }
    }
    CHECK(found == RACERS * SHARED_ADDS);
    telenorid_string_free(url);
    telenorid_pending_auth_free(pending);
    pthread_barrier_destroy(&start);
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
}

/* ------------------------------------------------------------------------------------------------
 * Client and auth state, against the stand-in provider
 * --------------------------------------------------------------------------------------------- */

static struct stub_server server;
static char base_url[64]; /* http://127.0.0.1:PORT */

static telenorid_config *provider_config(const char *issuer_path, const char *extra_key_values[]) {
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
static void serve_discovery_with(const char *issuer_path, const char *issuer_in_document, const char *extra_members) {
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

static void serve_discovery(const char *issuer_path, const char *issuer_in_document) {
    serve_discovery_with(issuer_path, issuer_in_document, NULL);
}

static char *state_string(const telenorid_auth_state *state, telenorid_token_field field) {
    char *value = SENTINEL;
    if (!CHECK_STATUS(TELENORID_OK, telenorid_auth_state_get(state, field, &value))) return NULL;
    return take(value);
}

/* One field of an auth state equals `expected` (NULL: is absent). */
#define CHECK_TOKEN(state, field, expected) check_token_at((state), (field), (expected), __FILE__, __LINE__)

static void check_token_at(const telenorid_auth_state *state, telenorid_token_field field, const char *expected,
                           const char *file, int line) {
    char *token = state_string(state, field);
    if (expected) check_str_at(expected, token, file, line);
    else if (!check_report(token == NULL, file, line, "field absent")) fprintf(stderr, "  field %d is \"%s\"\n", field, token);
    free(token);
}

static int32_t signed_in(const telenorid_auth_state *state) {
    int32_t flag = -1;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_is_signed_in(state, &flag));
    return flag;
}

static int64_t expires_at(const telenorid_auth_state *state) {
    int64_t at = -1;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_expires_at(state, &at));
    return at;
}

/* Discovery, code exchange, refresh (rotation, kept token, failures, a lost grant) and sign-out. */
static void test_client_sign_in(void) {
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
    telenorid_callback *callback = make_callback(pending, "com.example.app:/cb?code=code-1&state=");
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
    telenorid_callback *openid_callback = make_callback(openid, "com.example.app:/cb?code=code-2&state=");
    stub_set(&server, "POST", "/token", 200, "application/json", "{\"access_token\":\"x\",\"token_type\":\"Bearer\"}", NULL, 0);
    telenorid_auth_state *refused = SENTINEL;
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_RESPONSE, refused, telenorid_client_exchange_code(client, openid_callback, &refused));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_RESPONSE, "id_token");
    /* The code went out once; a retry is refused without another request. */
    token_calls = stub_hits(&server, "POST", "/token");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONSUMED, refused, telenorid_client_exchange_code(client, openid_callback, &refused));
    CHECK(stub_hits(&server, "POST", "/token") == token_calls);
    telenorid_callback_free(openid_callback);
    telenorid_pending_auth_free(openid);
    /* An ID token that does not validate is TOKEN_INVALID ("none" is never accepted). */
    openid = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &openid));
    openid_callback = make_callback(openid, "com.example.app:/cb?code=code-3&state=");
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"x\",\"token_type\":\"Bearer\",\"id_token\":\"eyJhbGciOiJub25lIn0.eyJpc3MiOiJ4In0.\"}", NULL, 0);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_TOKEN_INVALID, refused, telenorid_client_exchange_code(client, openid_callback, &refused));
    telenorid_callback_free(openid_callback);
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
    telenorid_callback_free(openid_callback);
    telenorid_pending_auth_free(openid);
    telenorid_auth_request_free(request);

    /* A callback for another client is refused. */
    telenorid_config *other = make_config();
    telenorid_pending_auth *foreign = make_pending(other, 0);
    telenorid_callback *foreign_callback = make_callback(foreign, REDIRECT "?code=f&state=");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONFIGURATION, refused, telenorid_client_exchange_code(client, foreign_callback, &refused));
    telenorid_callback_free(foreign_callback);
    telenorid_pending_auth_free(foreign);
    telenorid_config_free(other);

    telenorid_auth_state_free(state);
    telenorid_callback_free(callback);
    free(verifier);
    telenorid_pending_auth_free(pending);
    telenorid_config_free(effective);
    telenorid_client_free(client);
    telenorid_config_free(config);
}

/* A restored state: userinfo, logout URL, revocation, serialization round trips. */
static void test_auth_state_restored(void) {
    telenorid_config *config = provider_config("", NULL);
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    char json[1024];
    int64_t later = (int64_t)time(NULL) + 3600;
    snprintf(json, sizeof json,
             "{\"version\":1,\"access_token\":\"at-u\",\"token_type\":\"Bearer\",\"expires_at\":%lld,\"refresh_token\":\"rt-u\","
             "\"id_token\":\"aGRy.eyJzdWIiOiJ1c2VyLTEiLCJhdWQiOiJjLTEifQ.c2ln\",\"id_token_claims\":{\"sub\":\"user-1\",\"aud\":\"c-1\"},\"scope\":\"openid profile\"}",
             (long long)later);
    telenorid_auth_state *state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client, json, &state));
    CHECK(signed_in(state) == 1);
    CHECK(expires_at(state) == later);
    CHECK_TOKEN(state, TELENORID_TOKEN_ID_TOKEN, "aGRy.eyJzdWIiOiJ1c2VyLTEiLCJhdWQiOiJjLTEifQ.c2ln");
    char *claims = state_string(state, TELENORID_TOKEN_ID_TOKEN_CLAIMS);
    CHECK_CONTAINS(claims, "\"sub\":\"user-1\"");
    CHECK(claims && claims[0] == '{');
    free(claims);

    /* Serialize, restore, serialize: the same document. */
    char *first = NULL, *second = NULL;
    telenorid_auth_state *copy = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_serialize(state, &first));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client, first ? first : "", &copy));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_serialize(copy, &second));
    CHECK(first && second && strcmp(first, second) == 0);
    telenorid_string_free(first);
    telenorid_string_free(second);
    telenorid_auth_state_free(copy);

    /* Userinfo (discovering its endpoint first), with the access token as a bearer. */
    serve_discovery("", NULL);
    stub_set(&server, "GET", "/userinfo", 200, "application/json; charset=utf-8", "{\"sub\":\"user-1\",\"name\":\"\xc3\x85se\"}", NULL, 0);
    char *info = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_userinfo(state, &info));
    CHECK_CONTAINS(info, "\"sub\":\"user-1\"");
    CHECK_CONTAINS(info, "\xc3\x85se");
    telenorid_string_free(info);
    char *sent = stub_last_request(&server, "GET", "/userinfo");
    CHECK_CONTAINS(sent, "Authorization: Bearer at-u");
    free(sent);
    info = SENTINEL;
    stub_set(&server, "GET", "/userinfo", 200, "application/json", "{\"sub\":\"mallory\"}", NULL, 0);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_TOKEN_INVALID, info, telenorid_auth_state_userinfo(state, &info));
    stub_set(&server, "GET", "/userinfo", 200, "application/json", "{\"name\":\"no sub\"}", NULL, 0);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_RESPONSE, info, telenorid_auth_state_userinfo(state, &info));
    /* A 401 for a token the state thought valid: one refresh, one more try; a second 401 is an error
     * that keeps the sign-in. */
    stub_set(&server, "GET", "/userinfo", 401, "application/json", "",
             "WWW-Authenticate: Bearer error=\"invalid_token\", error_description=\"expired\"\r\n", 0);
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"at-v\",\"token_type\":\"Bearer\",\"expires_in\":3600}", NULL, 0);
    int userinfo_calls = stub_hits(&server, "GET", "/userinfo"), token_calls = stub_hits(&server, "POST", "/token");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_AUTHORIZATION_ERROR, info, telenorid_auth_state_userinfo(state, &info));
    telenorid_error *e = telenorid_error_last();
    CHECK_STR("invalid_token", telenorid_error_oauth_error(e));
    CHECK_STR("expired", telenorid_error_oauth_description(e));
    CHECK(telenorid_error_http_status(e) == 401);
    telenorid_error_free(e);
    CHECK(stub_hits(&server, "GET", "/userinfo") == userinfo_calls + 2 && stub_hits(&server, "POST", "/token") == token_calls + 1);
    CHECK(signed_in(state) == 1);
    CHECK_TOKEN(state, TELENORID_TOKEN_ACCESS_TOKEN, "at-v");
    CHECK_TOKEN(state, TELENORID_TOKEN_REFRESH_TOKEN, "rt-u");
    /* "Is the grant alive?": userinfo answers, nothing is rotated. */
    stub_set(&server, "GET", "/userinfo", 200, "application/json", "{\"sub\":\"user-1\"}", NULL, 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_check(state));
    CHECK(stub_hits(&server, "POST", "/token") == token_calls + 1);
    /* The host's own API refused the token: the next fresh token is a refreshed one; a late report about a
     * token already replaced changes nothing. */
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"at-w\",\"token_type\":\"Bearer\",\"expires_in\":3600}", NULL, 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_access_token_rejected(state, "at-u"));
    char *fresh = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_fresh_access_token(state, &fresh));
    CHECK_STR("at-v", fresh);
    telenorid_string_free(fresh);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_access_token_rejected(state, NULL));
    fresh = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_fresh_access_token(state, &fresh));
    CHECK_STR("at-w", fresh);
    telenorid_string_free(fresh);
    CHECK(stub_hits(&server, "POST", "/token") == token_calls + 2);

    /* The RP-initiated logout URL, with and without the optional parts. */
    char *logout = NULL, expected[512];
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_end_session_url(state, "com.example.app:/logged-out", "ls 1", &logout));
    snprintf(expected, sizeof expected,
             "%s/logout?id_token_hint=aGRy.eyJzdWIiOiJ1c2VyLTEiLCJhdWQiOiJjLTEifQ.c2ln&client_id=c-1&post_logout_redirect_uri=com.example.app%%3A%%2Flogged-out&state=ls%%201",
             base_url);
    CHECK_STR(expected, logout);
    telenorid_string_free(logout);
    logout = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_end_session_url(state, NULL, NULL, &logout));
    snprintf(expected, sizeof expected, "%s/logout?id_token_hint=aGRy.eyJzdWIiOiJ1c2VyLTEiLCJhdWQiOiJjLTEifQ.c2ln&client_id=c-1", base_url);
    CHECK_STR(expected, logout);
    telenorid_string_free(logout);
    CHECK(signed_in(state) == 1); /* does not sign out */

    /* Revocation: the refresh token goes, then the state is signed out (and the host told). */
    int changes = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(state, change_counter, &changes));
    /* Signed out first, so no refresh in flight can bring the grant back; a failed revocation is reported
     * and the state stays signed out (the user asked to be). */
    stub_set(&server, "POST", "/revoke", 503, "text/plain", "busy", NULL, 0);
    CHECK_STATUS(TELENORID_E_TEMPORARILY_UNAVAILABLE, telenorid_auth_state_revoke(state));
    sent = stub_last_request(&server, "POST", "/revoke");
    CHECK_CONTAINS(sent, "token=rt-u");
    CHECK_CONTAINS(sent, "token_type_hint=refresh_token");
    CHECK_CONTAINS(sent, "client_id=c-1");
    free(sent);
    CHECK(changes == 1);
    CHECK(signed_in(state) == 0);
    CHECK_STATUS(TELENORID_E_NOT_SIGNED_IN, telenorid_auth_state_revoke(state));
    char *out = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_serialize(state, &out));
    /* Signed out: only who the state belongs to is left. */
    CHECK(strstr(out, "\"version\":1") != NULL && strstr(out, "\"client_id\":\"c-1\"") != NULL);
    CHECK(strstr(out, "token") == NULL);
    telenorid_string_free(out);
    telenorid_auth_state_free(state);

    /* Without a refresh token, revocation sends the access token. */
    stub_set(&server, "POST", "/revoke", 200, "application/json", "", NULL, 0);
    state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client, "{\"version\":1,\"access_token\":\"only-at\",\"token_type\":\"Bearer\"}", &state));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_revoke(state));
    sent = stub_last_request(&server, "POST", "/revoke");
    CHECK_CONTAINS(sent, "token=only-at");
    CHECK_CONTAINS(sent, "token_type_hint=access_token");
    free(sent);
    telenorid_auth_state_free(state);

    /* An expired token without a refresh token can't be made fresh. */
    state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client, "{\"version\":1,\"access_token\":\"old\",\"token_type\":\"Bearer\",\"expires_at\":1}", &state));
    out = SENTINEL;
    CHECK_FAILS_UNTOUCHED(TELENORID_E_NOT_SIGNED_IN, out, telenorid_auth_state_fresh_access_token(state, &out));
    telenorid_auth_state_free(state);

    /* Serialized states this version can't read. */
    telenorid_auth_state *bad = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client, "{\"version\":1}", &state)); /* signed out */
    CHECK(signed_in(state) == 0);
    telenorid_auth_state_free(state);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_VERSION, bad, telenorid_auth_state_restore(client, "{\"version\":2,\"access_token\":\"a\"}", &bad));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_auth_state_restore(client, "[", &bad));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_auth_state_restore(client, "{}", &bad));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_auth_state_restore(client, "{\"version\":1,\"access_token\":\"a\"}", &bad));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_auth_state_restore(client, "{\"version\":1,\"access_token\":\"a\",\"token_type\":\"Bearer\",\"expires_at\":\"soon\"}", &bad));
    telenorid_client_free(client);
    telenorid_config_free(config);
}

struct fresh_race { pthread_barrier_t *start; telenorid_auth_state *state; telenorid_status status; char *token; };

static void *race_fresh_token(void *arg) {
    struct fresh_race *r = arg;
    char *token = NULL;
    pthread_barrier_wait(r->start);
    r->status = telenorid_auth_state_fresh_access_token(r->state, &token);
    r->token = take(token);
    return NULL;
}

/* Eight threads want a fresh token from one state whose token expired: one refresh goes out. */
static void test_single_flight_refresh(void) {
    const char *extra[] = {"6", NULL, NULL}; /* TELENORID_CONFIG_TOKEN_ENDPOINT, set below */
    char token_endpoint[128];
    snprintf(token_endpoint, sizeof token_endpoint, "%s/token-sf", base_url);
    extra[1] = token_endpoint;
    telenorid_config *config = provider_config("", extra);
    telenorid_client *client = NULL;
    telenorid_auth_state *state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client,
        "{\"version\":1,\"access_token\":\"stale\",\"token_type\":\"Bearer\",\"expires_at\":1,\"refresh_token\":\"rt-s\"}", &state));
    int changes = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(state, change_counter, &changes));
    stub_set(&server, "POST", "/token-sf", 200, "application/json",
             "{\"access_token\":\"at-fresh\",\"token_type\":\"Bearer\",\"expires_in\":3600}", NULL, 300);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, RACERS);
    pthread_t threads[RACERS];
    struct fresh_race races[RACERS];
    for (int i = 0; i < RACERS; i++) {
        races[i] = (struct fresh_race){&start, state, -1, NULL};
        CHECK(pthread_create(&threads[i], NULL, race_fresh_token, &races[i]) == 0);
    }
    for (int i = 0; i < RACERS; i++) {
        pthread_join(threads[i], NULL);
        CHECK_STATUS(TELENORID_OK, races[i].status);
        CHECK_STR("at-fresh", races[i].token);
        free(races[i].token);
    }
    pthread_barrier_destroy(&start);
    CHECK(stub_hits(&server, "POST", "/token-sf") == 1);
    /* The header: "called after every change ... on the thread that made the change": one refresh, one call. */
    CHECK(changes == 1);
    telenorid_auth_state_free(state);
    telenorid_client_free(client);
    telenorid_config_free(config);
}

/* The network failures each get their status: refused, TLS, timeout, size cap, HTTP status, issuer. */
static void test_transport_errors(void) {
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

/* Confidential clients authenticate at the token endpoint as configured. */
static void test_client_authentication(void) {
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
static void test_iss_required(void) {
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
        telenorid_callback *callback = make_callback(pending, "com.example.app:/cb?code=no-iss&state=");
        int token_calls = stub_hits(&server, "POST", "/token");
        telenorid_auth_state *state = SENTINEL;
        telenorid_status status = telenorid_client_exchange_code(client, callback, &state);
        /* With or without an earlier telenorid_client_discover(), the code never goes out. */
        CHECK_STATUS(TELENORID_E_ISSUER_MISMATCH, status);
        CHECK(state == SENTINEL);
        CHECK(stub_hits(&server, "POST", "/token") == token_calls);
        telenorid_callback_free(callback);
        telenorid_pending_auth_free(pending);
        telenorid_client_free(client);
    }
    telenorid_config_free(config);
}

/* Two auth states on one file stand for two processes (an app and its widget): the second uses the
 * refresh the first made instead of redeeming the rotated-away refresh token; a sign-out reaches it too. */
static void test_auth_state_file(void) {
    char directory[] = "/tmp/telenorid-test-XXXXXX", path[128], lock[160];
    if (!CHECK(mkdtemp(directory) != NULL)) return;
    snprintf(path, sizeof path, "%s/state.json", directory);
    snprintf(lock, sizeof lock, "%s.lock", path);
    telenorid_config *config = provider_config("", NULL);
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    serve_discovery("", NULL);
    telenorid_auth_state *first = NULL, *second = NULL, *missing = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_open_file(client, path, &first)); /* no file yet: signed out */
    CHECK(signed_in(first) == 0);
    struct stat info;
    CHECK(stat(path, &info) == 0 && (info.st_mode & 0777) == 0600);
    telenorid_auth_state_free(first);
    first = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client,
        "{\"version\":1,\"access_token\":\"at-f\",\"token_type\":\"Bearer\",\"expires_at\":1,\"refresh_token\":\"rt-f\"}", &first));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_bind_file(first, path));
    CHECK(stat(path, &info) == 0 && (info.st_mode & 0777) == 0600 && stat(lock, &info) == 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_open_file(client, path, &second));
    CHECK_TOKEN(second, TELENORID_TOKEN_REFRESH_TOKEN, "rt-f");

    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"at-g\",\"token_type\":\"Bearer\",\"expires_in\":3600,\"refresh_token\":\"rt-g\"}", NULL, 0);
    int token_calls = stub_hits(&server, "POST", "/token");
    char *token = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_fresh_access_token(first, &token));
    CHECK_STR("at-g", token);
    telenorid_string_free(token);
    token = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_fresh_access_token(second, &token)); /* expired in memory */
    CHECK_STR("at-g", token);
    telenorid_string_free(token);
    CHECK(stub_hits(&server, "POST", "/token") == token_calls + 1); /* one refresh between the two */
    CHECK_TOKEN(second, TELENORID_TOKEN_REFRESH_TOKEN, "rt-g");

    /* Forced refreshes in both, one after the other: the second takes the first's, as threads waiting on one
     * refresh share it; and the one request sent rt-g, never rt-f again. */
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"at-h\",\"token_type\":\"Bearer\",\"expires_in\":3600,\"refresh_token\":\"rt-h\"}", NULL, 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_refresh(first));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_refresh(second));
    char *sent = stub_last_request(&server, "POST", "/token");
    CHECK_CONTAINS(sent, "refresh_token=rt-g");
    free(sent);
    CHECK(stub_hits(&server, "POST", "/token") == token_calls + 2);
    CHECK_TOKEN(second, TELENORID_TOKEN_ACCESS_TOKEN, "at-h");

    stub_set(&server, "POST", "/revoke", 200, "application/json", "", NULL, 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_revoke(first));
    CHECK_STATUS(TELENORID_E_NOT_SIGNED_IN, telenorid_auth_state_refresh(second)); /* the file says signed out */
    CHECK(signed_in(second) == 0);

    /* A directory that does not exist: a configuration error naming the system's reason. */
    char nowhere[160];
    snprintf(nowhere, sizeof nowhere, "%s/no/such/dir/state.json", directory);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONFIGURATION, missing, telenorid_auth_state_open_file(client, nowhere, &missing));
    CHECK_LAST_ERROR(TELENORID_E_CONFIGURATION, "No such file or directory");

    telenorid_auth_state_free(first);
    telenorid_auth_state_free(second);
    telenorid_client_free(client);
    telenorid_config_free(config);
    unlink(lock);
    unlink(path);
    rmdir(directory);
}

/* How each answer to a refresh is judged: by status and body together. */
static void test_refresh_verdicts(void) {
    static const struct {
        int status;
        const char *content_type, *body, *headers;
        telenorid_status expected;
        int32_t still_signed_in;
        int64_t retry_after;
    } cases[] = {
        {400, "text/plain", "", NULL, TELENORID_E_AUTHORIZATION_LOST, 0, -1},
        {401, "text/html", "<html>no</html>", NULL, TELENORID_E_AUTHORIZATION_LOST, 0, -1},
        {400, "application/json", "{\"error\":\"invalid_grant\"}", NULL, TELENORID_E_AUTHORIZATION_LOST, 0, -1},
        {401, "application/json", "{\"error\":\"invalid_client\"}", NULL, TELENORID_E_CLIENT_REJECTED, 1, -1},
        {400, "application/json", "{\"error\":\"unauthorized_client\"}", NULL, TELENORID_E_CLIENT_REJECTED, 1, -1},
        {400, "application/json", "{\"error\":\"access_denied\"}", NULL, TELENORID_E_AUTHORIZATION_ERROR, 1, -1},
        {503, "application/json", "{\"error\":\"invalid_grant\"}", "Retry-After: 9\r\n", TELENORID_E_TEMPORARILY_UNAVAILABLE, 1, 9},
        {429, "text/plain", "", "Retry-After: 30\r\n", TELENORID_E_TEMPORARILY_UNAVAILABLE, 1, 30},
        {302, "application/json", "{\"error\":\"invalid_grant\"}", "Location: http://127.0.0.1:9/\r\n",
         TELENORID_E_TEMPORARILY_UNAVAILABLE, 1, -1},
        {404, "text/plain", "", NULL, TELENORID_E_HTTP_STATUS, 1, -1},
        {200, "application/json", "{\"access_token\":\"a\",\"token_type\":\"DPoP\"}", NULL, TELENORID_E_INVALID_RESPONSE, 1, -1},
        {200, "application/json", "{\"access_token\":\"a\\u0000b\",\"token_type\":\"Bearer\"}", NULL,
         TELENORID_E_INVALID_RESPONSE, 1, -1},
    };
    telenorid_config *config = provider_config("", NULL);
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    serve_discovery("", NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        telenorid_auth_state *state = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client,
            "{\"version\":1,\"access_token\":\"at-v\",\"token_type\":\"Bearer\",\"refresh_token\":\"rt-v\"}", &state));
        int changes = 0;
        CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(state, change_counter, &changes));
        stub_set(&server, "POST", "/token", cases[i].status, cases[i].content_type, cases[i].body, cases[i].headers, 0);
        if (!CHECK_STATUS(cases[i].expected, telenorid_auth_state_refresh(state))) fprintf(stderr, "  case %zu\n", i);
        telenorid_error *e = telenorid_error_last();
        CHECK(telenorid_error_retry_after(e) == cases[i].retry_after);
        telenorid_error_free(e);
        if (!CHECK(signed_in(state) == cases[i].still_signed_in && changes == !cases[i].still_signed_in)) {
            fprintf(stderr, "  case %zu\n", i);
        }
        if (cases[i].still_signed_in) CHECK_TOKEN(state, TELENORID_TOKEN_REFRESH_TOKEN, "rt-v");
        telenorid_auth_state_free(state);
    }
    telenorid_client_free(client);
    telenorid_config_free(config);
}

static void *refresh_on_thread(void *state) {
    telenorid_status *outcome = malloc(sizeof *outcome);
    if (outcome) *outcome = telenorid_auth_state_refresh(state);
    return outcome;
}

/* A sign-out while a refresh is out wins: the refresh's tokens are not kept, not announced, and revoked. */
static void test_sign_out_during_a_refresh(void) {
    telenorid_config *config = provider_config("", NULL);
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    serve_discovery("", NULL);
    telenorid_auth_state *state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client,
        "{\"version\":1,\"access_token\":\"at-r\",\"token_type\":\"Bearer\",\"refresh_token\":\"rt-r\"}", &state));
    int changes = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(state, change_counter, &changes));
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"at-s\",\"token_type\":\"Bearer\",\"refresh_token\":\"rt-s\"}", NULL, 400);
    stub_set(&server, "POST", "/revoke", 200, "application/json", "", NULL, 0);
    int revocations = stub_hits(&server, "POST", "/revoke");
    pthread_t thread;
    if (!CHECK(pthread_create(&thread, NULL, refresh_on_thread, state) == 0)) return;
    stub_sleep_ms(100);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_revoke(state));
    void *outcome = NULL;
    pthread_join(thread, &outcome);
    CHECK(outcome && *(telenorid_status *)outcome == TELENORID_E_NOT_SIGNED_IN);
    free(outcome);
    CHECK(signed_in(state) == 0 && changes == 1);
    CHECK_TOKEN(state, TELENORID_TOKEN_REFRESH_TOKEN, NULL);
    CHECK(stub_hits(&server, "POST", "/revoke") == revocations + 2); /* the given-up grant and the discarded one */
    char *sent = stub_last_request(&server, "POST", "/revoke");
    CHECK_CONTAINS(sent, "token=rt-s");
    free(sent);
    telenorid_auth_state_free(state);
    telenorid_client_free(client);
    telenorid_config_free(config);
}

/* A code whose request never left (nothing listens on the token endpoint's port) can be exchanged again;
 * once a request reached the provider, the code is spent. */
static void test_exchange_never_sent(void) {
    const char *closed[] = {"6", "http://127.0.0.1:9/token", NULL}; /* 6: TELENORID_CONFIG_TOKEN_ENDPOINT */
    telenorid_config *broken_config = provider_config("", closed), *config = provider_config("", NULL);
    telenorid_client *broken = NULL, *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(broken_config, &broken));
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    serve_discovery("", NULL);
    telenorid_config *effective = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_config(client, &effective));
    telenorid_pending_auth *pending = make_pending(effective, 0);
    telenorid_callback *callback = make_callback(pending, "com.example.app:/cb?code=code-n&state=");
    telenorid_auth_state *state = SENTINEL;
    CHECK_FAILS_UNTOUCHED(TELENORID_E_NETWORK, state, telenorid_client_exchange_code(broken, callback, &state));
    stub_set(&server, "POST", "/token", 500, "text/plain", "", NULL, 0);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_TEMPORARILY_UNAVAILABLE, state, telenorid_client_exchange_code(client, callback, &state));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONSUMED, state, telenorid_client_exchange_code(client, callback, &state));
    telenorid_callback_free(callback);
    telenorid_pending_auth_free(pending);
    telenorid_config_free(effective);
    telenorid_client_free(client);
    telenorid_client_free(broken);
    telenorid_config_free(config);
    telenorid_config_free(broken_config);
}

/* The one transient rule, asked of the library. */
static void test_transient_rule(void) {
    for (int i = 0; i < STATUS_COUNT; i++) {
        telenorid_status code = all_statuses[i].code;
        int expected = code == TELENORID_E_TIMEOUT || code == TELENORID_E_NETWORK || code == TELENORID_E_TLS ||
                       code == TELENORID_E_TEMPORARILY_UNAVAILABLE;
        if (!CHECK(telenorid_status_is_transient(code) == expected)) fprintf(stderr, "  %s\n", all_statuses[i].name);
    }
    CHECK(telenorid_status_is_transient(-1) == 0 && telenorid_status_is_transient(9999) == 0);
    CHECK(telenorid_error_retry_after(NULL) == -1);
}

static void test_network(void) {
    if (!CHECK(stub_start(&server) == 0)) return;
    snprintf(base_url, sizeof base_url, "http://127.0.0.1:%u", (unsigned)server.port);
    test_client_sign_in();
    test_auth_state_restored();
    test_single_flight_refresh();
    test_client_authentication();
    test_iss_required();
    test_transport_errors();
    test_auth_state_file();
    test_refresh_verdicts();
    test_sign_out_during_a_refresh();
    test_exchange_never_sent();
    stub_stop(&server);
}


/* The loopback redirect listener over a real socket: a request queued before the wait is served by it. */
static int connect_loopback(unsigned port, const char *request) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) return -1;
    if (request && send(fd, request, strlen(request), 0) < 0) return -1;
    return fd;
}

static void test_loopback(void) {
    telenorid_loopback *listener = SENTINEL;
    char *s = SENTINEL;
    CHECK_NULL_ARG("out", telenorid_loopback_new(0, NULL, NULL));
    CHECK_NULL_ARG("listener", telenorid_loopback_redirect_uri(NULL, &s));
    CHECK_NULL_ARG("listener", telenorid_loopback_wait(NULL, 10, &s));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_ARGUMENT, listener, telenorid_loopback_new(0, "no-slash", &listener));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_ARGUMENT, listener, telenorid_loopback_new(0, "/a?b", &listener));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_ARGUMENT, listener, telenorid_loopback_new(0, "/\xc3\x28", &listener));
    if (!CHECK_STATUS(TELENORID_OK, telenorid_loopback_new(0, "/done", &listener))) return;
    CHECK_NULL_ARG("out", telenorid_loopback_wait(listener, 10, NULL));
    telenorid_pkce *pkce = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pkce_new(0, &pkce));
    CHECK_WRONG_KIND(telenorid_loopback_wait(AS(telenorid_loopback, pkce), 10, &s));
    CHECK_WRONG_KIND(telenorid_loopback_redirect_uri(AS(telenorid_loopback, pkce), &s));
    telenorid_pkce_free(pkce);
    char *uri = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_loopback_redirect_uri(listener, &uri));
    unsigned port = 0;
    CHECK(uri && sscanf(uri, "http://127.0.0.1:%u/done", &port) == 1 && port > 0);
    telenorid_loopback *same_port = SENTINEL;
    CHECK_FAILS_UNTOUCHED(TELENORID_E_NETWORK, same_port, telenorid_loopback_new((uint16_t)port, NULL, &same_port));
    /* A wrong path first (answered 404), then the redirect; both queued before the wait. */
    /* The Host names the listener's own port, as a browser sends it (anything else is refused: DNS rebinding). */
    char head[128];
    snprintf(head, sizeof head, "GET /elsewhere?code=x HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n\r\n", port);
    int wrong = connect_loopback(port, head);
    snprintf(head, sizeof head, "GET /done?code=c-1&state=s-1 HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n\r\n", port);
    int right = connect_loopback(port, head);
    CHECK(wrong >= 0 && right >= 0);
    char *redirect = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_loopback_wait(listener, 10000, &redirect));
    char expected[128];
    snprintf(expected, sizeof expected, "http://127.0.0.1:%u/done?code=c-1&state=s-1", port);
    CHECK_STR(expected, redirect);
    char answer[64] = {0};
    CHECK(recv(wrong, answer, sizeof answer - 1, 0) > 0 && strncmp(answer, "HTTP/1.1 404", 12) == 0);
    memset(answer, 0, sizeof answer);
    CHECK(recv(right, answer, sizeof answer - 1, 0) > 0 && strncmp(answer, "HTTP/1.1 200", 12) == 0);
    close(wrong);
    close(right);
    /* Once: a second wait is refused; a wait with nothing coming times out. */
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONSUMED, s, telenorid_loopback_wait(listener, 10, &s));
    telenorid_loopback *idle = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_loopback_new(0, NULL, &idle));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_ARGUMENT, s, telenorid_loopback_wait(idle, 0, &s));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_TIMEOUT, s, telenorid_loopback_wait(idle, 50, &s));
    /* A timeout hands nothing out: the listener can wait again, and times out again. */
    CHECK_FAILS_UNTOUCHED(TELENORID_E_TIMEOUT, s, telenorid_loopback_wait(idle, 50, &s));
    telenorid_loopback_free(idle);
    telenorid_string_free(redirect);
    telenorid_string_free(uri);
    telenorid_loopback_free(listener);
    telenorid_loopback_free(NULL);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    test_no_error_yet();
    test_versions();
    test_status_strings();
    test_transient_rule();
    test_error_copies();
    test_free_null();
    test_null_arguments();
    test_wrong_kind();
    test_invalid_utf8();
    test_length_limit();
    test_unknown_enums();
    test_pkce();
    test_config_builder();
    test_config_json();
    test_auth_request();
    test_pending_serialization();
    test_callbacks();
    test_app_callbacks();
    test_free_order();
    test_last_error_is_per_thread();
    test_callback_race();
    test_shared_request();
    test_network();
    test_loopback();
    return finish_checks();
}
