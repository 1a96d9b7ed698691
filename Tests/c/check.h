/* A tiny assertion harness for the C tests: counts checks, reports failures with their line, and ends
 * with the "N passed, M failed" line CI reads. */
#ifndef TELENORID_TEST_CHECK_H
#define TELENORID_TEST_CHECK_H
#include <stdio.h>
#include <string.h>

static int checks_passed, checks_failed;

#define CHECK(cond) do { \
    if (cond) { checks_passed++; } \
    else { checks_failed++; fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

#define CHECK_STATUS(expected, call) do { \
    telenorid_status check_status_ = (call); \
    if (check_status_ == (expected)) { checks_passed++; } \
    else { \
        checks_failed++; \
        telenorid_error *check_error_ = telenorid_error_last(); \
        fprintf(stderr, "%s:%d: %s gave %d (%s: %s), expected %d\n", __FILE__, __LINE__, #call, check_status_, \
                telenorid_status_str(check_status_), telenorid_error_message(check_error_), (expected)); \
        telenorid_error_free(check_error_); \
    } \
} while (0)

#define CHECK_STR(expected, actual) do { \
    const char *check_a_ = (actual); \
    if (check_a_ && strcmp((expected), check_a_) == 0) { checks_passed++; } \
    else { checks_failed++; fprintf(stderr, "%s:%d: expected \"%s\", got \"%s\"\n", __FILE__, __LINE__, (expected), \
                                     check_a_ ? check_a_ : "(null)"); } \
} while (0)

static int finish_checks(void) {
    printf("%d passed, %d failed\n", checks_passed, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}
#endif
