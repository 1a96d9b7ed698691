/* What the parts of test_api (test_api.c with main, and test_api_<room>.c) share: the checks that need the
 * library, string and configuration helpers (test_api_helpers.c), the stand-in provider, and each part's
 * entry points. Include it first: it sets the POSIX feature level for the system headers. */
#ifndef TELENORID_TEST_API_SUPPORT_H
#define TELENORID_TEST_API_SUPPORT_H
#define _POSIX_C_SOURCE 200809L
/* One count of checks for the whole program, defined in test_api_helpers.c. */
#define CHECK_SHARED_COUNTS
#include <limits.h>
#include <sys/stat.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <telenorid.h>
/* The refused-argument checks of status_checks.h (CHECK_NULL_ARG, CHECK_WRONG_KIND) prime the last error first. */
#define CHECK_BEFORE_REFUSAL() prime_last_error()
#include "status_checks.h"
#include "stub_server.h"

/* RFC 7636 appendix B. */
#define RFC7636_VERIFIER "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
#define RFC7636_CHALLENGE "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
#define UNRESERVED "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
#define BASE64URL "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

#define REDIRECT "telenorid-example://authcallback/"
#define APP_CALLBACK "merchantapp://app-callback"

/* How many threads the races start. */
#define RACERS 8

/* ------------------------------------------------------------------------------------------------
 * Helpers
 * --------------------------------------------------------------------------------------------- */

/* CHECK_STATUS and CHECK_LAST_ERROR: status_checks.h. */

/* Makes the last error a MALFORMED one, so a check that follows sees only what the next call records. */
void prime_last_error(void);

/* CHECK_NULL_ARG and CHECK_WRONG_KIND (SENTINEL, AS): status_checks.h, each after prime_last_error(). */

/* Expects `expected` (not OK) from `call` with `out` (a pointer variable) left at SENTINEL. */
#define CHECK_FAILS_UNTOUCHED(expected, out, call) do { \
    (out) = SENTINEL; \
    CHECK_STATUS((expected), call); \
    CHECK((void *)(out) == SENTINEL); \
} while (0)

char *xstrdup(const char *text);

/* A malloc'd concatenation of up to four strings (NULLs skipped). */
char *concat(const char *a, const char *b, const char *c, const char *d);

int hex_value(char c);

/* The percent-decoded value of query parameter `name` in `url` (malloc'd), or NULL when absent. */
char *url_param(const char *url, const char *name);

/* Checks that query parameter `name` of `url` decodes to `expected` (NULL: is absent). */
#define CHECK_PARAM(url, name, expected) check_param_at((url), (name), (expected), __FILE__, __LINE__)

void check_param_at(const char *url, const char *name, const char *expected, const char *file, int line);

/* A string copied out of the library into malloc'd memory (the library's copy freed), or NULL. */
char *take(char *library_string);

char *config_value(const telenorid_config *config, telenorid_config_key key);

#define CHECK_CONFIG(config, key, expected) do { \
    char *value_ = config_value((config), (key)); \
    CHECK_STR((expected), value_); \
    free(value_); \
} while (0)

telenorid_config_builder *builder_with(const char *issuer, const char *client_id, const char *redirect);

/* The Vipps-like configuration most local tests use. */
telenorid_config *make_config(void);

telenorid_pending_auth *make_pending(const telenorid_config *config, int app_to_app);

char *pending_string(telenorid_status (*getter)(const telenorid_pending_auth *, char **),
                     const telenorid_pending_auth *pending);

/* prefix + the pending request's state + suffix, malloc'd. */
char *with_state(const telenorid_pending_auth *pending, const char *prefix, const char *suffix);

telenorid_authorization_callback *make_callback(const telenorid_pending_auth *pending, const char *prefix);

char *big_string(size_t length, char fill);

void change_counter(void *user_data);

/* ------------------------------------------------------------------------------------------------
 * The stand-in provider (stub_server.h), started by test_api.c's test_network
 * --------------------------------------------------------------------------------------------- */

extern struct stub_server server;

extern char base_url[64];

telenorid_config *provider_config(const char *issuer_path, const char *extra_key_values[]);

/* A discovery document at issuer_path whose issuer is issuer_in_document (NULL: the right one), with
 * `extra_members` (NULL or ",\"name\":value...") added. */
void serve_discovery_with(const char *issuer_path, const char *issuer_in_document, const char *extra_members);

void serve_discovery(const char *issuer_path, const char *issuer_in_document);

char *state_string(const telenorid_auth_state *state, telenorid_token_field field);

/* One field of an auth state equals `expected` (NULL: is absent). */
#define CHECK_TOKEN(state, field, expected) check_token_at((state), (field), (expected), __FILE__, __LINE__)

void check_token_at(const telenorid_auth_state *state, telenorid_token_field field, const char *expected,
                    const char *file, int line);

int32_t signed_in(const telenorid_auth_state *state);

int64_t expires_at(const telenorid_auth_state *state);

/* ------------------------------------------------------------------------------------------------
 * Each part's entry points, which main and test_network call
 * --------------------------------------------------------------------------------------------- */

/* test_api_support.c */
void test_versions(void);
void test_status_strings(void);
void test_no_error_yet(void);
void test_error_copies(void);
void test_last_error_is_per_thread(void);
void test_transient_rule(void);
/* test_api_contract.c */
void test_free_null(void);
void test_null_arguments(void);
void test_wrong_kind(void);
void test_invalid_utf8(void);
void test_length_limit(void);
void test_unknown_enums(void);
void test_free_order(void);
void test_old_names(void);
/* test_api_config.c */
void test_config_builder(void);
void test_config_json(void);
/* test_api_authorization.c */
void test_pkce(void);
void test_auth_request(void);
void test_pending_serialization(void);
void test_callbacks(void);
void test_app_callbacks(void);
void test_callback_race(void);
void test_shared_request(void);
/* test_api_client.c */
void test_client_sign_in(void);
void test_client_authentication(void);
void test_iss_required(void);
void test_exchange_never_sent(void);
/* test_api_tokens.c */
void test_auth_state_restored(void);
void test_single_flight_refresh(void);
void test_auth_state_file(void);
void test_refresh_verdicts(void);
void test_sign_out_during_a_refresh(void);
/* test_api_http.c */
void test_transport_errors(void);
/* test_api_loopback.c */
void test_loopback(void);
/* test_api_grants.c */
void test_device_grant(void);
/* test_api_logging.c */
void test_logging(void);
#endif
