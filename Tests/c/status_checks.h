/* Checks of telenorid statuses and last errors, for every C test that links the library (check.h itself
 * knows nothing of telenorid, so the dlopen test can use it). Static inline: a test that uses one of
 * them does not warn about the other. */
#ifndef TELENORID_TEST_STATUS_CHECKS_H
#define TELENORID_TEST_STATUS_CHECKS_H
#include "check.h"
#include "telenorid.h"

/* A call's status; on a mismatch it prints the last error's message too. */
#define CHECK_STATUS(expected, call) check_status_at((expected), (call), #call, __FILE__, __LINE__)

static inline int check_status_at(telenorid_status expected, telenorid_status actual, const char *call,
                                  const char *file, int line) {
    if (actual == expected) { check_count(1); return 1; }
    check_count(0);
    telenorid_error *error = actual == TELENORID_OK ? NULL : telenorid_error_last();
    fprintf(stderr, "%s:%d: %s gave %d (%s%s%s), expected %d (%s)\n", file, line, call, actual,
            telenorid_status_str(actual), error ? ": " : "", error ? telenorid_error_message(error) : "", expected,
            telenorid_status_str(expected));
    telenorid_error_free(error);
    return 0;
}

/* The calling thread's last error has `status` and a non-empty message containing `contains` (when not NULL). */
#define CHECK_LAST_ERROR(status, contains) check_last_error_at((status), (contains), __FILE__, __LINE__)

static inline int check_last_error_at(telenorid_status status, const char *contains, const char *file, int line) {
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

/* An output pointer's value before a call that must leave it untouched when it fails (outputs are written only
 * on success), and a handle of one kind passed where another kind is expected. */
#define SENTINEL ((void *)0x1)
#define AS(type, handle) ((type *)(void *)(handle))

/* Run before each check of a refused argument below. A test that can first make the last error a known other
 * one, so that the check sees only what the call records, defines it before including this header (test_api:
 * prime_last_error, api_support.h). */
#ifndef CHECK_BEFORE_REFUSAL
#define CHECK_BEFORE_REFUSAL() ((void)0)
#endif

/* NULL for the parameter `name`: INVALID_ARGUMENT, and a last error that says "<name> is NULL". */
#define CHECK_NULL_ARG(name, call) do { \
    CHECK_BEFORE_REFUSAL(); \
    if (CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, call)) CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, name " is NULL"); \
} while (0)

/* A handle of another kind: INVALID_ARGUMENT, and a last error that says so. */
#define CHECK_WRONG_KIND(call) do { \
    CHECK_BEFORE_REFUSAL(); \
    if (CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, call)) CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "another kind"); \
} while (0)
#endif
