/* A tiny assertion harness for the C tests: counts checks, reports each failure with its file and line,
 * and ends with the line "N passed, M failed" that CI reads. Checks may run on any thread. It knows nothing
 * of telenorid, so the dlopen test can use it without linking the library. */
#ifndef TELENORID_TEST_CHECK_H
#define TELENORID_TEST_CHECK_H
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#ifdef CHECK_SHARED_COUNTS
/* A program of several files keeps one count: one of its files defines these. */
extern int checks_passed, checks_failed;
extern pthread_mutex_t checks_lock;
#else
static int checks_passed, checks_failed;
static pthread_mutex_t checks_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

static inline void check_count(int ok) {
    pthread_mutex_lock(&checks_lock);
    if (ok) checks_passed++; else checks_failed++;
    pthread_mutex_unlock(&checks_lock);
}

/* Counts one check; prints `what` on failure. Returns `ok` so a caller can skip dependent checks. */
static inline int check_report(int ok, const char *file, int line, const char *what) {
    check_count(ok);
    if (!ok) fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    return ok;
}

#define CHECK(cond) check_report((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

/* Two strings equal; NULL `actual` is a failure (use CHECK(x == NULL) to expect NULL). */
#define CHECK_STR(expected, actual) check_str_at((expected), (actual), __FILE__, __LINE__)

static inline int check_str_at(const char *expected, const char *actual, const char *file, int line) {
    int ok = actual != NULL && strcmp(expected, actual) == 0;
    check_count(ok);
    if (!ok) fprintf(stderr, "%s:%d: expected \"%s\", got %s%s%s\n", file, line, expected, actual ? "\"" : "",
                     actual ? actual : "NULL", actual ? "\"" : "");
    return ok;
}

/* `needle` occurs in `haystack` (a NULL haystack fails). */
#define CHECK_CONTAINS(haystack, needle) check_contains_at((haystack), (needle), __FILE__, __LINE__)

static inline int check_contains_at(const char *haystack, const char *needle, const char *file, int line) {
    int ok = haystack != NULL && strstr(haystack, needle) != NULL;
    check_count(ok);
    if (!ok) fprintf(stderr, "%s:%d: \"%s\" not found in %s%s%s\n", file, line, needle, haystack ? "\"" : "",
                     haystack ? haystack : "NULL", haystack ? "\"" : "");
    return ok;
}

static inline int finish_checks(void) {
    printf("%d passed, %d failed\n", checks_passed, checks_failed);
    fflush(stdout);
    return checks_failed == 0 ? 0 : 1;
}
#endif
