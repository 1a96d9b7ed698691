/* The library-wide parts of the contract (Support): versions, status codes and their names, the thread-local last
 * error and the one transient rule. Part of test_api. */
#include "api_support.h"

/* ------------------------------------------------------------------------------------------------
 * Versions and status codes
 * --------------------------------------------------------------------------------------------- */

void test_versions(void) {
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
    STATUS_ENTRY(TELENORID_E_EXPIRED),
};
#define STATUS_COUNT ((int)(sizeof all_statuses / sizeof all_statuses[0]))

void test_status_strings(void) {
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
void test_no_error_yet(void) {
    CHECK(telenorid_error_last() == NULL);
    /* Successful calls record nothing. */
    telenorid_pkce *pkce = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pkce_new(0, &pkce));
    telenorid_pkce_free(pkce);
    CHECK(telenorid_error_last() == NULL);
}

void test_error_copies(void) {
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
 * The last error on other threads
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

void test_last_error_is_per_thread(void) {
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

/* The one transient rule, asked of the library. */
void test_transient_rule(void) {
    for (int i = 0; i < STATUS_COUNT; i++) {
        telenorid_status code = all_statuses[i].code;
        int expected = code == TELENORID_E_TIMEOUT || code == TELENORID_E_NETWORK || code == TELENORID_E_TLS ||
                       code == TELENORID_E_TEMPORARILY_UNAVAILABLE;
        if (!CHECK(telenorid_status_is_transient(code) == expected)) fprintf(stderr, "  %s\n", all_statuses[i].name);
    }
    CHECK(telenorid_status_is_transient(-1) == 0 && telenorid_status_is_transient(9999) == 0);
    CHECK(telenorid_error_retry_after(NULL) == -1);
}
